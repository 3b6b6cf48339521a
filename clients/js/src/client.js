/**
 * A minimal Packplay WebSocket client: handshake, join, act, resume, ping, and
 * the game version it has seen.
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

import { decode, encode, encodingOf, subprotocol } from "./codec.js";

/** @typedef {import("./codec.js").Encoding} Encoding */
/** @typedef {import("./codec.js").Message} Message */
/** @typedef {import("./codec.js").DecodeError} DecodeError */
/**
 * @callback Handler
 * @param {any} payload  a message, a {@link DecodeError}, a close event or a gap
 * @returns {void}
 */
/**
 * What the client emits, besides each message under its `type`:
 * - `"message"`: every decoded message;
 * - `"decode_error"`: a {@link DecodeError} for a frame that did not decode (among
 *   them messages of types this client does not know, code `unknown_type`);
 * - `"gap"`: `{expected, from_version}` when an `events` message does not chain
 *   on the last version seen (the client sends `resume` itself when `autoResume`);
 * - `"close"`: `{code, reason}` when the socket closes.
 * @typedef {string} EventName
 */

export const CLIENT_NAME = "packplay-js/0.1.0";

/** A seat's or a spectator's connection to one game. */
export class PackplayClient {
  /**
   * @param {object} [options]
   * @param {typeof WebSocket} [options.WebSocket]  defaults to `globalThis.WebSocket`
   * @param {string} [options.client]  name and version sent in `hello`
   * @param {boolean} [options.autoResume]  send `resume` on a gap in `events` (default true)
   * @param {number} [options.maxBytes]  largest frame read (default 64 KiB)
   */
  constructor({ WebSocket: Socket = globalThis.WebSocket, client = CLIENT_NAME, autoResume = true, maxBytes } = {}) {
    if (typeof Socket !== "function") {
      throw new TypeError("no WebSocket: pass one, e.g. new PackplayClient({ WebSocket }) with the `ws` package");
    }
    this.Socket = Socket;
    this.client = client;
    this.autoResume = autoResume;
    this.maxBytes = maxBytes;
    /** @type {Encoding} the encoding the server speaks on this connection */
    this.encoding = "json";
    /** @type {number | null} the last game version seen (view, events, accepted) */
    this.version = null;
    /** @type {Message | null} the server's `welcome` */
    this.welcome = null;
    /** @type {WebSocket | null} */
    this.socket = null;
    /** @type {Map<string, Set<Handler>>} */
    this.handlers = new Map();
    /** true from an automatic `resume` until the next `view` */
    this.resuming = false;
    this.actionPrefix = randomPrefix();
    this.actionCount = 0;
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
   * the server answers with an `error` (e.g. `unauthorized`) or the socket closes
   * first.
   *
   * @param {string} url  e.g. `wss://host/v1/ws`
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
        this.on("error", (error) => settle(() => reject(Object.assign(new Error(error.message), { code: error.code })))),
        this.on("close", ({ code, reason }) => settle(() => reject(Object.assign(new Error(`closed ${code} ${reason}`), { code })))),
      ];
      const settle = (done) => {
        stop.forEach((off) => off());
        done();
      };
      socket.addEventListener("open", () => {
        // The server answers in the subprotocol it took; an error refusing all is JSON.
        this.encoding = encodingOf(socket.protocol) ?? "json";
        this.send({ type: "hello", client: this.client, token });
      });
      socket.addEventListener("message", (event) => this.receive(event.data));
      socket.addEventListener("close", (event) => this.emit("close", { code: event.code, reason: event.reason }));
    });
  }

  /**
   * Watch or play `gameId`. With `fromVersion` (after a reconnect, say, with the
   * last version seen) the server first sends the events after it.
   *
   * @param {string} gameId
   * @param {{role?: "player" | "spectator", fromVersion?: number | null}} [options]
   */
  join(gameId, { role = "player", fromVersion = null } = {}) {
    this.send({ type: "join", game_id: gameId, role, from_version: fromVersion });
  }

  /**
   * Play `action`, decided on `version` (by default the last version seen).
   * Returns the action id; send the same id again to retry the same action.
   *
   * @param {Message} action  e.g. an entry of `view.legal.actions`
   * @param {{actionId?: string, version?: number}} [options]
   * @returns {string}
   */
  act(action, { actionId = this.nextActionId(), version = this.version ?? 0 } = {}) {
    this.send({ type: "act", action_id: actionId, version, action });
    return actionId;
  }

  /** Ask again for the events after `fromVersion` (by default the last version seen), then the view. */
  resume(fromVersion = this.version ?? 0) {
    this.send({ type: "resume", from_version: fromVersion });
  }

  /** Keep the connection alive; the server answers `pong` with the same nonce. */
  ping(nonce = String(Date.now())) {
    this.send({ type: "ping", nonce });
  }

  /** Close the connection. */
  close(code = 1000, reason = "") {
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

  /** Decode one received frame, track the version, and call the handlers. */
  receive(frame) {
    const decoded = decode(frame, this.encoding, { direction: "to_client", maxBytes: this.maxBytes });
    if (!decoded.ok) {
      this.emit("decode_error", decoded.error);
      return;
    }
    const message = decoded.message;
    this.track(message);
    this.emit("message", message);
    this.emit(message.type, message);
  }

  /** @param {Message} message */
  track(message) {
    switch (message.type) {
      case "welcome":
        this.welcome = message;
        break;
      case "view":
        this.version = message.version;
        this.resuming = false;
        break;
      case "events":
        if (this.version !== null && message.from_version > this.version) {
          this.emit("gap", { expected: this.version, from_version: message.from_version });
          if (this.autoResume && !this.resuming) {
            this.resuming = true;
            this.resume(this.version);
          }
          break;
        }
        this.version = Math.max(this.version ?? 0, message.to_version);
        break;
      case "accepted":
        this.version = Math.max(this.version ?? 0, message.version);
        break;
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
