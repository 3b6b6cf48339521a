// Live conformance: against a real server, the view each JavaScript client rebuilds
// from one whole view and the updates after it is, at every version, exactly the
// whole view the server sends for that audience.
//
// The test starts `packplay serve --sandbox` from the PATH on a free port (.ci/run
// activates the Python virtual environment first), without REDIS_URL so that the
// server starts a private Redis-compatible server of its own, waits for GET /v2/ready,
// and stops it at the end. Every game and player count is played in both encodings
// over real WebSockets, every seat and one spectator with a PackplayClient, one action
// at a time chosen from the acting seat's legal actions. Seeds are fixed: a failure
// names the game, seed, version, audience and the first path where the views differ.
// A gap, an undecodable frame, an error or a close fails too: the client's own resume
// would otherwise hide a patch that does not fit.
//
// How the whole view is fetched: each audience has a second connection (a "probe",
// same token or none, joined once) that sends `resume {from_version: <current>}` and
// reads the whole `view` the server answers with. The client under test never
// resumes, so its view is the join's view patched by every update since, the whole
// chain of a game. A resume on the client's own connection would replace its view with
// the server's at every version and test one patch at a time; a fresh join per version
// would cost a handshake per audience and version.

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";

import WebSocket from "ws";

import { PackplayClient } from "../src/client.js";
import { decode, encode, subprotocol } from "../src/codec.js";
import { hasDecision, randomAction } from "../src/legal.js";
import { seeded } from "../test-support/helpers.js";
import { Server } from "../test-support/server.js";

const CASES = [
  ["day_night", 2],
  ["mishra_factory", 2],
  ["mishra_factory", 3],
  ["mishra_factory", 4],
  ["wedding_planner", 2],
  ["wedding_planner", 3],
  ["wedding_planner", 4],
  ["wedding_planner", 5],
  ["wedding_planner", 6],
  ["base_race", 2],
];
const ENCODINGS = ["json", "msgpack"];
const GAMES_PER_CASE = 2;
const MAX_VERSIONS = 1000; // far above any game's length: a game that does not end fails
const WAIT_MS = 10_000; // for any one answer of the server
const RETRY = new Set(["rate_limited", "unavailable"]); // retry the same action id

describe("live conformance: views rebuilt from updates equal the server's whole views", () => {
  /** @type {Server} */
  let server;
  before(async () => {
    // Each probe resumes once per version, far more often than a client would.
    server = await Server.start({ env: { PACKPLAY_RESUMES_PER_MINUTE: "1000000" } });
  });
  after(async () => {
    await server?.stop();
  });

  test("a handshake the server refuses rejects connect, and nothing is thrown (the ws package)", async () => {
    const client = new PackplayClient({ WebSocket });
    const closes = [];
    client.on("close", (event) => closes.push(event));
    await assert.rejects(client.connect(server.wsUrl.replace("/v2/ws", "/v2/no-such-socket")), { code: 1006 });
    assert.deepEqual(closes, [{ code: 1006, reason: "", resumable: false }]);
  });

  test("another version's path is refused with the versions the server speaks", async () => {
    const client = new PackplayClient({ WebSocket });
    await assert.rejects(client.connect(server.wsUrl.replace("/v2/", "/v1/")), { code: "unsupported_version" });
  });

  CASES.forEach(([game, players], c) => {
    ENCODINGS.forEach((encoding, e) => {
      test(`${game}, ${players} players, ${encoding}`, async () => {
        for (let n = 0; n < GAMES_PER_CASE; n++) {
          await playGame(server, { game, players, encoding, seed: 1 + 100 * c + 10 * e + n });
        }
      });
    });
  });
});

/** Play one game to its end, checking every audience's view at every version. */
async function playGame(server, { game, players, encoding, seed }) {
  const created = await server.rest("POST", "/v2/games", { game, players, seed });
  const gameId = created.game_id;
  const where = `${game} (${players} players, ${encoding}, seed ${seed}, game ${gameId})`;
  const tokens = [];
  for (let seat = 0; seat < players; seat++) {
    const grant = await server.rest("POST", `/v2/games/${gameId}/seats`, { name: `seat ${seat}`, seat });
    tokens.push(grant.token);
  }
  const audiences = [
    ...tokens.map((token, seat) => ({ label: `seat ${seat}`, token, seat })),
    { label: "spectator", token: null, seat: null },
  ];
  try {
    for (const audience of audiences) {
      const options = { where: `${where}, ${audience.label}`, encoding, gameId, token: audience.token };
      audience.client = await ClientUnderTest.open(server.wsUrl, options);
      audience.probe = await Probe.open(server.wsUrl, options);
    }
    const random = seeded(seed);
    for (let version = 0; ; version++) {
      assert.ok(version <= MAX_VERSIONS, `${where}: no end after ${MAX_VERSIONS} versions`);
      for (const audience of audiences) await audience.client.reached(version);
      for (const audience of audiences) await check(audience, version, where);
      const view = audiences[0].client.view;
      if (view.result !== null) break;
      const deciding = audiences.filter((a) => a.seat !== null && hasDecision(a.client.view));
      assert.ok(deciding.length > 0, `${where}, version ${version}: the game is not over and no seat has a decision`);
      assert.deepEqual(
        deciding.map((a) => a.seat),
        [...view.pending].sort((a, b) => a - b),
        `${where}, version ${version}: the seats with legal actions are the pending ones`,
      );
      const actor = deciding[Math.floor(random() * deciding.length)];
      await actor.client.play(randomAction(actor.client.view, random), version + 1);
    }
    for (const audience of audiences) await audience.client.over(audiences[0].client.view.result);
  } finally {
    for (const audience of audiences) {
      audience.client?.close();
      audience.probe?.close();
    }
  }
}

/** The audience's rebuilt view at `version` is the server's whole view, JSON for JSON. */
async function check(audience, version, where) {
  const whole = await audience.probe.wholeView(version);
  const rebuilt = audience.client.view;
  const difference = firstDifference(rebuilt, whole);
  if (difference !== null) {
    const { path, mine, theirs } = difference;
    assert.fail(
      `${where}, version ${version}, ${audience.label}: the view rebuilt from updates differs from the server's ` +
        `whole view at ${path || "/"}: rebuilt ${show(mine)}, server ${show(theirs)}`,
    );
  }
}

/** Where two JSON values first differ (a JSON Pointer), or null when they are equal. */
function firstDifference(mine, theirs) {
  const found = differ(mine, theirs);
  if (found === null) return null;
  const path = found.tokens.map((t) => `/${String(t).replaceAll("~", "~0").replaceAll("/", "~1")}`).join("");
  return { path, mine: found.mine, theirs: found.theirs };
}

/** The first difference with its path as tokens, built only on the way back from one. */
function differ(mine, theirs) {
  const kind = (v) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);
  const here = { tokens: [], mine, theirs };
  const below = (token, found) => {
    if (found !== null) found.tokens.unshift(token);
    return found;
  };
  if (kind(mine) !== kind(theirs)) return here;
  if (kind(mine) === "array") {
    for (let i = 0; i < Math.max(mine.length, theirs.length); i++) {
      if (i >= mine.length || i >= theirs.length) return below(i, { tokens: [], mine: mine[i], theirs: theirs[i] });
      const found = differ(mine[i], theirs[i]);
      if (found !== null) return below(i, found);
    }
    return null;
  }
  if (kind(mine) === "object") {
    const keys = Object.keys(mine);
    for (const key of keys) {
      if (!Object.hasOwn(theirs, key)) return below(key, { tokens: [], mine: mine[key], theirs: undefined });
      const found = differ(mine[key], theirs[key]);
      if (found !== null) return below(key, found);
    }
    if (Object.keys(theirs).length !== keys.length) {
      const key = Object.keys(theirs).find((k) => !Object.hasOwn(mine, k));
      return below(key, { tokens: [], mine: undefined, theirs: theirs[key] });
    }
    return null;
  }
  return Object.is(mine, theirs) ? null : here;
}

function show(value) {
  if (value === undefined) return "(absent)";
  const text = JSON.stringify(value);
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

/** A promise that settles with `promise`, or fails after `ms` saying what was awaited. */
function within(promise, what, ms = WAIT_MS) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** A seat's or the spectator's PackplayClient, watched for anything that should not happen. */
class ClientUnderTest {
  static async open(url, { where, encoding, gameId, token }) {
    const tested = new ClientUnderTest(where);
    await within(tested.client.connect(url, { encoding, token }), `${where}: welcome`);
    tested.client.join(gameId, { role: token === null ? "spectator" : "player" });
    await tested.reached(0);
    return tested;
  }

  constructor(where) {
    this.where = where;
    this.client = new PackplayClient({ WebSocket });
    this.problems = [];
    this.closing = false;
    this.client.on("gap", (gap) => this.problems.push(`gap ${JSON.stringify(gap)}`));
    this.client.on("decode_error", (error) => this.problems.push(`undecodable frame: ${error.code} ${error.message}`));
    this.client.on("error", (error) => this.problems.push(`error ${error.code}: ${error.message}`));
    this.client.on("close", ({ code, reason }) => {
      if (!this.closing) this.problems.push(`closed ${code} ${reason}`);
    });
  }

  get view() {
    return this.client.view;
  }

  /** Wait until the client holds the view of `version` (never a later one: one action at a time). */
  async reached(version) {
    await this.until(() => this.client.version !== null && this.client.version >= version, `version ${version}`);
    assert.equal(this.client.version, version, `${this.where}: expected the view of version ${version}`);
  }

  /** Wait for the game_over message; it has the final view's result. */
  async over(result) {
    await this.until(() => this.client.gameOver !== null, "game_over");
    assert.deepEqual(this.client.gameOver.result, result, `${this.where}: game_over has the final view's result`);
  }

  /** Play `action` and expect it to make `version` (retrying what the server asks to retry). */
  async play(action, version) {
    const actionId = this.client.nextActionId();
    for (;;) {
      const answer = await within(
        this.client.play(action, { actionId }),
        `${this.where}: the answer to ${JSON.stringify(action)}`,
      );
      if (answer.type === "rejected" && RETRY.has(answer.reason)) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        continue;
      }
      assert.deepEqual(
        answer,
        { type: "accepted", action_id: actionId, version },
        `${this.where}, version ${version - 1}: ${JSON.stringify(action)} was not accepted`,
      );
      return;
    }
  }

  until(ready, what) {
    const check = () => {
      if (this.problems.length > 0) throw new Error(`${this.where}: ${this.problems.join("; ")}`);
      return ready();
    };
    if (check()) return Promise.resolve();
    const offs = [];
    const settled = new Promise((resolve, reject) => {
      const recheck = () => {
        try {
          if (check()) resolve();
        } catch (error) {
          reject(error);
        }
      };
      offs.push(this.client.on("message", recheck), this.client.on("close", recheck));
    });
    return within(settled, `${this.where}: ${what}`).finally(() => offs.forEach((off) => off()));
  }

  close() {
    this.closing = true;
    this.client.close();
  }
}

/** A second connection of the same audience that fetches whole views, read as plain JSON. */
class Probe {
  static async open(url, { where, encoding, gameId, token }) {
    const probe = new Probe(url, where, encoding);
    await probe.opened;
    probe.send({ type: "hello", client: "packplay-js-conformance", token });
    await probe.next("welcome");
    probe.send({ type: "join", game_id: gameId, role: token === null ? "spectator" : "player" });
    await probe.next("view");
    return probe;
  }

  constructor(url, where, encoding) {
    this.where = `${where} (probe)`;
    this.encoding = encoding;
    // Without compression, which the clients under test use: it only costs time here.
    this.socket = new WebSocket(url, [subprotocol(encoding)], { perMessageDeflate: false });
    this.waiting = null;
    this.opened = within(
      new Promise((resolve, reject) => {
        this.socket.once("open", resolve);
        this.socket.once("error", reject);
      }),
      `${this.where}: open`,
    );
    this.socket.on("message", (data, isBinary) => this.receive(data, isBinary));
  }

  send(message) {
    this.socket.send(encode(message, this.encoding));
  }

  receive(data, isBinary) {
    if (this.waiting === null) return; // the updates between two requests are not read
    const { type, resolve, reject } = this.waiting;
    const fail = (why) => {
      this.waiting = null;
      reject(new Error(`${this.where}: ${why}`));
    };
    if (isBinary !== (this.encoding === "msgpack")) return fail(`a ${isBinary ? "binary" : "text"} frame`);
    // The comparison uses the frame as the codec reads it: the plain data, with the fields
    // the wire leaves out at their default (a card's) filled in, as a client holds them.
    const decoded = decode(isBinary ? data : data.toString("utf8"), this.encoding, { maxBytes: Infinity });
    if (!decoded.ok) return fail(`undecodable frame: ${decoded.error.message}`);
    const message = decoded.message;
    if (message.type === "error") return fail(`error ${message.code}: ${message.message}`);
    if (message.type === type) {
      this.waiting = null;
      resolve(message);
    }
  }

  /** The next message of `type`, as plain data. */
  next(type) {
    assert.equal(this.waiting, null, `${this.where}: one request at a time`);
    return within(
      new Promise((resolve, reject) => {
        this.waiting = { type, resolve, reject };
      }),
      `${this.where}: ${type}`,
    );
  }

  /** The server's whole view of this audience at `version` (the current one). */
  async wholeView(version) {
    const answer = this.next("view");
    this.send({ type: "resume", from_version: version });
    const view = await answer;
    assert.equal(view.version, version, `${this.where}: the whole view is of the current version`);
    return view;
  }

  close() {
    this.socket.close();
  }
}
