"""Conformance vectors: each example message as a logical value, JSON bytes and MessagePack bytes.

A conforming implementation decodes ``json`` and ``msgpack_hex`` to ``message``,
and its own encoding of ``message`` decodes back to ``message``. Byte-for-byte
equality with these encodings is not required (key order and number widths may
differ); equality of the decoded values is. ``message`` holds every field, those at
their default included; the encodings leave out what the wire leaves out (a card's
fields at their default), which a decoder reads as the default.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from packplay_protocol import codec
from packplay_protocol.catalog import tag_of
from packplay_protocol.codec import Direction
from packplay_protocol.errors import ErrorCode
from packplay_protocol.version import Encoding

import examples


class Case(msgspec.Struct, frozen=True, kw_only=True):
    """One example message in its logical form and both encodings."""

    name: str
    message: Any
    json: str
    msgpack_hex: str


class VectorFile(msgspec.Struct, frozen=True, kw_only=True):
    """Every case of one message type."""

    direction: Direction
    type: str
    schema: str
    cases: tuple[Case, ...]


class InvalidCase(msgspec.Struct, frozen=True, kw_only=True):
    """A frame a receiver must refuse with ``code`` (and never crash on)."""

    name: str
    direction: Direction
    encoding: Encoding
    frame_hex: str
    code: ErrorCode


def case(name: str, message: Any) -> Case:
    """The vector of one message."""
    return Case(
        name=name,
        message=complete(message),
        json=codec.encode(message, Encoding.JSON).decode("utf-8"),
        msgpack_hex=codec.encode(message, Encoding.MSGPACK).hex(),
    )


def complete(value: Any) -> Any:
    """``value`` as JSON-like builtins with every field of every struct, defaults included
    (fields left unset, such as a patch operation's absent ``value``, stay out)."""
    if isinstance(value, msgspec.Struct):
        config = value.__struct_config__
        out: dict[str, Any] = {}
        if config.tag_field is not None:
            out[config.tag_field] = config.tag
        for name, wire in zip(value.__struct_fields__, value.__struct_encode_fields__, strict=True):
            field = getattr(value, name)
            if field is not msgspec.UNSET:
                out[wire] = complete(field)
        return out
    if isinstance(value, dict):
        return {key: complete(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [complete(item) for item in value]
    return msgspec.to_builtins(value)


def vector_files() -> dict[str, VectorFile]:
    """Vector files by path relative to ``protocol/vectors``."""
    files: dict[str, VectorFile] = {}
    for direction, named in (
        (Direction.FROM_CLIENT, examples.client_examples()),
        (Direction.TO_CLIENT, examples.server_examples()),
    ):
        files |= _by_type(direction, named)
    return files


def _by_type(direction: Direction, named: Mapping[str, Any]) -> dict[str, VectorFile]:
    grouped: dict[str, list[Case]] = {}
    for name, message in named.items():
        kind = tag_of(type(message)) or name.split("/", 1)[0]
        grouped.setdefault(kind, []).append(case(name.split("/", 1)[1], message))
    return {
        f"{direction.value}/{kind}.json": VectorFile(
            direction=direction,
            type=kind,
            schema=f"../../schema/v2/{direction.value}/{kind}.json",
            cases=tuple(cases),
        )
        for kind, cases in grouped.items()
    }


def invalid_cases() -> tuple[InvalidCase, ...]:
    """Frames the server must answer with an ``error`` (or ``rejected``) of the given code."""
    raw: list[tuple[str, Encoding, bytes, ErrorCode]] = [
        ("truncated_json", Encoding.JSON, b'{"type":"ping"', ErrorCode.BAD_MESSAGE),
        ("not_an_object", Encoding.JSON, b"[1,2,3]", ErrorCode.BAD_MESSAGE),
        ("invalid_utf8", Encoding.JSON, b'{"type":"ping","nonce":"\xff"}', ErrorCode.BAD_MESSAGE),
        ("unknown_type", Encoding.JSON, b'{"type":"shout"}', ErrorCode.UNKNOWN_TYPE),
        ("server_type_from_client", Encoding.JSON, b'{"type":"pong","nonce":""}', ErrorCode.UNKNOWN_TYPE),
        (
            "wrong_field_type",
            Encoding.JSON,
            b'{"type":"act","action_id":"a-1","version":"7","action":{"type":"wedding_planner.draw"}}',
            ErrorCode.BAD_MESSAGE,
        ),
        (
            "unknown_action",
            Encoding.JSON,
            b'{"type":"act","action_id":"a-2","version":7,"action":{"type":"chess.move"}}',
            ErrorCode.BAD_MESSAGE,
        ),
        ("missing_field", Encoding.JSON, b'{"type":"join"}', ErrorCode.BAD_MESSAGE),
        ("reserved_msgpack_byte", Encoding.MSGPACK, b"\xc1", ErrorCode.BAD_MESSAGE),
        ("msgpack_extension", Encoding.MSGPACK, b"\x81\xa4type\xd4\x05\x00", ErrorCode.BAD_MESSAGE),
        ("msgpack_trailing_bytes", Encoding.MSGPACK, b"\x81\xa4type\xa4ping\x00", ErrorCode.BAD_MESSAGE),
        ("msgpack_nesting_bomb", Encoding.MSGPACK, b"\x91" * 5000 + b"\xc0", ErrorCode.BAD_MESSAGE),
        ("json_nesting_bomb", Encoding.JSON, b"[" * 5000 + b"]" * 5000, ErrorCode.BAD_MESSAGE),
    ]
    return tuple(
        InvalidCase(name=n, direction=Direction.FROM_CLIENT, encoding=e, frame_hex=f.hex(), code=c)
        for n, e, f, c in raw
    )
