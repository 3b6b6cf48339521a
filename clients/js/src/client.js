/**
 * A small Packplay WebSocket client: handshake, join, act, resume, ping, and the
 * seat's exact view of the game, kept up to date from the server's updates.
 *
 * The view: after `join` (and after `resume`) the server sends a whole `view`
 * message; after each applied action, one `update` whose JSON Patch turns the view
 * message of the version before into the new one. The client holds the view as
 * plain JSON (`client.view`) and patches it in place. An update that does not
 * follow the version held, or whose patch does not fit, is a gap: the client emits
 * `gap`, sends `resume` (unless `autoResume` is off) and drops updates until the
 * whole view comes.
 *
 * It runs on the standard `WebSocket` (browsers, Node 22+). On Node 20 pass a
 * constructor with the same API, e.g. the `ws` package's:
 *
 * ```js
 * import WebSocket from "ws";
 * const client = new PackplayClient({ WebSocket });
 * ```
 *
 * @module
 */

import { completeCard, decode, encode, encodingOf, isObject, RESUMABLE_CLOSE_CODES, subprotocol } from "./codec.js";
import { hasDecision } from "./legal.js";
import { applyPatch, PatchError } from "./patch.js";

/** @typedef {import("./codec.js").Encoding} Encoding */
/** @typedef {import("./codec.js").Message} Message */
/** @typedef {import("./codec.js").DecodeError} DecodeError */
/**
 * @callback Handler
 * @param {any} payload  a message, a {@link DecodeError}, a {@link Gap} or a close event
 * @returns {void}
 */
/**
 * An update the client could not apply: `held` is the version of the view it
 * holds, `version` the update's; `reason` is `"version"` (the update is not the
 * next version) or `"patch"` (its patch does not fit the view held; `error` says
 * why).
 * @typedef {{held: number, version: number, reason: "version" | "patch", error?: string}} Gap
 */
/**
 * What the client emits. After the state is updated, each decoded message is
 * emitted as `"message"`, then:
 * - `"view"`: `client.view`, each time it changes: a whole `view` message taken,
 *   or the view patched by an update (a view older than the one held is not taken);
 * - `"update"`: an update that was applied, after the view was patched (before
 *   the `"view"` it made);
 * - `"accepted"`: an action was applied: an `accepted` message, or the
 *   `{type: "accepted", action_id, version}` that an update's `action_id` stands for;
 * - `"events"`: the events of a catch-up, when they bring versions the view held lacks;
 * - every other message under its `type` (`welcome`, `rejected`, `game_over`,
 *   `error`, `pong`);
 * - `"gap"`: a {@link Gap}, once, until the whole view comes;
 * - `"decode_error"`: a {@link DecodeError} for a frame that did not decode (among
 *   them messages of types this client does not know, code `unknown_type`);
 * - `"close"`: `{code, reason, resumable}` when the socket closes; `resumable`
 *   when the connection had opened and the code asks for a reconnect and resume;
 * - `"decided"`: `{action, action_id, version}`, each time the decision callback's
 *   action is sent (again after a reconnect, or after `rate_limited`);
 * - `"decision_error"`: the error the decision callback threw;
 * - `"reconnecting"`: `{attempt, delay}` before each reconnect of {@link PackplayClient#open};
 *   `"reconnected"`: the `welcome` of the new connection; `"reconnect_failed"`:
 *   `{attempts, error}` once it gives up.
 * @typedef {string} EventName
 */

/** Messages about a game, dropped between a new `hello` and its `welcome` (the game left). */
const ABOUT_THE_GAME = new Set(["view", "update", "events", "game_over"]);
/** Rejections after which the same action is sent again, with the same id. */
const RETRY_REASONS = new Set(["rate_limited", "unavailable"]);
const SOCKET_OPEN = 1;

export const CLIENT_NAME = "packplay-js/0.3.0";

/**
 * Largest frame the client reads by default: 4 MiB, as the Python SDK. A whole view
 * carries its card table and can outgrow the 64 KiB a server reads from a client.
 */
export const MAX_SERVER_FRAME_BYTES = 4 * 1024 * 1024;

/** A seat's or a spectator's connection to one game. */
export class PackplayClient {
  /**
   * @param {object} [options]
   * @param {typeof WebSocket} [options.WebSocket]  defaults to `globalThis.WebSocket`
   * @param {string} [options.client]  name and version sent in `hello`
   * @param {boolean} [options.autoResume]  send `resume` on a gap (default true)
   * @param {number} [options.maxBytes]  largest frame read (default {@link MAX_SERVER_FRAME_BYTES})
   * @param {boolean} [options.keepAlive]  ping at half the server's `ping_interval_seconds`, so
   *   that a connection that only listens (a spectator, a seat waiting) is not closed as silent
   *   (default true)
   */
  constructor({
    WebSocket: Socket = globalThis.WebSocket,
    client = CLIENT_NAME,
    autoResume = true,
    maxBytes = MAX_SERVER_FRAME_BYTES,
    keepAlive = true,
  } = {}) {
    if (typeof Socket !== "function") {
      throw new TypeError("no WebSocket: pass one, e.g. new PackplayClient({ WebSocket }) with the `ws` package");
    }
    this.Socket = Socket;
    this.client = client;
    this.autoResume = autoResume;
    this.maxBytes = maxBytes;
    this.keepAlive = keepAlive;
    /** @type {ReturnType<typeof setInterval> | null} */
    this.pinger = null;
    /** @type {Encoding} the encoding the server speaks on this connection */
    this.encoding = "json";
    /**
     * @type {Message | null} the view message held: the last whole view, patched
     * by every update since (plain JSON, changed in place)
     */
    this.view = null;
    /** @type {Message | null} the server's `welcome` */
    this.welcome = null;
    /** @type {Message | null} the `game_over` message, once the game has ended */
    this.gameOver = null;
    /** true from a gap until the next whole view: updates are dropped meanwhile */
    this.behind = false;
    /** @type {WebSocket | null} */
    this.socket = null;
    /** @type {Map<string, Set<Handler>>} */
    this.handlers = new Map();
    /** @type {Map<string, {promise: Promise<Message>, resolve: (m: Message) => void, reject: (e: Error) => void}>} */
    this.waiting = new Map();
    this.actionPrefix = randomPrefix();
    this.actionCount = 0;
    /** @type {((view: Message, client: PackplayClient) => unknown) | null} the decision callback */
    this.decider = null;
    /** true while the decision callback runs */
    this.deciding = false;
    /** @type {{action: Message, actionId: string, version: number, key: string, tries: number, socket: WebSocket | null} | null} */
    this.decision = null;
    /** @type {string | null} a decision the callback declined (returned null) or got refused: not asked again */
    this.declined = null;
    /** @type {{url: string, token: string | null, gameId: string | null, role: string, encoding: Encoding, reconnect: boolean, maxAttempts: number} | null} */
    this.target = null;
    this.stopped = false;
    /** true while {@link open}'s reconnect loop runs */
    this.reconnecting = false;
    /** @type {Promise<Error | null> | null} the reconnect under way, if any */
    this.reconnection = null;
    /** @type {WebSocket | null} the socket on which the last whole view came (the connection joined) */
    this.viewSocket = null;
    /** true from a new `hello` on the open socket ({@link switchGame}) to its `welcome` */
    this.switching = false;
    /** @type {Message | null} the seat taken on this connection by the last create, take_seat or rematch */
    this.seated = null;
  }

  /** Whether the socket is open. */
  get connected() {
    return this.socket !== null && this.socket.readyState === SOCKET_OPEN;
  }

  /** @returns {number | null} the version of the view held (null before the first view) */
  get version() {
    return this.view === null ? null : this.view.version;
  }

  /**
   * Call `handler` for each message of `type` (or another event name, see
   * {@link EventName}). Returns a function that removes the handler.
   *
   * @param {string} type
   * @param {Handler} handler
   * @returns {() => void}
   */
  on(type, handler) {
    if (!this.handlers.has(type)) this.handlers.set(type, new Set());
    this.handlers.get(type).add(handler);
    return () => this.handlers.get(type)?.delete(handler);
  }

  /**
   * Connect, send `hello`, and resolve with the server's `welcome`. Rejects when
   * the server answers with an `error` (e.g. `unauthorized`, or
   * `unsupported_version` with the subprotocols it speaks in `spoken`) or the
   * socket closes first. The view held is kept: after a reconnect, join again
   * with `fromVersion: client.version`.
   *
   * @param {string} url  e.g. `wss://host/v2/ws`
   * @param {{encoding?: Encoding, token?: string | null}} [options]
   * @returns {Promise<Message>}
   */
  connect(url, { encoding = "json", token = null } = {}) {
    const socket = new this.Socket(url, [subprotocol(encoding)]);
    socket.binaryType = "arraybuffer";
    this.socket = socket;
    this.encoding = encoding;
    return new Promise((resolve, reject) => {
      const stop = [
        this.on("welcome", (welcome) => settle(() => resolve(welcome))),
        this.on("error", (error) =>
          settle(() => reject(Object.assign(new Error(error.message), { code: error.code, spoken: error.spoken }))),
        ),
        this.on("close", ({ code, reason }) =>
          settle(() => reject(Object.assign(new Error(`closed ${code} ${reason}`), { code }))),
        ),
      ];
      const settle = (done) => {
        stop.forEach((off) => off());
        done();
      };
      let opened = false;
      socket.addEventListener("open", () => {
        if (this.socket !== socket) return;
        opened = true;
        // The server answers in the subprotocol it took; an error refusing all is JSON.
        this.encoding = encodingOf(socket.protocol) ?? "json";
        this.send({ type: "hello", client: this.client, token });
      });
      socket.addEventListener("message", (event) => {
        if (this.socket === socket) this.receive(event.data);
      });
      // A failed handshake is reported by the close event that follows (1006). The
      // listener is needed anyway: the `ws` package throws an error nobody listens to.
      socket.addEventListener("error", () => {});
      socket.addEventListener("close", (event) => {
        if (this.socket === socket) this.closed(event.code, event.reason, opened);
      });
    });
  }

  /**
   * Connect, join and resolve with the whole view: the usual way to start. With
   * `reconnect` (the default) a connection that closes with a resumable code is
   * opened again, with a growing delay, and the game joined from the version held,
   * so the view stays exact and an action in flight is sent again with its id.
   * That holds for the first connection too: one closed with a resumable code
   * before it joined (a draining process's 1012) is opened again, and the promise
   * resolves once a later one joins, or rejects when reconnecting gives up.
   * `gameId` defaults to the game of the token's seat.
   *
   * @param {string} url  e.g. `wss://host/v2/ws`
   * @param {{token?: string | null, gameId?: string | null, role?: "player" | "spectator",
   *   encoding?: Encoding, reconnect?: boolean, maxAttempts?: number}} [options]
   * @returns {Promise<Message>}
   */
  async open(url, { token = null, gameId = null, role = "player", encoding = "json", reconnect = true, maxAttempts = 8 } = {}) {
    const target = (this.target = { url, token, gameId, role, encoding, reconnect, maxAttempts });
    this.stopped = false;
    try {
      return await this.enter();
    } catch (error) {
      // A first connection closed with a resumable code (a draining process's 1012, a
      // 1013) is being opened again: the view comes with that reconnect, if it joins.
      if (this.reconnection === null || this.target !== target) throw error;
      const lastError = await this.reconnection;
      if (lastError !== null || this.view === null) throw lastError ?? error;
      return structuredClone(this.view);
    }
  }

  /** Connect and join the target of {@link open}; resolves with the whole view that follows. */
  async enter() {
    const target = this.target;
    const welcome = await this.connect(target.url, { encoding: target.encoding, token: target.token });
    target.gameId ??= welcome.game_id;
    if (target.gameId === null) throw new Error("no game to join: pass gameId, or a player token");
    const viewed = this.next("view");
    this.join(target.gameId, { role: target.role, fromVersion: this.version });
    return viewed;
  }

  /**
   * Take another seat (or spectate another game) on the open connection, as a player
   * going from one game to the next does: `hello` with `token`, then `join`; resolves
   * with the new game's whole view. The server stops sending the game held: what still
   * arrives of it before the new `welcome` is dropped (an update answering an action
   * still answers it), and the view, `gameOver` and the decision under way start over.
   * A reconnect of {@link open} then goes to the new game. `gameId` defaults to the game
   * of the token's seat. Rejects when the server answers with an `error` or the socket
   * closes first.
   *
   * @param {{token?: string | null, gameId?: string | null, role?: "player" | "spectator"}} [options]
   * @returns {Promise<Message>}
   */
  async switchGame({ token = null, gameId = null, role = "player" } = {}) {
    if (!this.connected) throw new Error("not connected");
    // A reconnect from here on goes to the new seat (the old one's game is left).
    if (this.target !== null) Object.assign(this.target, { token, gameId, role });
    const welcomed = this.next("welcome");
    this.forgetGame(); // a reconnect before the welcome comes must not resume the game left
    this.switching = true;
    let welcome;
    try {
      this.send({ type: "hello", client: this.client, token });
      welcome = await welcomed;
    } finally {
      this.switching = false;
    }
    gameId ??= welcome.game_id;
    if (gameId === null) throw new Error("no game to join: pass gameId, or a player token");
    if (this.target !== null) this.target.gameId = gameId;
    const viewed = this.next("view");
    this.join(gameId, { role });
    return viewed;
  }

  /**
   * Reconnect after a resumable close, waiting longer after each failed attempt.
   * Resolves with null once joined again, else with what stopped it (the last error,
   * or an error saying the client was closed or opened elsewhere).
   */
  async reconnect() {
    const target = this.target;
    let lastError = null;
    this.reconnecting = true;
    const gone = () => (this.stopped || this.target !== target ? new Error("closed or opened elsewhere") : null);
    try {
      for (let attempt = 1; attempt <= target.maxAttempts; attempt++) {
        const delay = Math.min(250 * 2 ** (attempt - 1), 5000);
        this.emit("reconnecting", { attempt, delay });
        await new Promise((resolve) => setTimeout(resolve, delay));
        if (gone()) return gone();
        try {
          await this.enter();
          this.reconnecting = false;
          this.emit("reconnected", this.welcome);
          return null;
        } catch (error) {
          lastError = error;
          if (gone()) return gone();
          if (this.socket?.readyState === SOCKET_OPEN) this.socket.close();
        }
      }
    } finally {
      this.reconnecting = false;
    }
    this.emit("reconnect_failed", { attempts: target.maxAttempts, error: lastError });
    return lastError ?? new Error("reconnect failed");
  }

  /**
   * The one way to play a seat without acting twice on a decision. `decide(view)` is
   * called with a copy of the view each time the seat faces a new decision (it is
   * pending and `view.legal` offers something), and returns the action to send, or
   * null to decide nothing (it is not asked again about the same decision), or a
   * promise of either. It is never called again while it runs or while its action
   * waits for its answer; the answer is the acceptance (then the next decision), a
   * `stale_version` (decided again on the view held), `rate_limited` or
   * `unavailable` (the same action sent again with the same id), or another
   * refusal (emitted as `rejected`, and the decision is left to you). When the
   * decision changes while `decide` runs (a turn clock ran out), its action is
   * dropped and `decide` called again. After a reconnect an action still waiting
   * is sent again with its id: the server applies it once. Returns a function that
   * removes the callback.
   *
   * @param {(view: Message, client: PackplayClient) => unknown} decide
   * @returns {() => void}
   */
  onDecision(decide) {
    this.decider = decide;
    this.declined = null;
    queueMicrotask(() => this.maybeDecide());
    return () => {
      if (this.decider === decide) this.decider = null;
    };
  }

  /**
   * Resolves with the `game_over` message (at once when it came already); rejects
   * when the connection closes for good first (not resumable, or reconnecting gave up).
   * @returns {Promise<Message>}
   */
  whenOver() {
    if (this.gameOver !== null) return Promise.resolve(this.gameOver);
    return new Promise((resolve, reject) => {
      const stop = [
        this.on("game_over", (over) => done(() => resolve(over))),
        this.on("close", ({ code, resumable }) => {
          if (!this.reconnecting && !(resumable && this.target?.reconnect && !this.stopped)) {
            done(() => reject(Object.assign(new Error(`closed ${code} before the game ended`), { code })));
          }
        }),
        this.on("reconnect_failed", ({ error }) => done(() => reject(error ?? new Error("reconnect failed")))),
      ];
      const done = (settle) => {
        stop.forEach((off) => off());
        settle();
      };
    });
  }

  /**
   * The next payload emitted as `name`; rejects when the socket closes first or the
   * server answers with an `error`.
   * @param {string} name
   * @returns {Promise<any>}
   */
  next(name) {
    return new Promise((resolve, reject) => {
      const stop = [
        this.on(name, (payload) => done(() => resolve(payload))),
        this.on("error", (error) =>
          done(() => reject(Object.assign(new Error(error.message), { code: error.code }))),
        ),
        this.on("close", ({ code, reason }) =>
          done(() => reject(Object.assign(new Error(`closed ${code} ${reason}`), { code }))),
        ),
      ];
      const done = (settle) => {
        stop.forEach((off) => off());
        settle();
      };
    });
  }

  /**
   * Watch or play `gameId`. The server answers with the whole view; with
   * `fromVersion` (after a reconnect, the version held) it first sends the events
   * after it.
   *
   * @param {string} gameId
   * @param {{role?: "player" | "spectator", fromVersion?: number | null}} [options]
   */
  join(gameId, { role = "player", fromVersion = null } = {}) {
    this.send({ type: "join", game_id: gameId, role, from_version: fromVersion });
  }

  /**
   * Follow a tournament on this connection (connect first; no token is needed). With
   * a registered player's `secret` the server sends its `tournament_table` now and
   * whenever it changes (the game to join is named there as soon as it exists); without
   * one, or with `watch`, the current round's `tournament_round` and the
   * `tournament_standings`, now and whenever they change. They are emitted under their
   * type. A player that follows with its secret plays its tables on this connection:
   * when its table names a game (`playing`), the server sends that game's whole view
   * here, and {@link onDecision} or {@link play} act in it; no `hello` or `join` is needed.
   * A connection that follows may not `join` a game.
   *
   * @param {string} tournamentId
   * @param {{secret?: string | null, watch?: boolean}} [options]
   */
  follow(tournamentId, { secret = null, watch = false } = {}) {
    this.send({ type: "follow", tournament_id: tournamentId, secret, watch });
  }

  /**
   * Create a game and take a seat of it on this connection, without REST or `join`.
   * `setup` is the REST create-game body without `seats` (its limits and refusals
   * apply); the sender takes `seat` (by default the lowest the house does not play).
   * Resolves with the `seated` answer; its `started` says whether the view follows at
   * once (the house plays every other seat) or once the other players have taken their
   * seats ({@link whenStarted}). Rejects with the server's `error` (its `code`).
   *
   * @param {Record<string, unknown>} setup
   * @param {{name: string, seat?: number | null}} options
   * @returns {Promise<Message>}
   */
  createGame(setup, { name, seat = null }) {
    return this.sit({ type: "create", setup, name, seat });
  }

  /**
   * Take a seat of a game waiting for players (`invite`: a private game's code) and play
   * it on this connection; resolves with the `seated` answer (see {@link createGame}).
   *
   * @param {string} gameId
   * @param {{name: string, seat?: number | null, invite?: string | null}} options
   * @returns {Promise<Message>}
   */
  takeSeat(gameId, { name, seat = null, invite = null }) {
    return this.sit({ type: "take_seat", game_id: gameId, name, seat, invite });
  }

  /**
   * Once the game played here is over: the same players' next game, each in its seat;
   * it starts when every player has asked. Resolves with the `seated` answer.
   * @returns {Promise<Message>}
   */
  rematch() {
    return this.sit({ type: "rematch" });
  }

  /** Send a create, take_seat or rematch; the `seated` answer. */
  sit(message) {
    if (!this.connected) throw new Error("not connected");
    const seated = this.next("seated");
    this.send(message);
    return seated;
  }

  /**
   * The first whole view of the game seated in (a copy): at once when it is held, else
   * when the game starts. Rejects when the socket closes first.
   * @returns {Promise<Message>}
   */
  whenStarted() {
    const gameId = this.seated?.game_id ?? this.target?.gameId ?? null;
    const held = () => this.view !== null && (gameId === null || this.view.game_id === gameId);
    if (held()) return Promise.resolve(structuredClone(this.view));
    return new Promise((resolve, reject) => {
      const stop = [
        this.on("view", () => {
          if (held()) done(() => resolve(structuredClone(this.view)));
        }),
        this.on("close", ({ code, reason }) =>
          done(() => reject(Object.assign(new Error(`closed ${code} ${reason}`), { code }))),
        ),
      ];
      const done = (settle) => {
        stop.forEach((off) => off());
        settle();
      };
    });
  }

  /**
   * Send `action`, decided on `version` (by default the version of the view held).
   * Returns the action id; send the same id again to retry the same action (after
   * `rate_limited`, `unavailable` or a reconnect): the server applies it once.
   *
   * @param {Message} action  e.g. an entry of `view.legal.actions`
   * @param {{actionId?: string, version?: number}} [options]
   * @returns {string}
   */
  act(action, { actionId = this.nextActionId(), version = this.version ?? 0 } = {}) {
    this.send({ type: "act", action_id: actionId, version, action });
    return actionId;
  }

  /**
   * Send `action` as {@link act} does and resolve with its answer: the `accepted`
   * (a message, or the one an update's `action_id` stands for, resolved once the
   * view is patched) or the `rejected` message. Rejects when the connection closes
   * first, with an error whose `code` is the close code and `actionId` the id to
   * send again after a reconnect.
   *
   * @param {Message} action
   * @param {{actionId?: string, version?: number}} [options]
   * @returns {Promise<Message>}
   */
  play(action, { actionId = this.nextActionId(), version } = {}) {
    let waiting = this.waiting.get(actionId);
    if (waiting === undefined) {
      waiting = {};
      waiting.promise = new Promise((resolve, reject) => Object.assign(waiting, { resolve, reject }));
      this.waiting.set(actionId, waiting);
    }
    try {
      this.act(action, { actionId, version });
    } catch (error) {
      this.waiting.delete(actionId);
      throw error;
    }
    return waiting.promise;
  }

  /**
   * Ask for the events after `fromVersion` (by default the version held), then the
   * whole view. The client does it itself on a gap when `autoResume` is on.
   */
  resume(fromVersion = this.version ?? 0) {
    this.send({ type: "resume", from_version: fromVersion });
  }

  /** Keep the connection alive; the server answers `pong` with the same nonce. */
  ping(nonce = String(Date.now())) {
    this.send({ type: "ping", nonce });
  }

  /** Close the connection (and stop reconnecting). */
  close(code = 1000, reason = "") {
    this.stopped = true;
    this.socket?.close(code, reason);
  }

  /** A fresh action id, unique for this client (at most 64 characters). */
  nextActionId() {
    this.actionCount += 1;
    return `${this.actionPrefix}-${this.actionCount}`;
  }

  /** Encode and send one message. @param {Message} message */
  send(message) {
    if (this.socket === null) throw new Error("not connected");
    this.socket.send(encode(message, this.encoding));
  }

  /** Decode one received frame, update the view, and call the handlers. */
  receive(frame) {
    const decoded = decode(frame, this.encoding, { direction: "to_client", maxBytes: this.maxBytes });
    if (!decoded.ok) {
      this.emit("decode_error", decoded.error);
      return;
    }
    const message = decoded.message;
    if (this.switching && ABOUT_THE_GAME.has(message.type)) {
      // About the game left: only an acknowledgement it carries still matters.
      if (message.type === "update" && message.action_id !== null) {
        this.answered({ type: "accepted", action_id: message.action_id, version: message.version });
      }
      return;
    }
    const emits = this.track(message);
    this.emit("message", message);
    for (const [name, payload] of emits) this.emit(name, payload);
    this.maybeDecide();
  }

  /** What a seat decides on, as a key: two views with equal keys offer the same decision. */
  decisionKey(view) {
    return JSON.stringify(view.legal);
  }

  /** Whether the view held awaits a decision of its seat. */
  awaitsDecision(view = this.view) {
    return (
      view !== null &&
      view.result === null &&
      view.seat !== null &&
      view.pending.includes(view.seat) &&
      hasDecision(view)
    );
  }

  /** Call the decision callback when the seat faces a decision nobody is working on. */
  maybeDecide() {
    const view = this.view;
    if (this.decider === null || view === null || this.behind || this.deciding) return;
    // Only on a connection that joined the game: its whole view came on this socket.
    if (this.viewSocket !== this.socket) return;
    if (this.decision !== null) {
      // An action still waiting after a reconnect goes again on the new connection.
      if (this.decision.socket !== this.socket && this.connected) this.sendDecision();
      return;
    }
    if (!this.awaitsDecision(view)) return;
    const key = this.decisionKey(view);
    if (this.declined === key) return;
    this.deciding = true;
    const decider = this.decider;
    const copy = structuredClone(view);
    Promise.resolve()
      .then(() => decider(copy, this))
      .then(
        (action) => this.decided(key, action),
        (error) => {
          this.deciding = false;
          this.declined = key;
          this.emit("decision_error", error);
        },
      );
  }

  decided(key, action) {
    this.deciding = false;
    if (action === null || action === undefined) {
      this.declined = key;
      return;
    }
    const view = this.view;
    if (!this.awaitsDecision(view) || this.decisionKey(view) !== key) {
      this.maybeDecide(); // the decision changed meanwhile: this action may no longer be legal
      return;
    }
    this.decision = { action, actionId: this.nextActionId(), version: view.version, key, tries: 0, socket: null };
    this.sendDecision();
  }

  sendDecision() {
    const decision = this.decision;
    if (decision === null || !this.connected) return;
    decision.socket = this.socket;
    this.act(decision.action, { actionId: decision.actionId, version: decision.version });
    this.emit("decided", { action: decision.action, action_id: decision.actionId, version: decision.version });
  }

  /** The answer to the decision's action: accepted, refused, or to be sent again. */
  decisionAnswered(answer) {
    const decision = this.decision;
    if (decision === null || answer.action_id !== decision.actionId) return;
    if (answer.type === "rejected" && RETRY_REASONS.has(answer.reason)) {
      decision.tries += 1;
      const socket = this.socket;
      setTimeout(() => {
        if (this.decision === decision && this.socket === socket) this.sendDecision();
      }, Math.min(100 * 2 ** decision.tries, 4000));
      return;
    }
    this.decision = null;
    this.declined = answer.type === "rejected" && answer.reason !== "stale_version" ? decision.key : null;
  }

  /**
   * Update the client's state from one message; returns what to emit.
   * @param {Message} message
   * @returns {[string, unknown][]}
   */
  track(message) {
    switch (message.type) {
      case "welcome":
        if (this.switching) this.leftGame();
        this.welcome = message;
        this.startPinging(message.limits?.ping_interval_seconds);
        break;
      case "view":
        return this.takeView(message);
      case "update":
        return this.applyUpdate(message);
      case "events":
        if (this.version !== null && message.to_version <= this.version) return [];
        break;
      case "accepted":
      case "rejected":
        this.answered(message);
        break;
      case "game_over":
        this.gameOver = message;
        break;
      case "seated":
        // The connection plays this seat now; a reconnect resumes it with its token.
        this.forgetGame();
        this.leftGame();
        this.seated = message;
        if (this.target !== null) {
          Object.assign(this.target, { token: message.token, gameId: message.game_id, role: "player" });
        }
        break;
    }
    return [[message.type, message]];
  }

  /** Drop the view of the game held and what the seat was deciding there. */
  forgetGame() {
    this.view = this.gameOver = this.decision = this.declined = this.viewSocket = null;
    this.behind = false;
  }

  /** The welcome of a new `hello` came: actions of the game left get no answer now. */
  leftGame() {
    this.switching = false;
    const waiting = [...this.waiting.entries()];
    this.waiting.clear();
    for (const [actionId, { reject }] of waiting) {
      reject(Object.assign(new Error(`left the game before action ${actionId} was answered`), { actionId }));
    }
  }

  /** A whole view replaces the one held, unless it is older (of the same game). */
  takeView(view) {
    const held = this.view;
    if (held !== null && held.game_id === view.game_id && view.version < held.version) return [];
    if (held !== null && held.game_id !== view.game_id) {
      // The next game on this connection (a tournament's next table): start over.
      this.gameOver = this.decision = this.declined = null;
    }
    this.view = view;
    this.behind = false;
    this.viewSocket = this.socket;
    return [["view", view]];
  }

  /** Patch the view held with the update of the next version; anything else is dropped or a gap. */
  applyUpdate(update) {
    const held = this.view;
    if (held === null || this.behind || held.game_id !== update.game_id || update.version <= held.version) return [];
    if (update.version !== held.version + 1) return this.gap(update, "version");
    let patched;
    try {
      patched = applyPatch(held, update.patch);
    } catch (error) {
      if (!(error instanceof PatchError)) throw error;
      return this.gap(update, "patch", error.message);
    }
    if (!isObject(patched)) return this.gap(update, "patch", "the patch makes the view a non-object");
    try {
      completeNewCards(patched, update.patch);
    } catch (error) {
      if (!(error instanceof TypeError)) throw error;
      return this.gap(update, "patch", error.message);
    }
    patched.version = update.version;
    this.view = patched;
    const emits = [
      ["update", update],
      ["view", patched],
    ];
    if (update.action_id !== null) {
      const accepted = { type: "accepted", action_id: update.action_id, version: update.version };
      this.answered(accepted);
      emits.push(["accepted", accepted]);
    }
    return emits;
  }

  gap(update, reason, error) {
    const held = this.view.version;
    this.behind = true;
    if (this.autoResume) this.resume(held);
    /** @type {Gap} */
    const gap = { held, version: update.version, reason };
    if (error !== undefined) gap.error = error;
    return [["gap", gap]];
  }

  answered(answer) {
    this.decisionAnswered(answer);
    const waiting = this.waiting.get(answer.action_id);
    if (waiting === undefined) return;
    this.waiting.delete(answer.action_id);
    waiting.resolve(answer);
  }

  /** Ping at half the server's interval while the socket is open. */
  startPinging(intervalSeconds) {
    this.stopPinging();
    if (!this.keepAlive || !(intervalSeconds > 0)) return;
    const socket = this.socket;
    this.pinger = setInterval(() => {
      if (this.socket === socket && this.connected) this.ping();
    }, (intervalSeconds * 1000) / 2);
    // In Node, a timer must not keep the process alive on its own.
    this.pinger.unref?.();
  }

  stopPinging() {
    if (this.pinger !== null) clearInterval(this.pinger);
    this.pinger = null;
  }

  closed(code, reason, opened) {
    this.stopPinging();
    // A connection that never opened (no server, a refused handshake) has nothing to resume.
    const resumable = opened && RESUMABLE_CLOSE_CODES.includes(code);
    const waiting = [...this.waiting.entries()];
    this.waiting.clear();
    for (const [actionId, { reject }] of waiting) {
      const error = new Error(`closed ${code} before action ${actionId} was answered`);
      reject(Object.assign(error, { code, actionId, resumable }));
    }
    this.emit("close", { code, reason, resumable });
    if (resumable && this.target?.reconnect && !this.stopped && !this.reconnecting) {
      const reconnection = (this.reconnection = this.reconnect());
      reconnection.finally(() => {
        if (this.reconnection === reconnection) this.reconnection = null;
      });
    }
  }

  /** @param {string} type @param {unknown} payload */
  emit(type, payload) {
    for (const handler of [...(this.handlers.get(type) ?? [])]) handler(payload);
  }
}

function randomPrefix() {
  const bytes = new Uint8Array(6);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Cards a patch put in the view's table get their default fields, as the cards of a
 * whole view do when it is decoded.
 */
function completeNewCards(view, patch) {
  for (const op of patch) {
    if (op.op === "remove" || !op.path.startsWith("/cards/")) continue;
    const token = op.path.slice("/cards/".length);
    if (token.includes("/")) continue; // a field of a card: its card was completed when it came
    const id = token.replaceAll("~1", "/").replaceAll("~0", "~");
    if (isObject(view.cards) && Object.hasOwn(view.cards, id)) view.cards[id] = completeCard(view.cards[id]);
  }
}
