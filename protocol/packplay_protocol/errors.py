"""Closed sets of reasons and codes, and the value a failed decode returns.

Rejections and errors are data sent to the client, never silence. These sets are
closed for a protocol version: a new member needs a new version, so a client can
handle every value it may receive.
"""

from __future__ import annotations

from enum import IntEnum, StrEnum

import msgspec


class RejectReason(StrEnum):
    """Why an `act` was refused. Sent in `rejected` with the game's current version."""

    STALE_VERSION = "stale_version"
    """The action was computed on an older version; fetch the view and decide again."""
    NOT_YOUR_TURN = "not_your_turn"
    """Nothing is pending for the acting seat."""
    ILLEGAL_ACTION = "illegal_action"
    """The rules refuse the action; `rule` names the ruling."""
    GAME_OVER = "game_over"
    """The game has ended."""
    BAD_MESSAGE = "bad_message"
    """The action does not decode as an action of this game."""
    DUPLICATE = "duplicate"
    """The action id was already used for a different action."""
    UNAUTHORIZED = "unauthorized"
    """The connection holds no seat in this game (spectators cannot act)."""
    NOT_FOUND = "not_found"
    """The connection has not joined a game, or the game is gone."""
    NOT_STARTED = "not_started"
    """The game is still waiting for players."""
    RATE_LIMITED = "rate_limited"
    """Too many actions; slow down and retry with the same action id."""
    UNAVAILABLE = "unavailable"
    """The server could not reach its storage in time; retry with the same action id."""


class ErrorCode(StrEnum):
    """Stable codes of `error` messages (WebSocket) and problem documents (REST)."""

    BAD_MESSAGE = "bad_message"
    """The frame is not a valid message (bad bytes, wrong field type, missing field)."""
    UNKNOWN_TYPE = "unknown_type"
    """The frame's `type` names no message of this direction."""
    FRAME_TOO_LARGE = "frame_too_large"
    """A REST request body exceeds `limits.max_frame_bytes` (a WebSocket frame that does
    closes the connection with 1009)."""
    UNSUPPORTED_VERSION = "unsupported_version"
    """No offered subprotocol is spoken by this server."""
    OUT_OF_ORDER = "out_of_order"
    """The message is not valid now (e.g. `act` before `join`, a second `hello`)."""
    UNAUTHORIZED = "unauthorized"
    """The token is missing, unknown or not valid for this game."""
    FORBIDDEN = "forbidden"
    """The caller is known but may not do this."""
    NOT_FOUND = "not_found"
    """No such game (or route)."""
    VALIDATION_FAILED = "validation_failed"
    """A REST request body or parameter is invalid."""
    BAD_CONFIG = "bad_config"
    """The game cannot be set up as asked (player count, unknown set, option)."""
    GAME_FULL = "game_full"
    """Every seat of the game is taken."""
    SEAT_TAKEN = "seat_taken"
    """The requested seat is taken."""
    GAME_STARTED = "game_started"
    """The game has started: seats can no longer be joined or left."""
    GAME_NOT_OVER = "game_not_over"
    """The replay exists only once the game is over."""
    SANDBOX_DISABLED = "sandbox_disabled"
    """Explicit boosters and seeds need a server started in sandbox mode."""
    RATE_LIMITED = "rate_limited"
    """Too many requests or messages."""
    UNAVAILABLE = "unavailable"
    """The server cannot serve now (storage down, shutting down); retry later."""
    INTERNAL = "internal"
    """A server bug; the message carries an id to report."""


class CloseCode(IntEnum):
    """WebSocket close codes the server uses (4000-4999 are Packplay's own)."""

    NORMAL = 1000
    GOING_AWAY = 1001
    """Reconnect (to any process) and resume. Servers before drain on SIGTERM sent it when
    stopping; this one sends 1012 instead, and clients still resume after either."""
    PROTOCOL_ERROR = 1002
    MESSAGE_TOO_BIG = 1009
    """A frame exceeded `limits.max_frame_bytes`; it was not read."""
    INTERNAL_ERROR = 1011
    SERVICE_RESTART = 1012
    """The server process is draining (it was told to stop, for a restart or a scale-down):
    reconnect, to any process, and resume. Sent once the answer of the action under way,
    if any, has gone out."""
    TRY_AGAIN_LATER = 1013
    """The server cannot reach its storage now; reconnect in a moment."""
    RESUME_REQUIRED = 4000
    """The client fell behind (its send queue overflowed): reconnect and resume."""
    UNAUTHORIZED = 4001
    """Authentication failed or timed out; do not retry with the same token."""
    UNSUPPORTED_VERSION = 4002
    """No offered subprotocol is spoken; the closing `error` lists what is."""
    BAD_MESSAGES = 4003
    """Too many undecodable frames."""
    GAME_EXPIRED = 4004
    """The game no longer exists."""


class DecodeError(msgspec.Struct, frozen=True, kw_only=True):
    """Why a frame did not decode. Returned by the codec, never raised.

    `action_id` is set when the frame looked like an `act` with a readable id,
    so the server can answer with `rejected` for that action.
    """

    code: ErrorCode
    message: str
    action_id: str | None = None
