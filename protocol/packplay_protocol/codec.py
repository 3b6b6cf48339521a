"""The only code that knows JSON from MessagePack.

``encode`` writes any protocol message; ``decode`` reads one frame and is total:
whatever the bytes, it returns a message or a :class:`DecodeError`, never raises.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal, overload

import msgpack
import msgspec

from packplay_protocol.catalog import EVENT_TYPES, tag_of
from packplay_protocol.errors import DecodeError, ErrorCode
from packplay_protocol.from_client import CLIENT_MESSAGES, ClientMessage
from packplay_protocol.limits import DEFAULT_MAX_FRAME_BYTES
from packplay_protocol.to_client import SERVER_MESSAGES, ServerMessage
from packplay_protocol.version import Encoding

Message = ClientMessage | ServerMessage


class Direction(StrEnum):
    """Who sends the frame: it decides which messages are valid."""

    FROM_CLIENT = "from_client"
    TO_CLIENT = "to_client"


class _Probe(msgspec.Struct):
    """What can be read from a frame that failed to decode, to explain the failure."""

    type: Any = None
    action_id: Any = None


_BYTE_FAILURES = (msgspec.DecodeError, ValueError, TypeError, RecursionError, OverflowError)
_SHAPE_FAILURES = (msgspec.ValidationError, RecursionError, OverflowError)
_JSON_ENCODER = msgspec.json.Encoder()
# msgspec writes the same MessagePack as msgpack.packb of the plain form (maps, arrays,
# str, int, float64, nil, bool; no extension types in any message), only faster.
_MSGPACK_ENCODER = msgspec.msgpack.Encoder()
_DECODERS: dict[Direction, msgspec.json.Decoder[Any]] = {
    Direction.FROM_CLIENT: msgspec.json.Decoder(ClientMessage),
    Direction.TO_CLIENT: msgspec.json.Decoder(ServerMessage),
}
_TYPES: dict[Direction, Any] = {Direction.FROM_CLIENT: ClientMessage, Direction.TO_CLIENT: ServerMessage}
_TAGS: dict[Direction, frozenset[str]] = {
    Direction.FROM_CLIENT: frozenset(filter(None, map(tag_of, CLIENT_MESSAGES))),
    Direction.TO_CLIENT: frozenset(filter(None, map(tag_of, SERVER_MESSAGES))),
}
_EVENT_TAGS = frozenset(filter(None, map(tag_of, EVENT_TYPES)))


def encode(message: Message, encoding: Encoding) -> bytes:
    """The frame of ``message``: UTF-8 JSON text or MessagePack bytes."""
    if encoding is Encoding.JSON:
        return _JSON_ENCODER.encode(message)
    return _MSGPACK_ENCODER.encode(message)


def encode_plain(message: dict[str, Any], encoding: Encoding) -> bytes:
    """The frame of a message already in plain form (objects, arrays, strings, numbers)."""
    if encoding is Encoding.JSON:
        return _JSON_ENCODER.encode(message)
    return _MSGPACK_ENCODER.encode(message)


@overload
def decode(
    data: bytes | str,
    encoding: Encoding,
    direction: Literal[Direction.FROM_CLIENT],
    *,
    max_bytes: int = ...,
) -> ClientMessage | DecodeError: ...


@overload
def decode(
    data: bytes | str,
    encoding: Encoding,
    direction: Literal[Direction.TO_CLIENT],
    *,
    max_bytes: int = ...,
) -> ServerMessage | DecodeError: ...


@overload
def decode(
    data: bytes | str,
    encoding: Encoding,
    direction: Direction,
    *,
    max_bytes: int = ...,
) -> Message | DecodeError: ...


def decode(
    data: bytes | str,
    encoding: Encoding,
    direction: Direction,
    *,
    max_bytes: int = DEFAULT_MAX_FRAME_BYTES,
) -> Message | DecodeError:
    """Read one frame sent in ``direction``.

    Frames longer than ``max_bytes`` are refused unread. Unknown fields are ignored;
    towards the client, events of unknown types are dropped (forward compatibility).
    """
    raw = _frame_bytes(data, encoding, max_bytes)
    if isinstance(raw, DecodeError):
        return raw
    if encoding is Encoding.JSON:
        try:
            fast: Message = _DECODERS[direction].decode(raw)
            return fast
        except _BYTE_FAILURES:
            pass  # decoded again below, to tell what is wrong
    try:
        obj = _builtins(raw, encoding)
    except _BYTE_FAILURES as exc:
        return DecodeError(code=ErrorCode.BAD_MESSAGE, message=f"not valid {encoding.value}: {exc}")
    try:
        message: Message = msgspec.convert(obj, _TYPES[direction])
    except _SHAPE_FAILURES as exc:
        return _retry_or_explain(obj, direction, exc)
    return message


def decode_client(
    data: bytes | str, encoding: Encoding, *, max_bytes: int = DEFAULT_MAX_FRAME_BYTES
) -> ClientMessage | DecodeError:
    """``decode`` for frames a client sent (the server's side)."""
    return decode(data, encoding, Direction.FROM_CLIENT, max_bytes=max_bytes)


def decode_server(
    data: bytes | str, encoding: Encoding, *, max_bytes: int = DEFAULT_MAX_FRAME_BYTES
) -> ServerMessage | DecodeError:
    """``decode`` for frames the server sent (a client's side)."""
    return decode(data, encoding, Direction.TO_CLIENT, max_bytes=max_bytes)


def decode_plain(data: bytes | str, encoding: Encoding, *, max_bytes: int = DEFAULT_MAX_FRAME_BYTES) -> Any:
    """A frame as plain data (objects, arrays, strings, numbers), unknown fields kept.

    Clients that patch their copy of a view keep it in this form, so that a field a
    newer server adds is patched like any other. Returns a :class:`DecodeError` for
    bytes that are not one value of ``encoding``.
    """
    raw = _frame_bytes(data, encoding, max_bytes)
    if isinstance(raw, DecodeError):
        return raw
    try:
        return _builtins(raw, encoding)
    except _BYTE_FAILURES as exc:
        return DecodeError(code=ErrorCode.BAD_MESSAGE, message=f"not valid {encoding.value}: {exc}")


def _frame_bytes(data: bytes | str, encoding: Encoding, max_bytes: int) -> bytes | DecodeError:
    if isinstance(data, str):
        if encoding is not Encoding.JSON:
            return DecodeError(code=ErrorCode.BAD_MESSAGE, message="msgpack frames must be binary")
        if len(data) > max_bytes:
            return _too_large(max_bytes)
        try:
            data = data.encode("utf-8")
        except UnicodeEncodeError:
            return DecodeError(code=ErrorCode.BAD_MESSAGE, message="text frame is not valid UTF-8")
    if len(data) > max_bytes:
        return _too_large(max_bytes)
    return data


def _too_large(max_bytes: int) -> DecodeError:
    return DecodeError(code=ErrorCode.FRAME_TOO_LARGE, message=f"frame exceeds {max_bytes} bytes")


def _builtins(raw: bytes, encoding: Encoding) -> Any:
    if encoding is Encoding.JSON:
        return msgspec.json.decode(raw)
    decoded = msgpack.unpackb(raw, raw=False, strict_map_key=True, timestamp=0, ext_hook=_refuse_ext)
    _refuse_timestamps(decoded)
    return decoded


def _refuse_ext(code: int, data: bytes) -> Any:
    raise ValueError(f"extension type {code} is not part of the protocol")


def _refuse_timestamps(value: Any) -> None:
    """The timestamp extension (type -1) is decoded by msgpack itself, never through
    ``ext_hook``: refuse it like any other extension type."""
    if isinstance(value, msgpack.Timestamp):
        _refuse_ext(-1, b"")
    elif isinstance(value, dict):
        for item in value.values():
            _refuse_timestamps(item)
    elif isinstance(value, list):
        for item in value:
            _refuse_timestamps(item)


def _retry_or_explain(obj: Any, direction: Direction, exc: Exception) -> Message | DecodeError:
    if direction is Direction.TO_CLIENT and _probe(obj).type == "events":
        known = _without_unknown_events(obj)
        if known is not obj:
            try:
                message: Message = msgspec.convert(known, _TYPES[direction])
                return message
            except _SHAPE_FAILURES:
                pass
    return _explain(obj, direction, exc)


def _without_unknown_events(obj: Any) -> Any:
    events = obj.get("events") if isinstance(obj, dict) else None
    if not isinstance(events, list):
        return obj
    kept = [e for e in events if not (isinstance(e, dict) and _unknown_event(e.get("type")))]
    return obj if len(kept) == len(events) else {**obj, "events": kept}


def _unknown_event(tag: Any) -> bool:
    """An event type this release does not know (dropped); a type that is no string is no
    event at all, and is left for the conversion to refuse."""
    return isinstance(tag, str) and tag not in _EVENT_TAGS


def _explain(obj: Any, direction: Direction, exc: Exception) -> DecodeError:
    probe = _probe(obj)
    if not isinstance(probe.type, str):
        return DecodeError(code=ErrorCode.BAD_MESSAGE, message="a message is an object with a string `type`")
    if probe.type not in _TAGS[direction]:
        return DecodeError(code=ErrorCode.UNKNOWN_TYPE, message=f"unknown message type {probe.type[:64]!r}")
    action_id = probe.action_id if isinstance(probe.action_id, str) and probe.type == "act" else None
    return DecodeError(code=ErrorCode.BAD_MESSAGE, message=str(exc)[:500], action_id=action_id)


def _probe(obj: Any) -> _Probe:
    if not isinstance(obj, dict):
        return _Probe()
    return _Probe(type=obj.get("type"), action_id=obj.get("action_id"))
