// The codec refuses what the protocol refuses, with the Python codec's error codes,
// and never throws on a frame.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { encode as rawPack } from "@msgpack/msgpack";

import {
  CloseCode,
  decode,
  DEFAULT_MAX_FRAME_BYTES,
  encode,
  encodingOf,
  RESUMABLE_CLOSE_CODES,
  subprotocol,
  SUBPROTOCOLS,
} from "../src/codec.js";
import { hexBytes, invalidCases, readJson, VECTORS_DIR } from "../test-support/helpers.js";

function refused(result, code) {
  assert.equal(result.ok, false, `expected ${code}, decoded ${JSON.stringify(result.message)}`);
  assert.equal(result.error.code, code, result.error.message);
  assert.equal(typeof result.error.message, "string");
  assert.ok(result.error.message.length > 0);
}

const VIEW = readJson(`${VECTORS_DIR}to_client/view.json`).cases[0].message;
const EVENTS = readJson(`${VECTORS_DIR}to_client/events.json`).cases[0].message;
const UPDATE = readJson(`${VECTORS_DIR}to_client/update.json`).cases[0].message;

describe("vectors/invalid.json", () => {
  const cases = invalidCases();
  test("has cases", () => assert.ok(cases.length > 0));
  for (const vector of cases) {
    test(`${vector.name} is refused with ${vector.code}`, () => {
      const frame = hexBytes(vector.frame_hex);
      refused(decode(frame, vector.encoding, { direction: vector.direction }), vector.code);
      // An ArrayBuffer (a browser's binary frame) reads the same.
      refused(decode(frame.buffer, vector.encoding, { direction: vector.direction }), vector.code);
    });
  }
});

describe("frames", () => {
  test("subprotocol names", () => {
    assert.equal(subprotocol("json"), "packplay.v2.json");
    assert.equal(subprotocol("msgpack"), "packplay.v2.msgpack");
    assert.deepEqual(SUBPROTOCOLS, { "packplay.v2.json": "json", "packplay.v2.msgpack": "msgpack" });
    assert.equal(encodingOf("packplay.v2.msgpack"), "msgpack");
    assert.equal(encodingOf("packplay.v1.json"), undefined, "v1 is retired");
    assert.equal(encodingOf("toString"), undefined);
  });

  test("the reject reason unavailable: retry the same action id", () => {
    const rejected = { type: "rejected", action_id: "a-1", reason: "unavailable", rule: null, message: "", version: 4 };
    assert.deepEqual(decode(encode(rejected, "json"), "json").message, rejected);
  });

  test("close codes: which ask for a reconnect and resume", () => {
    assert.equal(CloseCode.TRY_AGAIN_LATER, 1013);
    assert.deepEqual([...RESUMABLE_CLOSE_CODES].sort(), [1001, 1006, 1012, 1013, 4000]);
    for (const code of [1000, 1002, 1009, 1011, 4001, 4002, 4003, 4004]) {
      assert.ok(!RESUMABLE_CLOSE_CODES.includes(code), String(code));
    }
  });

  test("frames longer than maxBytes are refused unread", () => {
    const ping = encode({ type: "ping", nonce: "x".repeat(40) }, "json");
    const options = { direction: "from_client", maxBytes: 20 };
    refused(decode(ping, "json", options), "frame_too_large");
    refused(decode(new TextEncoder().encode(ping), "json", options), "frame_too_large");
    refused(decode(encode({ type: "ping", nonce: "x".repeat(40) }, "msgpack"), "msgpack", options), "frame_too_large");
    assert.ok(decode(ping, "json", { direction: "from_client", maxBytes: ping.length }).ok);
  });

  test("a text frame's size is counted in UTF-8 bytes", () => {
    const ping = encode({ type: "ping", nonce: "é".repeat(10) }, "json"); // 10 characters, 20 bytes
    refused(decode(ping, "json", { direction: "from_client", maxBytes: ping.length }), "frame_too_large");
    assert.ok(decode(ping, "json", { direction: "from_client", maxBytes: ping.length + 10 }).ok);
  });

  test("the default limit is 64 KiB", () => {
    assert.equal(DEFAULT_MAX_FRAME_BYTES, 65536);
    const big = encode({ type: "pong", nonce: "n".repeat(DEFAULT_MAX_FRAME_BYTES) }, "json");
    refused(decode(big, "json"), "frame_too_large");
  });

  test("MessagePack frames must be binary", () => {
    refused(decode('{"type":"pong"}', "msgpack"), "bad_message");
  });

  test("values that are not frames are refused", () => {
    for (const frame of [null, undefined, 42, {}, [1, 2], true]) refused(decode(frame, "json"), "bad_message");
  });

  test("text frames with lone surrogates are refused", () => {
    refused(decode('{"type":"pong","nonce":"\ud800"}', "json"), "bad_message");
  });

  test("a byte order mark is not JSON", () => {
    refused(decode(hexBytes("efbbbf7b2274797065223a22706f6e67227d"), "json"), "bad_message");
  });

  test("MessagePack timestamps and non-string map keys are refused", () => {
    refused(decode(rawPack({ type: "pong", at: new Date(0) }), "msgpack"), "bad_message");
    refused(decode(hexBytes("82a474797065a4706f6e670102"), "msgpack"), "bad_message"); // {type: pong, 1: 2}
  });

  test("bad arguments are programming errors and throw", () => {
    assert.throws(() => decode("{}", "yaml"), TypeError);
    assert.throws(() => decode("{}", "json", { direction: "sideways" }), TypeError);
    assert.throws(() => encode({ type: "ping" }, "xml"), TypeError);
    assert.throws(() => encode([1], "json"), TypeError);
  });
});

describe("messages", () => {
  test("the type decides: unknown or wrong-direction types are unknown_type", () => {
    refused(decode('{"type":"shout"}', "json"), "unknown_type");
    refused(decode('{"type":"ping","nonce":""}', "json"), "unknown_type"); // a client's message, read as a server's
    refused(decode('{"type":"toString"}', "json"), "unknown_type");
    refused(decode('{"type":"__proto__"}', "json"), "unknown_type");
  });

  test("a missing or non-string type is bad_message", () => {
    refused(decode('{"nonce":"x"}', "json"), "bad_message");
    refused(decode('{"type":7}', "json"), "bad_message");
    refused(decode('"pong"', "json"), "bad_message");
    refused(decode("null", "json"), "bad_message");
  });

  test("a failed act carries its action id", () => {
    const result = decode('{"type":"act","action_id":"a-9","version":-1,"action":{"type":"wedding_planner.draw"}}', "json", {
      direction: "from_client",
    });
    refused(result, "bad_message");
    assert.equal(result.error.action_id, "a-9");
    assert.equal(decode('{"type":"join"}', "json", { direction: "from_client" }).error.action_id, null);
  });

  test("unknown fields are kept; absent optional fields get their defaults", () => {
    const hello = decode('{"type":"hello","shiny":[1,{"a":2}]}', "json", { direction: "from_client" });
    assert.deepEqual(hello.message, { type: "hello", shiny: [1, { a: 2 }], client: "", token: null });
    const welcome = decode(
      '{"type":"welcome","server":"s","protocol":"packplay.v1.json","versions":[],"limits":{"extra":1}}',
      "json",
    );
    assert.ok(welcome.ok, welcome.error?.message);
    assert.deepEqual(welcome.message.limits, {
      extra: 1,
      max_frame_bytes: 65536,
      actions_per_second: 10,
      hello_timeout_seconds: 10,
      ping_interval_seconds: 20,
      send_queue: 256,
    });
    assert.equal(welcome.message.seat, null);
  });

  test("events of unknown types are dropped, known ones kept in order", () => {
    const future = { type: "day_night.eclipse", radius: 3 };
    const message = { ...EVENTS, events: [future, ...EVENTS.events, { no_type: true }, future] };
    for (const encoding of ["json", "msgpack"]) {
      const result = decode(encode(message, encoding), encoding);
      assert.ok(result.ok, result.error?.message);
      assert.deepEqual(result.message.events, EVENTS.events);
    }
    refused(decode(encode({ ...EVENTS, events: [42] }, "json"), "json"), "bad_message");
  });

  test("updates: absent fields get their defaults; an operation's value stays absent when absent", () => {
    const result = decode('{"type":"update","game_id":"g","version":3}', "json");
    assert.ok(result.ok, result.error?.message);
    const defaults = { events: [], patch: [], action_id: null };
    assert.deepEqual(result.message, { type: "update", game_id: "g", version: 3, ...defaults });
    const ops = [
      { op: "remove", path: "/a" },
      { op: "add", path: "/b", value: null },
      { op: "add", path: "/c", value: { d: [1] } },
    ];
    for (const encoding of ["json", "msgpack"]) {
      const decoded = decode(encode({ ...UPDATE, patch: ops }, encoding), encoding);
      assert.ok(decoded.ok, decoded.error?.message);
      assert.deepEqual(decoded.message.patch, ops);
      assert.ok(!Object.hasOwn(decoded.message.patch[0], "value"));
    }
  });

  test("updates: events of unknown types are dropped, as in events", () => {
    const future = { type: "mishra_factory.rewound", by: 2 };
    const result = decode(encode({ ...UPDATE, events: [future, ...UPDATE.events] }, "json"), "json");
    assert.deepEqual(result.message.events, UPDATE.events);
  });

  test("updates: every field is checked", () => {
    const bad = [
      { ...UPDATE, game_id: "no spaces" },
      { ...UPDATE, version: -1 },
      { ...UPDATE, version: 2 ** 53 },
      { ...UPDATE, version: 1.5 },
      { ...UPDATE, events: {} },
      { ...UPDATE, events: ["mishra_factory.taken"] },
      { ...UPDATE, patch: {} },
      { ...UPDATE, patch: [{ op: "move", from: "/a", path: "/b" }] },
      { ...UPDATE, patch: [{ op: "test", path: "/a", value: 1 }] },
      { ...UPDATE, patch: [{ path: "/a" }] },
      { ...UPDATE, patch: [{ op: "remove" }] },
      { ...UPDATE, patch: [{ op: "remove", path: 3 }] },
      { ...UPDATE, patch: ["remove /a"] },
      { ...UPDATE, action_id: "" },
      { ...UPDATE, action_id: "a".repeat(65) },
      { ...UPDATE, action_id: 7 },
    ];
    for (const message of bad) {
      for (const encoding of ["json", "msgpack"]) refused(decode(encode(message, encoding), encoding), "bad_message");
    }
    for (const field of ["game_id", "version"]) {
      const { [field]: _, ...without } = UPDATE;
      refused(decode(encode(without, "json"), "json"), "bad_message");
    }
  });

  test("a view's card table: ids of 1 to 64 characters, each card checked", () => {
    const [id, card] = Object.entries(VIEW.cards)[0];
    const withCards = (cards) => decode(encode({ ...VIEW, cards }, "json"), "json");
    const bad = [
      [],
      { "": card },
      { ["c".repeat(65)]: card },
      { [id]: "Plains" },
      { [id]: { ...card, rarity: "legendary" } },
      { [id]: { ...card, colors: ["P"] } },
      { [id]: { ...card, mana_value: "2" } },
      { [id]: { ...card, power: 2 } },
      { [id]: { ...card, foil: 1 } },
    ];
    for (const cards of bad) refused(withCards(cards), "bad_message");
    for (const field of ["set", "number", "name", "rarity", "id"]) {
      const { [field]: _, ...without } = card;
      refused(withCards({ [id]: without }), "bad_message");
    }
    const minimal = { set: "MH2", number: "1", name: "X", rarity: "common", id: "c1" };
    assert.deepEqual(withCards({ c1: minimal }).message.cards.c1, {
      ...minimal,
      layout: "normal",
      colors: [],
      mana_value: 0,
      type_line: "",
      supertypes: [],
      types: [],
      subtypes: [],
      power: null,
      toughness: null,
      loyalty: null,
      basic_land: false,
      foil: false,
      magic_back: true,
    });
    const { cards: _, ...withoutCards } = VIEW;
    assert.deepEqual(decode(encode(withoutCards, "json"), "json").message.cards, {});
  });

  test("a card id named __proto__ stays a key of the card table", () => {
    const card = { set: "MH2", number: "1", name: "X", rarity: "common", id: "__proto__" };
    const view = '{"type":"view","game_id":"g","game":"x","version":0,"seat":null,"pending":[],"legal":{}';
    const result = decode(`${view},"view":{"type":"x.view"},"cards":{"__proto__":${JSON.stringify(card)}}}`, "json");
    assert.ok(result.ok, result.error?.message);
    assert.deepEqual(Object.keys(result.message.cards), ["__proto__"]);
    assert.equal(Object.getPrototypeOf(result.message.cards), Object.prototype);
  });

  test("views of games this package does not know still decode", () => {
    const message = { ...VIEW, game: "tomorrow_game", view: { type: "tomorrow_game.view", x: 1 }, legal: {} };
    const result = decode(encode(message, "json"), "json");
    assert.ok(result.ok, result.error?.message);
    assert.deepEqual(result.message.legal, { actions: [], choices: [] });
  });

  test("an act must name a known action", () => {
    const act = { type: "act", action_id: "a", version: 0, action: { type: "tomorrow_game.go" } };
    refused(decode(encode(act, "json"), "json", { direction: "from_client" }), "bad_message");
  });

  test("versions and seeds are safe non-negative integers", () => {
    const accepted = (version) => decode(`{"type":"accepted","action_id":"a","version":${version}}`, "json");
    assert.equal(accepted(Number.MAX_SAFE_INTEGER).message.version, Number.MAX_SAFE_INTEGER);
    for (const bad of ["9007199254740992", "-1", "1.5", '"3"', "null", "true"]) refused(accepted(bad), "bad_message");
    refused(decode(encode({ ...VIEW, seed: 2 ** 53 }, "msgpack"), "msgpack"), "bad_message");
    refused(decode(encode({ ...VIEW, seed: -4 }, "json"), "json"), "bad_message");
    assert.equal(decode(encode({ ...VIEW, seed: 2 ** 53 - 1 }, "msgpack"), "msgpack").message.seed, 2 ** 53 - 1);
  });

  test("field constraints: ids, seats, closed sets, lengths", () => {
    const bad = [
      { ...VIEW, game_id: "" },
      { ...VIEW, game_id: "has space" },
      { ...VIEW, seat: 16 },
      { ...VIEW, pending: [0, "1"] },
      { ...VIEW, view: "day_night.view" },
      { ...VIEW, legal: { actions: [{ cards: [] }] } },
      { ...VIEW, legal: { choices: [{ ...VIEW.legal.choices[0], min_count: "2" }] } },
      { ...VIEW, legal: { choices: [{ ...VIEW.legal.choices[0], type: "pick" }] } },
      { type: "rejected", action_id: "a", reason: "bored", message: "", version: 1 },
      { type: "rejected", action_id: "a", reason: "duplicate", message: "m".repeat(2001), version: 1 },
      { type: "error", code: "teapot", message: "" },
      { type: "game_over", game_id: "g", result: { winners: [0], draw: "no", scores: [], reason: "", reason_text: "" }, replay_url: "/" },
      { type: "game_over", game_id: "g", result: { winners: [0], draw: false, scores: [1], reason: "land_revealed" }, replay_url: "/" },
    ];
    for (const message of bad) refused(decode(encode(message, "json"), "json"), "bad_message");
    const good = { type: "rejected", action_id: "a", reason: "duplicate", message: "😀".repeat(2000), version: 1 };
    assert.ok(decode(encode(good, "json"), "json").ok, "lengths count code points, as Python does");
    const token = (t) => decode(encode({ type: "hello", token: t }, "json"), "json", { direction: "from_client" });
    refused(token("short"), "bad_message");
    assert.ok(token("t".repeat(16)).ok);
  });

  test("integral floats decode as numbers from either encoding", () => {
    const over = readJson(`${VECTORS_DIR}to_client/game_over.json`).cases[0];
    assert.deepEqual(decode(hexBytes(over.msgpack_hex), "msgpack").message.result.scores, [1, 0]);
  });
});
