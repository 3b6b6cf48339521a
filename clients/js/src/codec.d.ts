import type {
  CardInstance,
  ClientMessage,
  ErrorCode as ErrorCodeName, RejectReason as RejectReasonName, ServerMessage } from "./protocol.js";

/** A wire encoding: JSON text frames or MessagePack binary frames. */
export type Encoding = "json" | "msgpack";
/** Which side sent a frame. */
export type Direction = "from_client" | "to_client";
/** Any message: an object with a string `type` (unknown fields are kept). */
export interface Message {
  type: string;
  [field: string]: unknown;
}
/** Why a frame did not decode; `action_id` is set when the frame looked like an `act` with a readable id. */
export interface DecodeError {
  code: "bad_message" | "unknown_type" | "frame_too_large";
  message: string;
  action_id: string | null;
}
export type Decoded<M = ServerMessage> = { ok: true; message: M } | { ok: false; error: DecodeError };

export const DEFAULT_MAX_FRAME_BYTES: number;
export const MAX_DEPTH: number;
export const MAX_SAFE_INT: number;
export function subprotocol(encoding: Encoding): string;
export const SUBPROTOCOLS: Readonly<Record<string, Encoding>>;
export const ErrorCode: Readonly<{
  BAD_MESSAGE: "bad_message";
  UNKNOWN_TYPE: "unknown_type";
  FRAME_TOO_LARGE: "frame_too_large";
  UNSUPPORTED_VERSION: "unsupported_version";
  OUT_OF_ORDER: "out_of_order";
  UNAUTHORIZED: "unauthorized";
  FORBIDDEN: "forbidden";
  NOT_FOUND: "not_found";
  VALIDATION_FAILED: "validation_failed";
  BAD_CONFIG: "bad_config";
  GAME_FULL: "game_full";
  SEAT_TAKEN: "seat_taken";
  GAME_STARTED: "game_started";
  GAME_NOT_OVER: "game_not_over";
  SANDBOX_DISABLED: "sandbox_disabled";
  RATE_LIMITED: "rate_limited";
  UNAVAILABLE: "unavailable";
  INTERNAL: "internal";
}>;
/** A code of `error` messages and REST problems. */
export type ErrorCode = ErrorCodeName;
/** A reason of `rejected`. */
export type RejectReason = RejectReasonName;
export const RejectReason: Readonly<{
  STALE_VERSION: "stale_version";
  NOT_YOUR_TURN: "not_your_turn";
  ILLEGAL_ACTION: "illegal_action";
  GAME_OVER: "game_over";
  BAD_MESSAGE: "bad_message";
  DUPLICATE: "duplicate";
  UNAUTHORIZED: "unauthorized";
  NOT_FOUND: "not_found";
  NOT_STARTED: "not_started";
  RATE_LIMITED: "rate_limited";
  UNAVAILABLE: "unavailable";
}>;
export const CloseCode: Readonly<{
  NORMAL: 1000;
  GOING_AWAY: 1001;
  PROTOCOL_ERROR: 1002;
  MESSAGE_TOO_BIG: 1009;
  INTERNAL_ERROR: 1011;
  SERVICE_RESTART: 1012;
  TRY_AGAIN_LATER: 1013;
  RESUME_REQUIRED: 4000;
  UNAUTHORIZED: 4001;
  UNSUPPORTED_VERSION: 4002;
  BAD_MESSAGES: 4003;
  GAME_EXPIRED: 4004;
}>;
/** Close codes after which to reconnect and resume: 1001, 1006, 1012, 1013, 4000. */
export const RESUMABLE_CLOSE_CODES: readonly number[];

/** The frame of a message: a JSON string (a text frame) or MessagePack bytes (a binary frame). */
export function encode(message: ClientMessage | Message, encoding: Encoding): string | Uint8Array;
/** Read one frame; never throws on a frame. */
export function decode(
  frame: string | ArrayBuffer | ArrayBufferView,
  encoding: Encoding,
  options?: { direction?: "to_client"; maxBytes?: number },
): Decoded<ServerMessage>;
export function decode(
  frame: string | ArrayBuffer | ArrayBufferView,
  encoding: Encoding,
  options: { direction: "from_client"; maxBytes?: number },
): Decoded<ClientMessage>;
/** The encoding of a subprotocol, or null for one this package does not speak. */
export function encodingOf(protocol: string): Encoding | null;
export function isObject(value: unknown): value is Record<string, unknown>;
export function messageFields(direction: Direction, type: string): { required: string[]; optional: string[] } | undefined;
export function completeCard(value: unknown): CardInstance;
export function structFields(name: string): { required: string[]; optional: string[] } | undefined;
