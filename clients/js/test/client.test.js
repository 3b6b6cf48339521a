// The WebSocket client against a scripted socket: the frames it sends are valid
// client messages, and it tracks the game version from what the server sends.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { PackplayClient } from "../src/client.js";
import { decode, encode } from "../src/codec.js";
import { readJson, VECTORS_DIR } from "../test-support/helpers.js";

const vector = (type, i = 0) => readJson(`${VECTORS_DIR}to_client/${type}.json`).cases[i].message;
const WELCOME = vector("welcome");
const VIEW = vector("view");
const EVENTS = vector("events");

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
}

async function connected({ encoding = "json", token = "t".repeat(24), ...options } = {}) {
  const client = new PackplayClient({ WebSocket: ScriptedSocket, ...options });
  const welcome = client.connect("ws://localhost/v1/ws", { encoding, token });
  const socket = ScriptedSocket.last;
  socket.open();
  socket.serve({ ...WELCOME, protocol: `packplay.v1.${encoding}` }, encoding);
  await welcome;
  return { client, socket };
}

describe("PackplayClient", () => {
  test("needs a WebSocket", () => {
    assert.throws(() => new PackplayClient({ WebSocket: null }), TypeError);
  });

  test("connect offers the subprotocol, sends hello and resolves with the welcome", async () => {
    const { client, socket } = await connected({ client: "bot/1" });
    assert.equal(socket.url, "ws://localhost/v1/ws");
    assert.deepEqual(socket.protocols, ["packplay.v1.json"]);
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

  test("MessagePack: binary frames both ways", async () => {
    const { client, socket } = await connected({ encoding: "msgpack" });
    assert.deepEqual(socket.protocols, ["packplay.v1.msgpack"]);
    assert.ok(socket.sent.every((frame) => frame instanceof Uint8Array));
    const views = [];
    client.on("view", (view) => views.push(view));
    socket.serve(VIEW, "msgpack");
    assert.deepEqual(views, [VIEW]);
    client.ping();
    assert.equal(socket.received("msgpack").at(-1).type, "ping");
  });

  test("tracks the version from view, events and accepted", async () => {
    const { client, socket } = await connected();
    assert.equal(client.version, null);
    socket.serve({ ...VIEW, version: 4 });
    assert.equal(client.version, 4);
    socket.serve({ type: "accepted", action_id: "a", version: 5 });
    assert.equal(client.version, 5);
    socket.serve({ ...EVENTS, from_version: 4, to_version: 5 });
    assert.equal(client.version, 5);
    socket.serve({ ...EVENTS, from_version: 5, to_version: 7 });
    assert.equal(client.version, 7);
  });

  test("a gap in the events chain emits gap and resumes once", async () => {
    const { client, socket } = await connected();
    const gaps = [];
    client.on("gap", (gap) => gaps.push(gap));
    socket.serve({ ...VIEW, version: 4 });
    socket.serve({ ...EVENTS, from_version: 6, to_version: 7 });
    socket.serve({ ...EVENTS, from_version: 7, to_version: 8 });
    assert.deepEqual(gaps, [
      { expected: 4, from_version: 6 },
      { expected: 4, from_version: 7 },
    ]);
    assert.equal(client.version, 4);
    const resumes = socket.received().filter((m) => m.type === "resume");
    assert.deepEqual(resumes, [{ type: "resume", from_version: 4 }]);
    socket.serve({ ...EVENTS, from_version: 4, to_version: 8 });
    socket.serve({ ...VIEW, version: 8 });
    assert.equal(client.version, 8);
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
    const welcome = client.connect("ws://localhost/v1/ws", { token: "x".repeat(20) });
    ScriptedSocket.last.open();
    ScriptedSocket.last.serve({ type: "error", code: "unauthorized", message: "bad token", fatal: true, spoken: [] });
    await assert.rejects(welcome, { code: "unauthorized" });
  });

  test("a refused subprotocol is read as JSON and rejects connect", async () => {
    const client = new PackplayClient({ WebSocket: ScriptedSocket });
    const welcome = client.connect("ws://localhost/v1/ws", { encoding: "msgpack" });
    const socket = ScriptedSocket.last;
    socket.open("");
    socket.serve({ type: "error", code: "unsupported_version", message: "no", fatal: true, spoken: ["packplay.v1.json"] });
    await assert.rejects(welcome, { code: "unsupported_version" });
    assert.equal(client.encoding, "json");
  });

  test("a close before the welcome rejects connect; close events are emitted", async () => {
    const client = new PackplayClient({ WebSocket: ScriptedSocket });
    const closes = [];
    client.on("close", (event) => closes.push(event.code));
    const welcome = client.connect("ws://localhost/v1/ws");
    ScriptedSocket.last.open();
    client.close(4001, "bye");
    await assert.rejects(welcome, { code: 4001 });
    assert.deepEqual(closes, [4001]);
  });

  test("sending before connect is an error", () => {
    assert.throws(() => new PackplayClient({ WebSocket: ScriptedSocket }).ping(), /not connected/);
  });
});
