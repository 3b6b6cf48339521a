"""Random and mutated bytes never make the decoder raise: the answer is a message or a typed error."""

from __future__ import annotations

from typing import Any

import msgpack
import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from packplay_protocol import codec
from packplay_protocol.codec import Direction
from packplay_protocol.errors import DecodeError, ErrorCode
from packplay_protocol.from_client import CLIENT_MESSAGES
from packplay_protocol.to_client import SERVER_MESSAGES
from packplay_protocol.version import Encoding

import examples

FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
KINDS = {Direction.FROM_CLIENT: CLIENT_MESSAGES, Direction.TO_CLIENT: SERVER_MESSAGES}
SEEDS = {
    Direction.FROM_CLIENT: list(examples.client_examples().values()),
    Direction.TO_CLIENT: list(examples.server_examples().values()),
}
CASES = [(d, e) for d in Direction for e in Encoding]


def _check_total(data: bytes | str, encoding: Encoding, direction: Direction) -> None:
    result: Any = codec.decode(data, encoding, direction, max_bytes=1 << 20)
    if isinstance(result, DecodeError):
        assert isinstance(result.code, ErrorCode)
        assert isinstance(result.message, str)
        return
    assert isinstance(result, KINDS[direction])
    message: codec.Message = result  # type: ignore[assignment]
    for out in Encoding:  # whatever decoded can be sent on
        codec.encode(message, out)


def _mutate(frame: bytes, edits: list[tuple[int, int, int]]) -> bytes:
    data = bytearray(frame)
    for kind, where, value in edits:
        at = where % (len(data) + 1)
        if kind == 0 and data:
            data[at % len(data)] = value
        elif kind == 1:
            data.insert(at, value)
        elif kind == 2:
            del data[at : at + value % 8]
        else:
            data = data[:at]
    return bytes(data)


@pytest.mark.parametrize(("direction", "encoding"), CASES, ids=lambda c: str(c))
@FUZZ
@given(data=st.binary(max_size=512))
def test_random_bytes_never_raise(direction: Direction, encoding: Encoding, data: bytes) -> None:
    _check_total(data, encoding, direction)


@pytest.mark.parametrize("direction", list(Direction), ids=lambda d: d.value)
@FUZZ
@given(text=st.text(max_size=300))
def test_random_text_never_raises(direction: Direction, text: str) -> None:
    _check_total(text, Encoding.JSON, direction)
    _check_total(text, Encoding.MSGPACK, direction)


@pytest.mark.parametrize(("direction", "encoding"), CASES, ids=lambda c: str(c))
@FUZZ
@given(
    pick=st.integers(min_value=0),
    edits=st.lists(
        st.tuples(st.integers(0, 3), st.integers(0, 1 << 16), st.integers(0, 255)), min_size=1, max_size=6
    ),
)
def test_mutated_frames_never_raise(
    direction: Direction, encoding: Encoding, pick: int, edits: list[tuple[int, int, int]]
) -> None:
    seeds = SEEDS[direction]
    frame = codec.encode(seeds[pick % len(seeds)], encoding)
    _check_total(_mutate(frame, edits), encoding, direction)


_json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.floats() | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=20,
)


@pytest.mark.parametrize("direction", list(Direction), ids=lambda d: d.value)
@FUZZ
@given(
    tag=st.sampled_from(
        ["hello", "join", "act", "resume", "ping", "view", "events", "rejected", "error", "x"]
    ),
    fields=st.dictionaries(
        st.sampled_from(
            ["action_id", "version", "action", "game_id", "events", "legal", "view", "code", "token"]
        ),
        _json_values,
    ),
)
def test_well_formed_objects_with_wrong_fields_never_raise(
    direction: Direction, tag: str, fields: dict[str, Any]
) -> None:
    obj = {"type": tag, **fields}
    _check_total(msgspec.json.encode(obj), Encoding.JSON, direction)
    _check_total(msgpack.packb(obj), Encoding.MSGPACK, direction)
