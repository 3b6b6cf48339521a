/**
 * Reads and writes Packplay v2 frames, JSON or MessagePack.
 *
 * `encode` writes a message; `decode` reads one frame and is total: whatever the
 * frame holds it returns `{ok: true, message}` or `{ok: false, error}`, never
 * throws. The error codes are those of `packplay_protocol.codec` (the reference
 * codec in Python): `bad_message`, `unknown_type` and `frame_too_large`.
 *
 * What is checked: the message types of each direction, and every field of every
 * message (its presence, type and range), the cards of a view's card table and the
 * operations of an update's patch included. Game payloads (a view's `view`, its
 * legal actions, events) are checked to be objects with a string `type`, not field
 * by field: new games, actions and events may appear within v2. Inside `events`
 * (of an `events` or an `update` message), events of unknown types are dropped.
 * Only `act.action`, which a server must be able to apply, has to name a known
 * action. Unknown fields are kept as they are; absent optional fields get their
 * default values (but a patch operation without `value` stays without one).
 *
 * @module
 */

import { decode as unpack, encode as pack } from "./vendor/msgpack/index.mjs";

import { ACTION_TYPES, EVENT_TYPES, PROTOCOL_VERSION } from "./catalog.js";
import { PATCH_OPS } from "./patch.js";

/** @typedef {"json" | "msgpack"} Encoding */
/** @typedef {"from_client" | "to_client"} Direction */
/** @typedef {{type: string, [field: string]: unknown}} Message */
/**
 * Why a frame did not decode. `action_id` is set when the frame looked like an
 * `act` with a readable id, so a server can answer `rejected` for it.
 * @typedef {{code: "bad_message" | "unknown_type" | "frame_too_large", message: string, action_id: string | null}} DecodeError
 */
/** @typedef {{ok: true, message: Message} | {ok: false, error: DecodeError}} Decoded */

/** Largest frame read by default, as `limits.max_frame_bytes` of a default server. */
export const DEFAULT_MAX_FRAME_BYTES = 64 * 1024;

/**
 * Deepest nesting of arrays and objects accepted in a frame. Real messages nest
 * less than 10 deep; the cap keeps hostile frames from reaching code that recurses.
 */
export const MAX_DEPTH = 64;

/** Largest integer on the wire (2^53 - 1): every one fits a JavaScript number. */
export const MAX_SAFE_INT = Number.MAX_SAFE_INTEGER;

/** The subprotocol of an encoding, e.g. `packplay.v2.json`. */
export function subprotocol(/** @type {Encoding} */ encoding) {
  checkEncoding(encoding);
  return `packplay.v${PROTOCOL_VERSION}.${encoding}`;
}

/** Every subprotocol of this package, mapped to its encoding. */
export const SUBPROTOCOLS = Object.freeze({
  [`packplay.v${PROTOCOL_VERSION}.json`]: "json",
  [`packplay.v${PROTOCOL_VERSION}.msgpack`]: "msgpack",
});

/** Codes of `error` messages and REST problems (`ErrorCode` in errors.py). */
export const ErrorCode = Object.freeze({
  BAD_MESSAGE: "bad_message",
  UNKNOWN_TYPE: "unknown_type",
  FRAME_TOO_LARGE: "frame_too_large",
  UNSUPPORTED_VERSION: "unsupported_version",
  OUT_OF_ORDER: "out_of_order",
  UNAUTHORIZED: "unauthorized",
  FORBIDDEN: "forbidden",
  NOT_FOUND: "not_found",
  VALIDATION_FAILED: "validation_failed",
  BAD_CONFIG: "bad_config",
  GAME_FULL: "game_full",
  SEAT_TAKEN: "seat_taken",
  GAME_STARTED: "game_started",
  GAME_NOT_OVER: "game_not_over",
  SANDBOX_DISABLED: "sandbox_disabled",
  RATE_LIMITED: "rate_limited",
  TOO_MANY_LOBBIES: "too_many_lobbies",
  INVITE_REQUIRED: "invite_required",
  UNAVAILABLE: "unavailable",
  INTERNAL: "internal",
});

/** Reasons of `rejected` (`RejectReason` in errors.py). */
export const RejectReason = Object.freeze({
  STALE_VERSION: "stale_version",
  NOT_YOUR_TURN: "not_your_turn",
  ILLEGAL_ACTION: "illegal_action",
  GAME_OVER: "game_over",
  BAD_MESSAGE: "bad_message",
  DUPLICATE: "duplicate",
  UNAUTHORIZED: "unauthorized",
  NOT_FOUND: "not_found",
  NOT_STARTED: "not_started",
  RATE_LIMITED: "rate_limited",
  UNAVAILABLE: "unavailable",
});

/** WebSocket close codes of the server (`CloseCode` in errors.py). */
export const CloseCode = Object.freeze({
  NORMAL: 1000,
  GOING_AWAY: 1001,
  PROTOCOL_ERROR: 1002,
  MESSAGE_TOO_BIG: 1009,
  INTERNAL_ERROR: 1011,
  SERVICE_RESTART: 1012,
  TRY_AGAIN_LATER: 1013,
  RESUME_REQUIRED: 4000,
  UNAUTHORIZED: 4001,
  UNSUPPORTED_VERSION: 4002,
  BAD_MESSAGES: 4003,
  GAME_EXPIRED: 4004,
  RATE_LIMITED: 4005,
});

/**
 * Close codes after which a client should reconnect and resume: the server's
 * 1012 (service restart: the process is draining), 1013 (storage unavailable)
 * and 4000 (send queue overflowed), 1001 (going away, sent by older servers),
 * and 1006, which no server sends but a connection may end with (closed without
 * a close frame).
 */
export const RESUMABLE_CLOSE_CODES = Object.freeze([
  CloseCode.GOING_AWAY,
  1006,
  CloseCode.SERVICE_RESTART,
  CloseCode.TRY_AGAIN_LATER,
  CloseCode.RESUME_REQUIRED,
]);

// MessagePack frames carry no extension types: refuse them all, timestamps included.
const NO_EXTENSIONS = {
  tryToEncode: () => null,
  decode: (_data, type) => {
    throw new RangeError(`extension type ${type} is not part of the protocol`);
  },
};
const UNPACK_OPTIONS = {
  extensionCodec: NO_EXTENSIONS,
  mapKeyConverter: (key) => {
    if (typeof key !== "string") throw new RangeError(`map keys are strings, not ${typeof key}`);
    return key;
  },
};
const PACK_OPTIONS = { extensionCodec: NO_EXTENSIONS, ignoreUndefined: true };
const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * The frame of `message`: a JSON string (send it as a text frame) or MessagePack
 * bytes (a binary frame). Throws `TypeError` on a programming error: a value that
 * is not a message, or an unknown encoding.
 *
 * @param {Message} message
 * @param {Encoding} encoding
 * @returns {string | Uint8Array}
 */
export function encode(message, encoding) {
  checkEncoding(encoding);
  if (!isObject(message) || typeof message.type !== "string") {
    throw new TypeError("a message is an object with a string `type`");
  }
  return encoding === "json" ? JSON.stringify(message) : pack(message, PACK_OPTIONS);
}

/**
 * Read one frame sent in `direction` (by default, a frame the server sent).
 * Frames longer than `maxBytes` are refused unread.
 *
 * @param {string | ArrayBuffer | ArrayBufferView} frame  a text frame (JSON only) or bytes
 * @param {Encoding} encoding
 * @param {{direction?: Direction, maxBytes?: number}} [options]
 * @returns {Decoded}
 */
export function decode(frame, encoding, { direction = "to_client", maxBytes = DEFAULT_MAX_FRAME_BYTES } = {}) {
  checkEncoding(encoding);
  const specs = Object.hasOwn(SPECS, direction) ? SPECS[direction] : undefined;
  if (specs === undefined) throw new TypeError(`unknown direction ${String(direction)}`);
  try {
    const raw = frameValue(frame, encoding, maxBytes);
    if (!raw.ok) return raw;
    return checkMessage(raw.value, specs);
  } catch (exc) {
    // Unreachable by design; kept so that no frame can ever make decode throw.
    return failure("bad_message", `cannot decode: ${describe(exc)}`);
  }
}

/** The encoding of a negotiated subprotocol, or `undefined` for a name this package does not speak. */
export function encodingOf(/** @type {string} */ protocol) {
  return Object.hasOwn(SUBPROTOCOLS, protocol) ? SUBPROTOCOLS[protocol] : undefined;
}

/**
 * Whether `value` is a JSON-like object (not null, an array or bytes).
 * @param {unknown} value
 * @returns {value is Record<string, unknown>}
 */
export function isObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !ArrayBuffer.isView(value);
}

// ---------------------------------------------------------------- bytes to values

function frameValue(frame, encoding, maxBytes) {
  let text;
  if (typeof frame === "string") {
    if (encoding !== "json") return failure("bad_message", "msgpack frames must be binary");
    // UTF-8 takes at least one byte per UTF-16 code unit: long strings are too large.
    if (frame.length > maxBytes || utf8Length(frame) > maxBytes) return tooLarge(maxBytes);
    if (!isWellFormed(frame)) return failure("bad_message", "text frame is not valid UTF-8");
    text = frame;
  } else {
    const bytes = asBytes(frame);
    if (bytes === undefined) return failure("bad_message", "a frame is a string or bytes");
    if (bytes.byteLength > maxBytes) return tooLarge(maxBytes);
    if (encoding === "json") {
      try {
        text = UTF8.decode(bytes);
      } catch {
        return failure("bad_message", "not valid json: invalid UTF-8");
      }
    } else {
      try {
        return nested({ ok: true, value: unpack(bytes, UNPACK_OPTIONS) });
      } catch (exc) {
        return failure("bad_message", `not valid msgpack: ${describe(exc)}`);
      }
    }
  }
  try {
    return nested({ ok: true, value: JSON.parse(text) });
  } catch (exc) {
    return failure("bad_message", `not valid json: ${describe(exc)}`);
  }
}

function asBytes(frame) {
  if (frame instanceof ArrayBuffer) return new Uint8Array(frame);
  if (ArrayBuffer.isView(frame)) return new Uint8Array(frame.buffer, frame.byteOffset, frame.byteLength);
  return undefined;
}

/** Refuse values nested deeper than MAX_DEPTH, without recursing. */
function nested(result) {
  const stack = [[result.value, 1]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop();
    if (typeof value !== "object" || value === null || ArrayBuffer.isView(value)) continue;
    if (depth > MAX_DEPTH) return failure("bad_message", `nested deeper than ${MAX_DEPTH} levels`);
    for (const item of Array.isArray(value) ? value : Object.values(value)) stack.push([item, depth + 1]);
  }
  return result;
}

function utf8Length(text) {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
function isWellFormed(text) {
  return typeof text.isWellFormed === "function" ? text.isWellFormed() : !LONE_SURROGATE.test(text);
}

// ---------------------------------------------------------------- values to messages

/** A field that has no default: it must be present. */
const REQUIRED = Symbol("required");
/** An optional field that stays absent when absent (no default is filled in). */
const ABSENT = Symbol("absent");

class Invalid extends Error {}

function checkMessage(value, specs) {
  if (!isObject(value) || typeof value.type !== "string") {
    return failure("bad_message", "a message is an object with a string `type`");
  }
  const spec = Object.hasOwn(specs, value.type) ? specs[value.type] : undefined;
  if (spec === undefined) return failure("unknown_type", `unknown message type ${JSON.stringify(value.type.slice(0, 64))}`);
  try {
    return { ok: true, message: spec(value, "$") };
  } catch (exc) {
    if (!(exc instanceof Invalid)) throw exc;
    const actionId = value.type === "act" && typeof value.action_id === "string" ? value.action_id : null;
    return failure("bad_message", exc.message.slice(0, 500), actionId);
  }
}

function failure(code, message, actionId = null) {
  return { ok: false, error: { code, message, action_id: actionId } };
}

function tooLarge(maxBytes) {
  return failure("frame_too_large", `frame exceeds ${maxBytes} bytes`);
}

function describe(exc) {
  return exc instanceof Error ? exc.message : String(exc);
}

function kind(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (ArrayBuffer.isView(value)) return "bytes";
  if (typeof value === "number") return Number.isInteger(value) ? "int" : "float";
  if (typeof value === "string") return "str";
  if (typeof value === "boolean") return "bool";
  return typeof value;
}

function expected(what, value, path) {
  return new Invalid(`Expected \`${what}\`, got \`${kind(value)}\` - at \`${path}\``);
}

/** Length in code points, as Python counts a string's length. */
function codePoints(text) {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

// Checkers take a value and its path and return the value to keep, or throw Invalid.

const str =
  ({ min = 0, max = Infinity, pattern } = {}) =>
  (value, path) => {
    if (typeof value !== "string") throw expected("str", value, path);
    if (value.length > max || value.length < 2 * min) {
      const n = codePoints(value);
      if (n > max) throw new Invalid(`Expected \`str\` of length <= ${max} - at \`${path}\``);
      if (n < min) throw new Invalid(`Expected \`str\` of length >= ${min} - at \`${path}\``);
    }
    if (pattern !== undefined && !pattern.test(value)) {
      throw new Invalid(`Expected \`str\` matching regex ${JSON.stringify(pattern.source)} - at \`${path}\``);
    }
    return value;
  };

const int =
  ({ min = -MAX_SAFE_INT, max = MAX_SAFE_INT } = {}) =>
  (value, path) => {
    if (!Number.isInteger(value)) throw expected("int", value, path);
    if (!Number.isSafeInteger(value)) throw new Invalid(`Expected \`int\` within ±${MAX_SAFE_INT} - at \`${path}\``);
    if (value < min) throw new Invalid(`Expected \`int\` >= ${min} - at \`${path}\``);
    if (value > max) throw new Invalid(`Expected \`int\` <= ${max} - at \`${path}\``);
    return value;
  };

const positive = (value, path) => {
  if (typeof value !== "number" || !Number.isFinite(value)) throw expected("float", value, path);
  if (!(value > 0)) throw new Invalid(`Expected \`float\` > 0 - at \`${path}\``);
  return value;
};

const num = (value, path) => {
  if (typeof value !== "number" || !Number.isFinite(value)) throw expected("float", value, path);
  return value;
};

/** A moment in seconds since the Unix epoch (a turn clock's deadline). */
const deadline = (value, path) => {
  const checked = num(value, path);
  if (checked < 0) throw new Invalid(`Expected \`float\` >= 0 - at \`${path}\``);
  return checked;
};

const bool = (value, path) => {
  if (typeof value !== "boolean") throw expected("bool", value, path);
  return value;
};

const oneOf = (values) => (value, path) => {
  if (!values.includes(value)) {
    throw new Invalid(`Invalid enum value ${JSON.stringify(value)} - at \`${path}\``);
  }
  return value;
};

const nullable = (check) => (value, path) => (value === null ? null : check(value, path));

const list =
  (check, keep = () => true) =>
  (value, path) => {
    if (!Array.isArray(value)) throw expected("array", value, path);
    const out = [];
    value.forEach((item, i) => {
      const checked = check(item, `${path}[${i}]`);
      if (keep(checked)) out.push(checked);
    });
    return out;
  };

/** An object with `fields` ({name: [checker, default or REQUIRED]}); other fields are kept. */
function struct(fields, tag) {
  const checker = (value, path) => {
    if (!isObject(value)) throw expected("object", value, path);
    const out = { ...value };
    if (tag !== undefined && value.type !== undefined && value.type !== tag) {
      throw new Invalid(`Invalid value ${JSON.stringify(value.type)} - at \`${path}.type\``);
    }
    for (const [name, [check, fallback]] of Object.entries(fields)) {
      if (Object.hasOwn(value, name)) out[name] = check(value[name], `${path}.${name}`);
      else if (fallback === REQUIRED) throw new Invalid(`Object missing required field \`${name}\` - at \`${path}\``);
      else if (fallback !== ABSENT) out[name] = structuredClone(fallback);
    }
    return out;
  };
  checker.fields = fields;
  return checker;
}

/** A game payload: an object with a string `type`, of one of `known` when given. */
const payload = (known) => (value, path) => {
  if (!isObject(value)) throw expected("object", value, path);
  if (typeof value.type !== "string") throw expected("str", value.type, `${path}.type`);
  if (known !== undefined && !known.has(value.type)) {
    throw new Invalid(`Invalid value ${JSON.stringify(value.type.slice(0, 64))} - at \`${path}.type\``);
  }
  return value;
};

/** An event: unknown types are dropped by `list`, so this only needs an object. */
const event = (value, path) => {
  if (!isObject(value)) throw expected("object", value, path);
  return value;
};
const knownEvent = (value) => EVENT_TYPES.has(value.type);

/** An object used as a map: every key and every value checked. */
const mapOf = (checkKey, checkValue) => (value, path) => {
  if (!isObject(value)) throw expected("object", value, path);
  const out = {};
  for (const [key, item] of Object.entries(value)) {
    checkKey(key, `key ${JSON.stringify(key.slice(0, 64))} in ${path}`);
    // defineProperty: a key named __proto__ stays a key.
    Object.defineProperty(out, key, {
      value: checkValue(item, `${path}[${JSON.stringify(key.slice(0, 64))}]`),
      writable: true,
      enumerable: true,
      configurable: true,
    });
  }
  return out;
};

/** Any JSON value (its nesting is bounded by MAX_DEPTH already). */
const anything = (value) => value;

const req = (check) => [check, REQUIRED];
const opt = (check, fallback) => [check, fallback];

const gameId = str({ min: 1, max: 64, pattern: /^[A-Za-z0-9_-]+$/ });
const gameName = str({ max: 40, pattern: /^[a-z][a-z0-9_]*$/ });
const actionId = str({ min: 1, max: 64 });
const version = int({ min: 0 });
const seat = int({ min: 0, max: 15 });
const text = str({ max: 2000 });
const playerName = str({ min: 1, max: 40 });
const strings = list(str());

const limits = struct({
  max_frame_bytes: opt(int({ min: 1 }), DEFAULT_MAX_FRAME_BYTES),
  actions_per_second: opt(positive, 10.0),
  action_burst: opt(int({ min: 1 }), 20),
  frames_per_second: opt(positive, 30.0),
  frame_burst: opt(int({ min: 1 }), 60),
  resumes_per_minute: opt(positive, 120.0),
  catch_up_versions: opt(int({ min: 0 }), 256),
  hello_timeout_seconds: opt(positive, 10.0),
  ping_interval_seconds: opt(positive, 20.0),
  send_queue: opt(int({ min: 1 }), 256),
});

const tournamentId = str({ min: 1, max: 64, pattern: /^[A-Za-z0-9_-]+$/ });
const playerId = tournamentId;
const share = (value, path) => {
  const checked = num(value, path);
  if (checked < 0 || checked > 1) throw new Invalid(`Expected \`float\` within [0, 1] - at \`${path}\``);
  return checked;
};
const tableSeat = struct({ seat: req(seat), player_id: req(playerId), name: req(str({ min: 1, max: 40 })) });
const pairedTable = struct({
  table: req(int({ min: 1 })),
  game_id: opt(nullable(gameId), null),
  seats: req(list(tableSeat)),
  result: opt(
    nullable(struct({ winners: req(list(playerId)), draw: req(bool), scores: req(list(num)) })),
    null,
  ),
});
const standingLine = struct({
  rank: req(int({ min: 1 })),
  player_id: req(playerId),
  name: req(str({ min: 1, max: 40 })),
  match_points: req(int({ min: 0 })),
  wins: req(int({ min: 0 })),
  draws: req(int({ min: 0 })),
  losses: req(int({ min: 0 })),
  byes: req(int({ min: 0 })),
  match_win: req(share),
  opponents_match_win: req(share),
  game_win: req(share),
  opponents_game_win: req(share),
  dropped: opt(bool, false),
});

const gameResult = struct({
  winners: req(list(int())),
  draw: req(bool),
  scores: req(list(num)),
  reason: req(str({ max: 40, pattern: /^[a-z][a-z0-9_]*$/ })),
  reason_text: req(str()),
});

const chooseCards = struct(
  {
    template: req(payload()),
    field: req(str()),
    options: req(strings),
    min_count: req(int()),
    max_count: req(int()),
    ordered: opt(bool, false),
    single: opt(bool, false),
  },
  "choose_cards",
);

const legal = struct({
  actions: opt(list(payload()), []),
  choices: opt(list(chooseCards), []),
});

const strs = (fallback) => opt(strings, fallback);
const cardInstance = struct({
  set: req(str()),
  number: req(str()),
  name: req(str()),
  rarity: req(oneOf(["common", "mythic", "rare", "special", "uncommon"])),
  layout: opt(str(), "normal"),
  colors: opt(list(oneOf(["B", "G", "R", "U", "W"])), []),
  mana_value: opt(num, 0),
  type_line: opt(str(), ""),
  supertypes: strs([]),
  types: strs([]),
  subtypes: strs([]),
  power: opt(nullable(str()), null),
  toughness: opt(nullable(str()), null),
  loyalty: opt(nullable(str()), null),
  basic_land: opt(bool, false),
  id: req(str()),
  foil: opt(bool, false),
  magic_back: opt(bool, true),
});
const cardTable = mapOf(str({ min: 1, max: 64 }), cardInstance);

const patchOp = struct({
  op: req(oneOf(PATCH_OPS)),
  path: req(str()),
  value: opt(anything, ABSENT),
});

/** Each message type of each direction, as a checker of the whole message. */
const SPECS = {
  from_client: {
    hello: struct({ client: opt(str({ max: 100 }), ""), token: opt(nullable(str({ min: 16, max: 256 })), null) }),
    join: struct({
      game_id: req(gameId),
      role: opt(oneOf(["player", "spectator"]), "player"),
      from_version: opt(nullable(version), null),
    }),
    act: struct({ action_id: req(actionId), version: req(version), action: req(payload(ACTION_TYPES)) }),
    resume: struct({ from_version: req(version) }),
    ping: struct({ nonce: opt(str({ max: 64 }), "") }),
    follow: struct({
      tournament_id: req(tournamentId),
      secret: opt(nullable(str({ min: 16, max: 256 })), null),
      watch: opt(bool, false),
    }),
    // The create-game body is the REST one: the server checks it whole.
    create: struct({
      setup: req(struct({ game: req(gameName), players: req(int({ min: 1, max: 16 })) })),
      name: req(playerName),
      seat: opt(nullable(seat), null),
    }),
    take_seat: struct({
      game_id: req(gameId),
      name: req(playerName),
      seat: opt(nullable(seat), null),
      invite: opt(nullable(str({ min: 1, max: 64, pattern: /^[A-Za-z0-9_-]+$/ })), null),
    }),
    rematch: struct({}),
  },
  to_client: {
    welcome: struct({
      server: req(str()),
      protocol: req(str()),
      versions: req(strings),
      limits: req(limits),
      game_id: opt(nullable(gameId), null),
      seat: opt(nullable(seat), null),
    }),
    view: struct({
      game_id: req(gameId),
      game: req(gameName),
      version: req(version),
      seat: req(nullable(seat)),
      pending: req(list(seat)),
      legal: req(legal),
      deadlines: opt(nullable(list(nullable(deadline))), null),
      result: opt(nullable(gameResult), null),
      seed: opt(nullable(version), null),
      view: req(payload()),
      cards: opt(cardTable, {}),
    }),
    update: struct({
      game_id: req(gameId),
      version: req(version),
      events: opt(list(event, knownEvent), []),
      patch: opt(list(patchOp), []),
      action_id: opt(nullable(actionId), null),
    }),
    events: struct({
      game_id: req(gameId),
      from_version: req(version),
      to_version: req(version),
      events: req(list(event, knownEvent)),
    }),
    accepted: struct({ action_id: req(actionId), version: req(version) }),
    rejected: struct({
      action_id: req(actionId),
      reason: req(oneOf(Object.values(RejectReason))),
      rule: opt(nullable(str()), null),
      message: req(text),
      version: req(version),
    }),
    game_over: struct({ game_id: req(gameId), result: req(gameResult), replay_url: req(str()) }),
    error: struct({
      code: req(oneOf(Object.values(ErrorCode))),
      message: req(text),
      fatal: opt(bool, false),
      spoken: opt(strings, []),
    }),
    pong: struct({ nonce: opt(str(), "") }),
    tournament_table: struct({
      tournament_id: req(tournamentId),
      player_id: req(playerId),
      status: req(oneOf(["registered", "playing", "waiting", "bye", "dropped", "finished"])),
      round: req(int({ min: 0, max: 64 })),
      table: opt(nullable(int({ min: 1 })), null),
      game_id: opt(nullable(gameId), null),
      seat: opt(nullable(seat), null),
      token: opt(nullable(str({ min: 16, max: 256 })), null),
    }),
    seated: struct({
      game_id: req(gameId),
      seat: req(seat),
      token: req(str({ min: 16, max: 256 })),
      started: req(bool),
      invite: opt(nullable(str({ max: 64 })), null),
    }),
    tournament_round: struct({
      tournament_id: req(tournamentId),
      round: req(int({ min: 1, max: 64 })),
      tables: req(list(pairedTable)),
      byes: opt(list(tableSeat), []),
      complete: req(bool),
    }),
    tournament_standings: struct({
      tournament_id: req(tournamentId),
      round: req(int({ min: 0, max: 64 })),
      complete_rounds: req(int({ min: 0, max: 64 })),
      final: req(bool),
      lines: req(list(standingLine)),
    }),
  },
};

const STRUCTS = {
  Limits: limits,
  GameResult: gameResult,
  ChooseCards: chooseCards,
  LegalActions: legal,
  CardInstance: cardInstance,
  PatchOp: patchOp,
};

/**
 * A card of a view's `cards` table with every field: the wire leaves out the fields at
 * their default (`layout` "normal", no `colors`, `power` null, ...), and a card that
 * arrives inside an update's patch is not decoded with its message. Throws a
 * `TypeError` when the value is not a card.
 *
 * @param {unknown} value
 * @returns {import("./protocol.js").CardInstance}
 */
export function completeCard(value) {
  try {
    return /** @type {any} */ (cardInstance(value, "$"));
  } catch (error) {
    if (error instanceof Invalid) throw new TypeError(error.message);
    throw error;
  }
}

/**
 * The fields this codec knows of a message type, split by whether they are
 * required (for tests comparing the codec with the protocol's schemas).
 *
 * @param {Direction} direction
 * @param {string} type
 * @returns {{required: string[], optional: string[]} | undefined}
 */
export function messageFields(direction, type) {
  const specs = Object.hasOwn(SPECS, direction) ? SPECS[direction] : {};
  if (!Object.hasOwn(specs, type)) return undefined;
  const fields = splitFields(specs[type]);
  return { required: ["type", ...fields.required], optional: fields.optional };
}

/**
 * The same for the structs inside messages: `Limits`, `GameResult`,
 * `ChooseCards` (whose `type` tag may be absent), `LegalActions`, `CardInstance`
 * and `PatchOp`.
 *
 * @param {string} name
 * @returns {{required: string[], optional: string[]} | undefined}
 */
export function structFields(name) {
  return Object.hasOwn(STRUCTS, name) ? splitFields(STRUCTS[name]) : undefined;
}

function splitFields(checker) {
  const entries = Object.entries(checker.fields);
  return {
    required: entries.filter(([, [, d]]) => d === REQUIRED).map(([name]) => name),
    optional: entries.filter(([, [, d]]) => d !== REQUIRED).map(([name]) => name),
  };
}

function checkEncoding(encoding) {
  if (encoding !== "json" && encoding !== "msgpack") throw new TypeError(`unknown encoding ${String(encoding)}`);
}
