// onDecision against a scripted server: the callback runs once per decision, never while
// its action waits for an answer, and each kind of answer leads where it should.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { PackplayClient } from "../src/client.js";
import { decode, encode } from "../src/codec.js";
import { readJson, VECTORS_DIR } from "../test-support/helpers.js";

const DRAW = { type: "wedding_planner.draw" };
const TAKE = { type: "wedding_planner.take", card: "c1" };

/** A whole view of seat 0, pending with `actions`. */
function view(version, actions = [DRAW, TAKE], pending = [0]) {
  return {
    type: "view",
    game_id: "g1",
    game: "wedding_planner",
    version,
    seat: 0,
    pending,
    legal: { actions, choices: [] },
    result: null,
    seed: null,
    view: { type: "wedding_planner.view" },
    cards: {},
  };
}

/** An update to `version` that sets the legal actions and pending seats. */
function update(version, { actions = [DRAW, TAKE], pending = [0], actionId = null } = {}) {
  return {
    type: "update",
    game_id: "g1",
    version,
    events: [],
    patch: [
      { op: "replace", path: "/legal/actions", value: actions },
      { op: "replace", path: "/pending", value: pending },
    ],
    action_id: actionId,
  };
}

class ScriptedSocket {
  static last = null;
  constructor() {
    this.sent = [];
    this.listeners = {};
    this.readyState = 0;
    this.protocol = "";
    ScriptedSocket.last = this;
  }
  addEventListener(name, listener) {
    (this.listeners[name] ??= []).push(listener);
  }
  send(frame) {
    this.sent.push(decode(frame, "json", { direction: "from_client" }).message);
  }
  close(code = 1000, reason = "") {
    this.readyState = 3;
    for (const listener of this.listeners.close ?? []) listener({ code, reason });
  }
  open() {
    this.readyState = 1;
    this.protocol = "packplay.v2.json";
    for (const listener of this.listeners.open ?? []) listener({});
  }
  serve(message) {
    for (const listener of this.listeners.message ?? []) listener({ data: encode(message, "json") });
  }
  acts() {
    return this.sent.filter((m) => m.type === "act");
  }
}

const WELCOME = readJson(`${VECTORS_DIR}to_client/welcome.json`).cases[0].message;

/** A client joined to game g1 at `start`, with `decide` as its callback; the calls are counted. */
async function joined(decide, start = view(0)) {
  const client = new PackplayClient({ WebSocket: ScriptedSocket, keepAlive: false });
  const opened = client.open("ws://test/v2/ws", { token: "t".repeat(24), reconnect: false });
  const socket = ScriptedSocket.last;
  socket.open();
  socket.serve(WELCOME);
  await settle(); // open() sends join once the welcome came
  assert.equal(socket.sent.at(-1).type, "join");
  socket.serve(start);
  await opened;
  const calls = [];
  client.onDecision(async (v) => {
    calls.push(v.version);
    return decide(v);
  });
  await settle();
  return { client, socket, calls };
}

/** Let the callback's promise chain run. */
async function settle() {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe("onDecision", () => {
  test("is called once, sends once, and is not called again while its action waits", async () => {
    const { socket, calls } = await joined(() => DRAW);
    assert.deepEqual(calls, [0]);
    assert.equal(socket.acts().length, 1);
    const [act] = socket.acts();
    assert.deepEqual([act.action, act.version], [DRAW, 0]);
    // Another seat acts: the view moves on, the decision stays the same.
    socket.serve(update(1));
    await settle();
    assert.deepEqual(calls, [0]);
    assert.equal(socket.acts().length, 1);
    // The acceptance comes with the update it made: then the next decision.
    socket.serve(update(2, { actions: [TAKE], actionId: act.action_id }));
    await settle();
    assert.deepEqual(calls, [0, 2]);
    assert.equal(socket.acts().length, 2);
  });

  test("after stale_version it decides again; after rate_limited it sends the same action again", async () => {
    const { socket, calls } = await joined(() => DRAW);
    const [first] = socket.acts();
    socket.serve({ type: "rejected", action_id: first.action_id, reason: "rate_limited", rule: null, message: "slow down", version: 0 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(calls, [0]);
    const resent = socket.acts()[1];
    assert.deepEqual([resent.action_id, resent.action, resent.version], [first.action_id, DRAW, 0]);
    socket.serve({ type: "rejected", action_id: first.action_id, reason: "stale_version", rule: null, message: "moved on", version: 0 });
    await settle();
    assert.deepEqual(calls, [0, 0]);
    assert.notEqual(socket.acts()[2].action_id, first.action_id);
  });

  test("a decision that changed while the callback ran drops its action and is decided again", async () => {
    let release;
    const waiting = new Promise((resolve) => (release = resolve));
    let first = true;
    const { socket, calls } = await joined(async () => {
      if (!first) return TAKE;
      first = false;
      await waiting;
      return DRAW;
    });
    socket.serve(update(1, { actions: [TAKE] })); // DRAW is no longer legal
    await settle();
    release();
    await settle();
    assert.deepEqual(calls, [0, 1]);
    assert.deepEqual(
      socket.acts().map((a) => [a.action, a.version]),
      [[TAKE, 1]],
    );
  });

  test("null decides nothing, and another refusal leaves the decision to the caller", async () => {
    const { client, socket, calls } = await joined(() => null);
    socket.serve(update(1));
    await settle();
    assert.deepEqual(calls, [0]);
    assert.equal(socket.acts().length, 0);
    const rejected = [];
    client.on("rejected", (r) => rejected.push(r.reason));
    client.onDecision(() => TAKE);
    await settle();
    const [act] = socket.acts();
    socket.serve({ type: "rejected", action_id: act.action_id, reason: "illegal_action", rule: "WP-3", message: "no", version: 1 });
    socket.serve(update(2, { actions: [DRAW, TAKE] })); // the same decision as before
    await settle();
    assert.deepEqual(rejected, ["illegal_action"]);
    assert.equal(socket.acts().length, 1);
  });

  test("a seat that is not pending, or a game that is over, is not asked", async () => {
    const { socket, calls } = await joined(() => DRAW, view(0, [], [1]));
    socket.serve(update(1, { actions: [], pending: [1] }));
    await settle();
    assert.deepEqual(calls, []);
    assert.equal(socket.acts().length, 0);
  });
});

/** The next socket the client opens (a reconnect waits a quarter second first). */
async function nextSocket(after) {
  for (let waited = 0; ScriptedSocket.last === after && waited < 3000; waited += 10) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.notEqual(ScriptedSocket.last, after, "the client opened a new socket");
  return ScriptedSocket.last;
}

describe("open", () => {
  test("a first connection closed 1012 before its welcome is opened again; open resolves with its view", async () => {
    const client = new PackplayClient({ WebSocket: ScriptedSocket, keepAlive: false });
    const opened = client.open("ws://test/v2/ws", { token: "t".repeat(24) });
    const draining = ScriptedSocket.last;
    draining.open();
    draining.close(1012, "draining");
    const socket = await nextSocket(draining);
    socket.open();
    socket.serve(WELCOME);
    await settle();
    assert.equal(socket.sent.at(-1).type, "join");
    socket.serve(view(3));
    const got = await opened;
    assert.equal(got.version, 3);
    assert.deepEqual(got, client.view);
    assert.notEqual(got, client.view, "a copy: changing it leaves the client's view alone");
    client.close();
  });

  test("a first connection closed for good (4001) rejects open, and nothing is opened again", async () => {
    const client = new PackplayClient({ WebSocket: ScriptedSocket, keepAlive: false });
    const opened = client.open("ws://test/v2/ws", { token: "t".repeat(24) });
    const refused = ScriptedSocket.last;
    refused.open();
    refused.close(4001, "unauthorized");
    await assert.rejects(opened, { code: 4001 });
    await new Promise((resolve) => setTimeout(resolve, 400));
    assert.equal(ScriptedSocket.last, refused);
  });

  test("when every reconnect fails, open rejects with the last error", async () => {
    const client = new PackplayClient({ WebSocket: ScriptedSocket, keepAlive: false });
    const opened = client.open("ws://test/v2/ws", { token: "t".repeat(24), maxAttempts: 1 });
    const draining = ScriptedSocket.last;
    draining.open();
    draining.close(1013, "try again later");
    const socket = await nextSocket(draining);
    socket.close(1006, "");
    await assert.rejects(opened, { code: 1006 });
  });
});
