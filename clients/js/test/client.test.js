// The WebSocket client against a scripted socket: the frames it sends are valid
// client messages, and it keeps the exact view from the whole views and updates the
// server sends (gaps and patches that do not fit are answered with resume).

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { PackplayClient } from "../src/client.js";
import { decode, encode } from "../src/codec.js";
import { applyPatch } from "../src/patch.js";
import { readJson, VECTORS_DIR } from "../test-support/helpers.js";

const vector = (type, name) => {
  const cases = readJson(`${VECTORS_DIR}to_client/${type}.json`).cases;
  return structuredClone((name === undefined ? cases[0] : cases.find((c) => c.name === name)).message);
};
const WELCOME = vector("welcome");
const VIEW = vector("view", "mishra_factory"); // version 4; the update vectors make version 5 of it
const UPDATE = vector("update", "mishra_factory"); // action_id a-0003
const EVENTS = vector("events");

/** The view message `update` makes of `view`, computed apart from the client. */
function patched(view, update) {
  const next = applyPatch(structuredClone(view), update.patch);
  next.version = update.version;
  return next;
}

/** An update of `version` that sets the turn number (a patch that fits any version of VIEW). */
function turn(version, extra = {}) {
  const patch = [{ op: "replace", path: "/view/turn_number", value: version }];
  return { type: "update", game_id: VIEW.game_id, version, events: [], patch, action_id: null, ...extra };
}

/** A stand-in for `WebSocket`: records what is sent, lets the test play the server. */
class ScriptedSocket {
  static last = null;

  constructor(url, protocols) {
    this.url = url;
    this.protocols = protocols;
    this.protocol = "";
    this.sent = [];
    this.listeners = {};
    ScriptedSocket.last = this;
  }

  addEventListener(name, listener) {
    (this.listeners[name] ??= []).push(listener);
  }

  send(frame) {
    this.sent.push(frame);
  }

  close(code, reason) {
    this.dispatch("close", { code, reason });
  }

  dispatch(name, event = {}) {
    // As the `ws` package does (an EventEmitter), an error nobody listens to is thrown.
    if (name === "error" && !this.listeners.error?.length) throw new Error("unhandled error event");
    for (const listener of this.listeners[name] ?? []) listener(event);
  }

  /** Accept the connection with `protocol`, as a server does. */
  open(protocol = this.protocols[0]) {
    this.protocol = protocol;
    this.dispatch("open");
  }

  /** Deliver a server message in `encoding` (an ArrayBuffer for binary frames, as browsers do). */
  serve(message, encoding = "json") {
    const frame = encode(message, encoding);
    const data = typeof frame === "string" ? frame : frame.slice().buffer;
    this.dispatch("message", { data });
  }

  /** The messages sent so far, decoded as a server would. */
  received(encoding = "json") {
    return this.sent.map((frame) => {
      const decoded = decode(frame, encoding, { direction: "from_client" });
      assert.ok(decoded.ok, decoded.error?.message);
      return decoded.message;
    });
  }

  resumes() {
    return this.received().filter((m) => m.type === "resume");
  }
}

async function connected({ encoding = "json", token = "t".repeat(24), ...options } = {}) {
  const client = new PackplayClient({ WebSocket: ScriptedSocket, ...options });
  const welcome = client.connect("ws://localhost/v2/ws", { encoding, token });
  const socket = ScriptedSocket.last;
  socket.open();
  socket.serve({ ...WELCOME, protocol: `packplay.v2.${encoding}` }, encoding);
  await welcome;
  return { client, socket };
}

/** Every event the client emits, in order, as [name, payload]. */
function record(client, names = ["message", "view", "update", "accepted", "events", "gap", "rejected"]) {
  const seen = [];
  for (const name of names) client.on(name, (payload) => seen.push([name, payload]));
  return seen;
}

describe("PackplayClient: the connection", () => {
  test("needs a WebSocket", () => {
    assert.throws(() => new PackplayClient({ WebSocket: null }), TypeError);
  });

  test("connect offers the v2 subprotocol, sends hello and resolves with the welcome", async () => {
    const { client, socket } = await connected({ client: "bot/1" });
    assert.equal(socket.url, "ws://localhost/v2/ws");
    assert.deepEqual(socket.protocols, ["packplay.v2.json"]);
    assert.equal(socket.binaryType, "arraybuffer");
    assert.deepEqual(socket.received(), [{ type: "hello", client: "bot/1", token: "t".repeat(24) }]);
    assert.equal(client.welcome.seat, WELCOME.seat);
  });

  test("join, act, resume and ping send valid client messages", async () => {
    const { client, socket } = await connected();
    client.join("g7Hk2pQx");
    client.join("g7Hk2pQx", { role: "spectator", fromVersion: 3 });
    socket.serve(VIEW);
    const first = client.act({ type: "day_night.place", cards: ["c3f09a1b2c4", "c8d21e07a55"] });
    const second = client.act({ type: "wedding_planner.draw" }, { version: 9 });
    client.act({ type: "wedding_planner.draw" }, { actionId: first });
    client.resume();
    client.ping("n-1");
    const [, join, spectate, act1, act2, retry, resume, ping] = socket.received();
    assert.deepEqual(join, { type: "join", game_id: "g7Hk2pQx", role: "player", from_version: null });
    assert.deepEqual(spectate, { type: "join", game_id: "g7Hk2pQx", role: "spectator", from_version: 3 });
    assert.equal(act1.version, VIEW.version);
    assert.equal(act1.action_id, first);
    assert.equal(act2.version, 9);
    assert.equal(act2.action_id, second);
    assert.notEqual(first, second);
    assert.ok(first.length <= 64);
    assert.equal(retry.action_id, first);
    assert.deepEqual(resume, { type: "resume", from_version: VIEW.version });
    assert.deepEqual(ping, { type: "ping", nonce: "n-1" });
  });

  test("MessagePack: binary frames both ways, the view patched the same", async () => {
    const { client, socket } = await connected({ encoding: "msgpack" });
    assert.deepEqual(socket.protocols, ["packplay.v2.msgpack"]);
    assert.ok(socket.sent.every((frame) => frame instanceof Uint8Array));
    socket.serve(VIEW, "msgpack");
    socket.serve(UPDATE, "msgpack");
    assert.deepEqual(client.view, patched(VIEW, UPDATE));
    client.ping();
    assert.equal(socket.received("msgpack").at(-1).type, "ping");
  });

  test("handlers get each message by type and all messages; off removes them", async () => {
    const { client, socket } = await connected();
    const all = [];
    const pongs = [];
    client.on("message", (m) => all.push(m.type));
    const off = client.on("pong", (m) => pongs.push(m.nonce));
    socket.serve({ type: "pong", nonce: "1" });
    off();
    socket.serve({ type: "pong", nonce: "2" });
    assert.deepEqual(all, ["pong", "pong"]);
    assert.deepEqual(pongs, ["1"]);
  });

  test("undecodable frames and unknown types are reported, not thrown", async () => {
    const { client, socket } = await connected();
    const errors = [];
    client.on("decode_error", (error) => errors.push(error.code));
    socket.dispatch("message", { data: "{not json" });
    socket.dispatch("message", { data: '{"type":"tomorrow_message"}' });
    socket.dispatch("message", { data: new Uint8Array([0xc1]).buffer });
    assert.deepEqual(errors, ["bad_message", "unknown_type", "bad_message"]);
  });

  test("a refused hello rejects connect with the error's code", async () => {
    const client = new PackplayClient({ WebSocket: ScriptedSocket });
    const welcome = client.connect("ws://localhost/v2/ws", { token: "x".repeat(20) });
    ScriptedSocket.last.open();
    ScriptedSocket.last.serve({ type: "error", code: "unauthorized", message: "bad token", fatal: true, spoken: [] });
    await assert.rejects(welcome, { code: "unauthorized" });
  });

  test("a refused subprotocol is read as JSON and rejects connect with what the server speaks", async () => {
    const client = new PackplayClient({ WebSocket: ScriptedSocket });
    const welcome = client.connect("ws://localhost/v2/ws", { encoding: "msgpack" });
    const socket = ScriptedSocket.last;
    socket.open("");
    const spoken = ["packplay.v3.json"];
    socket.serve({ type: "error", code: "unsupported_version", message: "no", fatal: true, spoken });
    await assert.rejects(welcome, { code: "unsupported_version", spoken });
    assert.equal(client.encoding, "json");
  });

  test("a close before the welcome rejects connect; close events say whether to resume", async () => {
    const client = new PackplayClient({ WebSocket: ScriptedSocket });
    const closes = [];
    client.on("close", (event) => closes.push(event));
    const welcome = client.connect("ws://localhost/v2/ws");
    ScriptedSocket.last.open();
    client.close(4001, "bye");
    await assert.rejects(welcome, { code: 4001 });
    for (const code of [1013, 4000, 1001, 1006, 1012, 1000, 4004]) ScriptedSocket.last.close(code, "");
    const never = client.connect("ws://localhost/v2/ws");
    ScriptedSocket.last.close(1006, "");
    await assert.rejects(never, { code: 1006 });
    assert.deepEqual(
      closes.map(({ code, resumable }) => [code, resumable]),
      [
        [4001, false],
        [1013, true],
        [4000, true],
        [1001, true],
        [1006, true],
        [1012, true],
        [1000, false],
        [4004, false],
        [1006, false], // the connection never opened: nothing to resume
      ],
    );
  });

  test("a failed handshake is an error event, then a close: connect rejects, nothing is thrown", async () => {
    const client = new PackplayClient({ WebSocket: ScriptedSocket });
    const closes = [];
    client.on("close", (event) => closes.push(event));
    const welcome = client.connect("ws://localhost/v2/nowhere");
    ScriptedSocket.last.dispatch("error", new Error("Unexpected server response: 403"));
    ScriptedSocket.last.close(1006, "");
    await assert.rejects(welcome, { code: 1006 });
    assert.deepEqual(closes, [{ code: 1006, reason: "", resumable: false }]);
  });

  test("after a reconnect, the old socket is not listened to", async () => {
    const { client, socket: old } = await connected();
    old.serve(VIEW);
    const { socket } = await (async () => {
      const welcome = client.connect("ws://localhost/v2/ws", { token: "t".repeat(24) });
      ScriptedSocket.last.open();
      ScriptedSocket.last.serve(WELCOME);
      await welcome;
      return { socket: ScriptedSocket.last };
    })();
    assert.notEqual(socket, old);
    const closes = [];
    client.on("close", (event) => closes.push(event.code));
    old.serve(turn(VIEW.version + 1));
    old.close(1006, "");
    assert.equal(client.version, VIEW.version);
    assert.deepEqual(closes, []);
    client.join(VIEW.game_id, { fromVersion: client.version });
    assert.deepEqual(socket.received().at(-1), {
      type: "join",
      game_id: VIEW.game_id,
      role: "player",
      from_version: 4,
    });
  });

  test("frames up to 4 MiB are read by default, larger ones refused", async () => {
    const { client, socket } = await connected();
    const errors = [];
    client.on("decode_error", (error) => errors.push(error.code));
    const big = { ...VIEW, view: { ...VIEW.view, padding: "x".repeat(1024 * 1024) } };
    socket.serve(big);
    assert.equal(client.view.view.padding.length, 1024 * 1024);
    socket.serve({ ...big, version: 5, view: { ...VIEW.view, padding: "x".repeat(4 * 1024 * 1024) } });
    assert.deepEqual(errors, ["frame_too_large"]);
    assert.equal(client.version, 4);
  });

  test("sending before connect is an error", () => {
    assert.throws(() => new PackplayClient({ WebSocket: ScriptedSocket }).ping(), /not connected/);
  });
});

describe("PackplayClient: the view", () => {
  test("holds the whole view and its version; emits view with it", async () => {
    const { client, socket } = await connected();
    const seen = record(client, ["view"]);
    assert.equal(client.view, null);
    assert.equal(client.version, null);
    socket.serve(VIEW);
    assert.deepEqual(client.view, VIEW);
    assert.equal(client.version, 4);
    assert.deepEqual(seen, [["view", client.view]]);
    assert.equal(seen[0][1], client.view, "the payload is the view held");
  });

  test("an update patches the view held, in place; update, view and accepted follow the message", async () => {
    const { client, socket } = await connected();
    socket.serve(VIEW);
    const held = client.view;
    const seen = record(client);
    socket.serve(UPDATE);
    assert.deepEqual(client.view, patched(VIEW, UPDATE));
    assert.equal(client.view, held, "patched in place");
    assert.equal(client.version, 5);
    assert.deepEqual(
      seen.map(([name]) => name),
      ["message", "update", "view", "accepted"],
    );
    assert.deepEqual(seen[1][1], UPDATE);
    assert.equal(seen[2][1], client.view);
    assert.deepEqual(seen[3][1], { type: "accepted", action_id: "a-0003", version: 5 });
    socket.serve(turn(6));
    socket.serve(turn(7));
    assert.equal(client.version, 7);
    assert.equal(client.view.view.turn_number, 7);
    assert.deepEqual(socket.resumes(), []);
  });

  test("an update without action_id accepts nothing", async () => {
    const { client, socket } = await connected();
    socket.serve(VIEW);
    const seen = record(client, ["accepted"]);
    socket.serve(vector("update", "patch_only"));
    assert.equal(client.version, 5);
    assert.deepEqual(seen, []);
  });

  test("a card a patch adds gets its default fields, as in a decoded whole view", async () => {
    const { client, socket } = await connected();
    socket.serve(VIEW);
    const wire = { set: "MH2", number: "24", name: "Piercing Rays", rarity: "common", id: "c0ffee00001" };
    const patch = [{ op: "add", path: "/cards/c0ffee00001", value: wire }];
    socket.serve({ type: "update", game_id: VIEW.game_id, version: 5, events: [], patch, action_id: null });
    const card = client.view.cards.c0ffee00001;
    assert.equal(card.layout, "normal");
    assert.equal(card.power, null);
    assert.equal(card.magic_back, true);
    assert.deepEqual(card.colors, []);
    assert.equal(card.name, "Piercing Rays");
  });

  test("a patch adding something that is not a card does not fit", async () => {
    const { client, socket } = await connected();
    socket.serve(VIEW);
    const seen = record(client, ["gap"]);
    const patch = [{ op: "add", path: "/cards/c0ffee00001", value: { name: 3 } }];
    socket.serve({ type: "update", game_id: VIEW.game_id, version: 5, events: [], patch, action_id: null });
    assert.equal(seen.length, 1);
    assert.equal(client.version, 4);
  });

  test("updates the view already has are dropped quietly", async () => {
    const { client, socket } = await connected();
    socket.serve(VIEW);
    socket.serve(UPDATE);
    const seen = record(client, ["update", "view", "gap"]);
    socket.serve(UPDATE);
    socket.serve(turn(3));
    assert.deepEqual(seen, []);
    assert.deepEqual(client.view, patched(VIEW, UPDATE));
    assert.deepEqual(socket.resumes(), []);
  });

  test("an update before any view, or of another game, is dropped", async () => {
    const { client, socket } = await connected();
    socket.serve(UPDATE);
    assert.equal(client.view, null);
    socket.serve(VIEW);
    socket.serve({ ...UPDATE, game_id: "another" });
    assert.equal(client.version, 4);
    assert.deepEqual(socket.resumes(), []);
  });

  test("a gap in versions: gap once, resume from the version held, updates dropped until the whole view", async () => {
    const { client, socket } = await connected();
    socket.serve(VIEW);
    const seen = record(client, ["gap", "update", "view"]);
    socket.serve(turn(6));
    socket.serve(turn(7));
    socket.serve(turn(5)); // the lost one, late: still dropped, the whole view is on its way
    assert.deepEqual(seen, [["gap", { held: 4, version: 6, reason: "version" }]]);
    assert.deepEqual(socket.resumes(), [{ type: "resume", from_version: 4 }]);
    assert.deepEqual(client.view, VIEW, "the view held is left as it was");
    assert.equal(client.behind, true);
    socket.serve({ ...EVENTS, game_id: VIEW.game_id, from_version: 4, to_version: 7 });
    const whole = { ...VIEW, version: 7, view: { ...VIEW.view, turn_number: 7 } };
    socket.serve(whole);
    assert.equal(client.behind, false);
    assert.deepEqual(client.view, whole);
    socket.serve(turn(8));
    assert.equal(client.view.view.turn_number, 8);
    assert.deepEqual(
      seen.map(([name]) => name),
      ["gap", "view", "update", "view"],
    );
  });

  test("a patch that does not fit: gap, the view unchanged, resume", async () => {
    const { client, socket } = await connected();
    socket.serve(VIEW);
    const seen = record(client, ["gap", "update", "view", "accepted"]);
    const misfit = { ...UPDATE, patch: [...UPDATE.patch, { op: "remove", path: "/view/belt/7" }] };
    socket.serve(misfit);
    assert.deepEqual(client.view, VIEW);
    assert.equal(seen.length, 1);
    const [[name, gap]] = seen;
    assert.equal(name, "gap");
    assert.equal(gap.reason, "patch");
    assert.deepEqual([gap.held, gap.version], [4, 5]);
    assert.match(gap.error, /belt\/7/);
    assert.deepEqual(socket.resumes(), [{ type: "resume", from_version: 4 }]);
  });

  test("a patch that makes the view a non-object does not fit", async () => {
    const { client, socket } = await connected();
    socket.serve(VIEW);
    const seen = record(client, ["gap"]);
    socket.serve({ ...UPDATE, patch: [{ op: "replace", path: "", value: [1] }] });
    assert.deepEqual(client.view, VIEW);
    assert.equal(seen[0][1].reason, "patch");
  });

  test("with autoResume off, a gap is only reported", async () => {
    const { client, socket } = await connected({ autoResume: false });
    socket.serve(VIEW);
    const seen = record(client, ["gap"]);
    socket.serve(turn(6));
    socket.serve(turn(7));
    assert.equal(seen.length, 1);
    assert.deepEqual(socket.resumes(), []);
    client.resume();
    assert.deepEqual(socket.resumes(), [{ type: "resume", from_version: 4 }]);
  });

  test("a whole view older than the one held is not taken; one of another game is", async () => {
    const { client, socket } = await connected();
    socket.serve({ ...VIEW, version: 9 });
    const seen = record(client, ["view"]);
    socket.serve(VIEW);
    assert.equal(client.version, 9);
    socket.serve({ ...VIEW, version: 9, seed: null, pending: [] });
    assert.deepEqual(client.view.pending, []);
    socket.serve({ ...VIEW, game_id: "another", version: 2 });
    assert.equal(client.view.game_id, "another");
    assert.equal(client.version, 2);
    assert.equal(seen.length, 2);
  });

  test("the events of a catch-up are emitted when they bring versions the view lacks", async () => {
    const { client, socket } = await connected();
    const seen = record(client, ["events"]);
    socket.serve({ ...EVENTS, from_version: 0, to_version: 4 });
    socket.serve(VIEW);
    socket.serve({ ...EVENTS, from_version: 2, to_version: 4 });
    socket.serve({ ...EVENTS, from_version: 4, to_version: 6 });
    assert.deepEqual(
      seen.map(([, e]) => [e.from_version, e.to_version]),
      [
        [0, 4],
        [4, 6],
      ],
    );
  });

  test("game_over is kept", async () => {
    const { client, socket } = await connected();
    const over = vector("game_over");
    socket.serve(over);
    assert.deepEqual(client.gameOver, over);
  });
});

describe("PackplayClient: answers", () => {
  test("play resolves with the acceptance an update carries, once the view is patched", async () => {
    const { client, socket } = await connected();
    socket.serve(VIEW);
    const answer = client.play({ type: "mishra_factory.take", belt_position: 1 }, { actionId: "a-0003" });
    assert.equal(socket.received().at(-1).version, 4);
    socket.serve(UPDATE);
    assert.deepEqual(await answer, { type: "accepted", action_id: "a-0003", version: 5 });
    assert.equal(client.waiting.size, 0);
  });

  test("play resolves with an accepted or a rejected message", async () => {
    const { client, socket } = await connected();
    socket.serve(VIEW);
    const first = client.play({ type: "mishra_factory.take", belt_position: 0 });
    const second = client.play({ type: "mishra_factory.take", belt_position: 2 });
    const [act1, act2] = socket.received().slice(-2);
    const rejected = {
      type: "rejected",
      action_id: act2.action_id,
      reason: "unavailable",
      rule: null,
      message: "later",
      version: 4,
    };
    socket.serve(rejected);
    socket.serve({ type: "accepted", action_id: act1.action_id, version: 5 });
    assert.deepEqual(await second, rejected);
    assert.deepEqual(await first, { type: "accepted", action_id: act1.action_id, version: 5 });
  });

  test("the same action id played again shares one answer", async () => {
    const { client, socket } = await connected();
    socket.serve(VIEW);
    const action = { type: "mishra_factory.take", belt_position: 0 };
    const first = client.play(action, { actionId: "a-1" });
    const again = client.play(action, { actionId: "a-1" });
    assert.equal(first, again);
    assert.equal(socket.received().filter((m) => m.type === "act").length, 2, "sent twice");
    socket.serve({ type: "accepted", action_id: "a-1", version: 5 });
    assert.equal((await first).version, 5);
  });

  test("a close rejects the actions not yet answered, with the id to send again", async () => {
    const { client, socket } = await connected();
    socket.serve(VIEW);
    const answer = client.play({ type: "mishra_factory.take", belt_position: 0 }, { actionId: "a-7" });
    socket.close(1013, "storage");
    await assert.rejects(answer, { code: 1013, actionId: "a-7", resumable: true });
    assert.equal(client.waiting.size, 0);
  });

  test("play before connect throws and leaves nothing waiting", () => {
    const client = new PackplayClient({ WebSocket: ScriptedSocket });
    assert.throws(() => client.play({ type: "wedding_planner.draw" }), /not connected/);
    assert.equal(client.waiting.size, 0);
  });
});

describe("PackplayClient: tournaments", () => {
  test("follow sends a valid follow message; tournament messages are emitted under their type", async () => {
    const { client, socket } = await connected({ token: null });
    const seen = record(client, ["tournament_table", "tournament_round", "tournament_standings"]);
    client.follow("t-0001", { secret: "s".repeat(24) });
    client.follow("t-0001", { watch: true });
    assert.deepEqual(socket.received().slice(-2), [
      { type: "follow", tournament_id: "t-0001", secret: "s".repeat(24), watch: false },
      { type: "follow", tournament_id: "t-0001", secret: null, watch: true },
    ]);
    for (const type of ["tournament_table", "tournament_round", "tournament_standings"]) socket.serve(vector(type));
    assert.deepEqual(
      seen.map(([name, message]) => [name, message.type]),
      [
        ["tournament_table", "tournament_table"],
        ["tournament_round", "tournament_round"],
        ["tournament_standings", "tournament_standings"],
      ],
    );
  });
});

describe("PackplayClient: switchGame", () => {
  test("hello again, then join: the game left is dropped until the welcome, its acceptances still answer", async () => {
    const { client, socket } = await connected();
    socket.readyState = 1; // open
    socket.serve(VIEW);
    const answer = client.play({ type: "mishra_factory.take", belt_position: 1 }, { actionId: "a-0003" });
    const seen = record(client);
    const switched = client.switchGame({ token: "u".repeat(24) });
    const hello = socket.received().at(-1);
    assert.deepEqual([hello.type, hello.token], ["hello", "u".repeat(24)]);
    assert.equal(client.view, null);
    // Still on its way from the game left: the update that answers the action, then game_over.
    socket.serve(UPDATE);
    socket.serve({ type: "game_over", game_id: VIEW.game_id, result: null, replay_url: "/r" });
    assert.deepEqual(await answer, { type: "accepted", action_id: "a-0003", version: 5 });
    assert.equal(client.view, null);
    assert.equal(client.gameOver, null);
    const next = { ...VIEW, game_id: "hT3mW9aZ", version: 0 };
    socket.serve({ ...WELCOME, game_id: next.game_id, seat: 1 });
    await Promise.resolve();
    const join = socket.received().at(-1);
    assert.deepEqual([join.type, join.game_id, join.from_version], ["join", next.game_id, null]);
    socket.serve(next);
    const view = await switched;
    assert.equal(view.game_id, next.game_id);
    assert.equal(client.version, 0);
    assert.deepEqual(
      seen.filter(([name]) => name === "message").map(([, m]) => m.type),
      ["welcome", "view"],
      "nothing of the game left is emitted",
    );
  });

  test("a refused hello rejects switchGame", async () => {
    const { client, socket } = await connected();
    socket.readyState = 1; // open
    const switched = client.switchGame({ token: "v".repeat(24) });
    socket.serve({ type: "error", code: "unauthorized", message: "unknown or expired token", fatal: true, spoken: [] });
    await assert.rejects(switched, (error) => error.code === "unauthorized");
  });
});
