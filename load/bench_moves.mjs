// The driver of the hot-path benchmark: N concurrent games in a closed loop, one process.
//
// Each game has both seats connected; one move is in flight per game at a time; a move
// counts when every seat has its update. Games that end are replaced by new ones.
// Against Packplay the seats play Day vs Night from their legal actions; against the
// relay (load/relay.py) a seat's small frame is echoed to every seat of its game.
//
//   node load/bench_moves.mjs --target packplay --url http://127.0.0.1:8000 --games 50 --seconds 10
//   node load/bench_moves.mjs --target relay --url ws://127.0.0.1:8100/ws --games 50 --seconds 10
//
// A game that ends is replaced on the same two connections, as a player who plays game
// after game does: each seat asks for a rematch on its socket (with --setup rest, a REST
// create, then a new hello with the next game's tokens and a join); --fresh-connections
// opens two new ones per game instead, after a REST create. With --deflate the seats offer permessage-deflate (as
// browsers do) and the result's wireBytesPerMovePerSeat shows what compression leaves.
//
// With --coordinated the driver prints "@phase <name>" on stdout at each phase boundary
// and waits for one line on stdin before going on (load/bench_hot_path.py reads the
// server's counters there). At the end, between the phases "replace" and "replaced", every
// game is replaced on its connections, four rounds over (the set-up cost on connections
// kept). The last line printed is the result, as JSON.

import { decode as decodeMsgpack, encode as encodeMsgpack } from "@msgpack/msgpack";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import WebSocket from "ws";

// The JavaScript SDK's own legal-action and patch helpers (loaded for the Packplay target only).
let randomAction;
let applyPatch;

const { values: options } = parseArgs({
  options: {
    target: { type: "string", default: "packplay" },
    url: { type: "string" },
    games: { type: "string", default: "50" },
    seconds: { type: "string", default: "10" },
    encoding: { type: "string", default: "json" },
    game: { type: "string", default: "day_night" },
    concurrency: { type: "string", default: "64" },
    idle: { type: "boolean", default: false },
    "fresh-connections": { type: "boolean", default: false },
    coordinated: { type: "boolean", default: false },
    protocol: { type: "string", default: "2" },
    deflate: { type: "boolean", default: false },
    // How a kept connection gets its next game: "messages" (create and take_seat, or
    // rematch after a game's end, on the socket) or "rest" (a REST create, then hello
    // and join on each socket, as servers without those messages need).
    setup: { type: "string", default: "messages" },
  },
});
// Protocol 1 (the former form: a whole view after every move) is spoken to measure an
// older server in the same run; its views simply replace the last one.
const PREFIX = `/v${options.protocol}`;
const GAMES = Number(options.games);
const SECONDS = Number(options.seconds);
const ENCODING = options.encoding;
const SETUP_CONCURRENCY = Number(options.concurrency);
// Protocol 1 allows one hello per connection: every game opens its own.
const REUSE = !options["fresh-connections"] && options.protocol !== "1";
const KEPT_MESSAGES = options.setup === "messages";
/** Rounds of replacing every game on its connections at the end (the set-up cost on kept connections). */
const REPLACE_ROUNDS = 4;
let replacedGames = 0;
// Several servers (comma-separated URLs): REST calls take turns, and seat i of a game
// connects to server i (mod the count), so every move crosses processes.
const URLS = options.url.split(",");
let nextRest = 0;

const lines = options.coordinated ? createInterface({ input: process.stdin })[Symbol.asyncIterator]() : null;

/** Tell the coordinator a phase begins and wait until it has read its counters. */
async function phase(name) {
  if (lines === null) return;
  process.stdout.write(`@phase ${name}\n`);
  await lines.next();
}

/** What the measured window counts (failures count from the start). */
function measures() {
  return { moves: 0, setups: 0, setupSeconds: 0, latencies: [], updateBytes: [], framesIn: 0, bytesIn: 0 };
}

const stats = { ...measures(), failed: 0, failures: {}, dropped: 0 };

// Bytes the seats' sockets read off the wire (frame headers and compression included): the
// sockets open now, plus what the closed ones had read.
const openSockets = new Set();
let closedBytes = 0;

function track(socket) {
  openSockets.add(socket);
  socket.on("close", () => {
    openSockets.delete(socket);
    closedBytes += socket._socket?.bytesRead ?? 0;
  });
}

function wireBytes() {
  let total = closedBytes;
  for (const socket of openSockets) total += socket._socket?.bytesRead ?? 0;
  return total;
}

function fail(kind) {
  stats.failed += 1;
  stats.failures[kind] = (stats.failures[kind] ?? 0) + 1;
}

let measuring = false;
let stopping = false;

// ---------------------------------------------------------------- the relay

class RelayTable {
  constructor(index) {
    this.game = `g${index}`;
    this.seats = [];
    this.sent = 0;
    this.seen = [0, 0];
    this.started = 0;
    this.turn = 0;
  }

  async open() {
    this.seats = await Promise.all([0, 1].map((seat) => this.connect(seat)));
  }

  connect(seat) {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(`${options.url}?game=${this.game}&seat=${seat}`, { perMessageDeflate: false });
      track(socket);
      socket.on("open", () => resolve(socket));
      socket.on("error", reject);
      socket.on("message", (data) => this.received(seat, data));
      socket.on("close", () => {
        if (!stopping) stats.dropped += 1;
      });
    });
  }

  move() {
    if (stopping) return;
    this.sent += 1;
    this.started = performance.now();
    const seat = this.turn;
    this.turn = 1 - this.turn;
    this.seats[seat].send(`{"type":"act","action_id":"a${this.sent}","version":${this.sent}}`);
  }

  received(seat, data) {
    if (measuring) {
      stats.framesIn += 1;
      stats.bytesIn += data.length;
    }
    this.seen[seat] += 1;
    if (this.seen[0] === this.sent && this.seen[1] === this.sent) {
      if (measuring) {
        stats.moves += 1;
        stats.latencies.push(performance.now() - this.started);
      }
      this.move();
    }
  }
}

// ---------------------------------------------------------------- Packplay

const encodeFrame = ENCODING === "json" ? (m) => JSON.stringify(m) : (m) => encodeMsgpack(m);
const decodeFrame = ENCODING === "json" ? (data) => JSON.parse(data) : (data) => decodeMsgpack(data);
let nextAction = 0;

async function rest(method, path, body) {
  const base = URLS[nextRest++ % URLS.length];
  let response;
  try {
    response = await fetch(`${base}${path}`, {
      method,
      headers: { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    // undici says only "fetch failed"; what failed is in its cause.
    const cause = error.cause === undefined ? "" : `: ${error.cause.code ?? ""} ${error.cause.message}`;
    throw new Error(`${method} ${path}: ${error.message}${cause}`);
  }
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

/** One seat's connection: it keeps its view exact from the server's updates. */
class Seat {
  constructor(table, seat, token) {
    this.table = table;
    this.seat = seat;
    this.token = token;
    this.view = null;
    this.version = -1;
    this.socket = null;
    this.waiting = null;
    this.seating = null;
  }

  /** Ask for the next game's seat on the open socket (create, take_seat or rematch); resolves with `seated`. */
  sit(table, message) {
    this.table = table;
    this.view = null;
    this.version = -1;
    return new Promise((resolve, reject) => {
      this.seating = { resolve, reject };
      this.send(message);
    });
  }

  /** Resolves once the seat holds a view of its table's game. */
  viewed() {
    if (this.version >= 0) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
    });
  }

  /** Say hello again on the open socket, for the next table's seat; resolves with its view. */
  reuse(table, token) {
    this.table = table;
    this.token = token;
    this.view = null;
    this.version = -1;
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.send({ type: "hello", token });
    });
  }

  open() {
    return new Promise((resolve, reject) => {
      const url = URLS[this.seat % URLS.length].replace(/^http/, "ws") + `${PREFIX}/ws`;
      const socket = new WebSocket(url, [`packplay.v${options.protocol}.${ENCODING}`], {
        perMessageDeflate: options.deflate,
      });
      track(socket);
      this.socket = socket;
      this.waiting = { resolve, reject };
      socket.binaryType = "nodebuffer";
      socket.on("open", () => socket.send(encodeFrame({ type: "hello", token: this.token })));
      socket.on("error", (error) => this.waiting?.reject(error));
      socket.on("message", (data) => this.received(data));
      socket.on("close", (code) => {
        if (!stopping && !this.table.closing) {
          stats.dropped += 1;
          fail(`close ${code}`);
        }
      });
    });
  }

  send(message) {
    this.socket.send(encodeFrame(message));
  }

  received(data) {
    const message = decodeFrame(data);
    if (message.type === "seated") {
      this.table.gameId = message.game_id;
      this.token = message.token;
      this.seating?.resolve(message);
      this.seating = null;
      return;
    }
    // What is still on its way about the game this socket played before is not for this table.
    if (message.game_id !== undefined && message.game_id !== this.table.gameId) return;
    if (measuring && (message.type === "update" || (this.version >= 0 && message.type !== "accepted"))) {
      stats.framesIn += 1;
      stats.bytesIn += data.length;
      if (message.type === "update") stats.updateBytes.push(data.length);
    }
    switch (message.type) {
      case "welcome":
        this.send({ type: "join", game_id: this.table.gameId });
        return;
      case "view":
        if (message.version < this.version) return;
        this.view = message;
        this.version = message.version;
        if (this.waiting !== null) {
          this.waiting.resolve();
          this.waiting = null;
        }
        this.table.seen(this);
        return;
      case "update":
        if (message.version !== this.version + 1) {
          fail("gap");
          this.send({ type: "resume", from_version: this.version });
          return;
        }
        applyPatch(this.view, message.patch);
        this.view.version = this.version = message.version;
        this.table.seen(this);
        return;
      case "rejected":
        fail(`rejected ${message.reason}`);
        this.table.retry();
        return;
      case "error":
        fail(`error ${message.code}`);
        this.seating?.reject(new Error(`error ${message.code}`));
        this.seating = null;
        return;
      default:
    }
  }

  close() {
    this.socket?.close();
  }
}

class PackplayTable {
  constructor() {
    this.gameId = null;
    this.seats = [];
    this.expected = 0;
    this.started = 0;
    this.closing = false;
    this.running = false;
    this.done = null;
  }

  async open(previous = null, ended = false) {
    const began = performance.now();
    let grants;
    if (previous !== null && KEPT_MESSAGES) {
      await this.sit(previous, ended);
    } else if (options.protocol === "1") {
      const created = await rest("POST", `${PREFIX}/games`, { game: options.game, players: 2 });
      this.gameId = created.game_id;
      grants = [];
      for (let seat = 0; seat < 2; seat += 1) {
        grants.push(await rest("POST", `${PREFIX}/games/${this.gameId}/seats`, { name: `p${seat}` }));
      }
    } else {
      // One call creates the game with both seats taken (it starts at once).
      const created = await rest("POST", `${PREFIX}/games`, { game: options.game, players: 2, seats: ["p0", "p1"] });
      this.gameId = created.game_id;
      grants = created.grants;
    }
    if (previous === null) {
      this.seats = grants.map((grant) => new Seat(this, grant.seat, grant.token));
      await Promise.all(this.seats.map((seat) => seat.open()));
    } else if (KEPT_MESSAGES) {
      // seated above
    } else {
      this.seats = previous;
      await Promise.all(grants.map((grant) => previous[grant.seat].reuse(this, grant.token)));
    }
    this.expected = this.seats[0].version;
    if (measuring) {
      stats.setups += 1;
      stats.setupSeconds += (performance.now() - began) / 1000;
    }
  }

  /**
   * The next game on the kept sockets of `previous`, by messages alone: after a game's
   * end each seat asks for a rematch (one message each); otherwise seat 0 creates a
   * game and seat 1 takes the other seat. The views follow the `seated` answers.
   */
  async sit(previous, ended) {
    this.seats = previous;
    if (ended) {
      await Promise.all(previous.map((seat) => seat.sit(this, { type: "rematch" })));
    } else {
      const setup = { game: options.game, players: 2 };
      const created = await previous[0].sit(this, { type: "create", setup, name: "p0" });
      await previous[1].sit(this, { type: "take_seat", game_id: created.game_id, name: "p1" });
    }
    await Promise.all(previous.map((seat) => seat.viewed()));
  }

  /** Every seat has the expected version: count the move, then make the next. */
  seen() {
    if (!this.running || this.seats.some((seat) => seat.version < this.expected)) return;
    if (this.started > 0 && measuring) {
      stats.moves += 1;
      stats.latencies.push(performance.now() - this.started);
    }
    this.started = 0;
    this.move();
  }

  move() {
    if (stopping || this.closing) return;
    this.running = true;
    const view = this.seats[0].view;
    if (view.result !== null) {
      this.finish();
      return;
    }
    const actor = this.seats[Math.min(...view.pending)];
    nextAction += 1;
    const act = {
      type: "act",
      action_id: `a${nextAction}`,
      version: actor.version,
      action: randomAction(actor.view),
    };
    this.expected = actor.version + 1;
    this.started = performance.now();
    actor.send(act);
  }

  retry() {
    setTimeout(() => this.move(), 10);
  }

  finish() {
    this.closing = true;
    if (!REUSE) for (const seat of this.seats) seat.close();
    this.done?.();
  }
}

// ---------------------------------------------------------------- the run

async function inBatches(count, open) {
  const tables = [];
  for (let start = 0; start < count; start += SETUP_CONCURRENCY) {
    const batch = [];
    for (let index = start; index < Math.min(count, start + SETUP_CONCURRENCY); index += 1) batch.push(open(index));
    tables.push(...(await Promise.all(batch)));
  }
  return tables;
}

async function openRelay(index) {
  const table = new RelayTable(index);
  await table.open();
  return table;
}

/** A new table, on the seats' sockets of `previous` when given (a new hello each). */
async function openPackplay(previous = null, ended = false) {
  const table = new PackplayTable();
  await table.open(previous, ended);
  table.done = () => {
    if (!stopping) replace(table);
  };
  return table;
}

const live = new Set();

function replace(old) {
  live.delete(old);
  openPackplay(REUSE ? old.seats : null, true)
    .then((table) => {
      live.add(table);
      table.move();
    })
    .catch((error) => {
      fail(`setup ${error.message.slice(0, 60)}`);
    });
}

function percentile(sorted, share) {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))];
}

async function main() {
  const relay = options.target === "relay";
  if (!relay) {
    ({ randomAction } = await import("../clients/js/src/legal.js"));
    ({ applyPatch } = await import("../clients/js/src/patch.js"));
  }
  const open = relay ? openRelay : () => openPackplay();
  await phase("setup");
  measuring = true;
  const began = performance.now();
  const tables = await inBatches(GAMES, open);
  const setupSeconds = (performance.now() - began) / 1000;
  const setupMoves = stats.moves;
  measuring = false;
  if (options.idle) {
    await phase("idle");
    await phase("done");
    stopping = true;
    for (const table of tables) for (const seat of table.seats) (seat.socket ?? seat).close();
    process.stdout.write(`${JSON.stringify({ connections: GAMES * 2, setupSeconds })}\n`);
    process.exit(0);
  }
  await phase("warmup");
  for (const table of tables) live.add(table);
  // Warm up: every table makes moves for a second before the measured window.
  for (const table of tables) table.move();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  Object.assign(stats, measures());
  await phase("play");
  measuring = true;
  const cpuBefore = process.cpuUsage();
  const wireBefore = wireBytes();
  const playBegan = performance.now();
  await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
  measuring = false;
  const wire = wireBytes() - wireBefore;
  const seconds = (performance.now() - playBegan) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  await phase("end");
  stopping = true;
  if (REUSE && !relay) {
    // What replacing a game costs on the connections kept: every table, stopped where it
    // is, gets a new game (create and take_seat on the sockets; with "--setup rest", a
    // REST create, then hello and join on each seat's socket).
    await new Promise((resolve) => setTimeout(resolve, 300)); // moves in flight settle
    // Several rounds, so that the CPU measured is not a few dozen games' worth.
    await phase("replace");
    let replaced = [...live];
    for (let round = 0; round < REPLACE_ROUNDS; round++) {
      const kept = replaced;
      replaced = await inBatches(kept.length, (index) => openPackplay(kept[index].seats));
      replacedGames += replaced.length;
    }
    await phase("replaced");
    live.clear();
    for (const table of replaced) live.add(table);
  }
  for (const table of live) {
    table.closing = true;
    for (const seat of table.seats) seat.close?.();
  }
  const sorted = stats.latencies.sort((a, b) => a - b);
  const result = {
    target: options.target,
    games: GAMES,
    encoding: ENCODING,
    seconds,
    moves: stats.moves,
    movesPerSecond: stats.moves / seconds,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    framesPerMovePerSeat: stats.framesIn / Math.max(1, stats.moves) / 2,
    bytesPerMovePerSeat: stats.bytesIn / Math.max(1, stats.moves) / 2,
    wireBytesPerMovePerSeat: wire / Math.max(1, stats.moves) / 2,
    updateBytesP50: percentile(stats.updateBytes.sort((a, b) => a - b), 0.5),
    setups: stats.setups,
    replacedGames,
    setupSeconds,
    initialSetupMoves: setupMoves,
    failed: stats.failed,
    failures: stats.failures,
    dropped: stats.dropped,
    driverCpuShare: (cpu.user + cpu.system) / 1e6 / seconds,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
  setTimeout(() => process.exit(0), 200);
}

main().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
