"""Generated messages of every type round-trip through both encodings and match their schema."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from proto_strategies import for_type

from packplay_protocol import codec, schemas
from packplay_protocol.catalog import tag_of
from packplay_protocol.codec import Direction
from packplay_protocol.from_client import CLIENT_MESSAGES
from packplay_protocol.to_client import SERVER_MESSAGES
from packplay_protocol.version import PROTOCOL_VERSION, Encoding

SCHEMA_DIR = Path(__file__).resolve().parents[2] / "protocol" / "schema" / f"v{PROTOCOL_VERSION}"
MESSAGES = [(Direction.FROM_CLIENT, m) for m in CLIENT_MESSAGES] + [
    (Direction.TO_CLIENT, m) for m in SERVER_MESSAGES
]
FAST = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _id(case: tuple[Direction, type]) -> str:
    return f"{case[0].value}/{tag_of(case[1])}"


@cache
def _validator(path: Path) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(json.loads(path.read_text()))


@pytest.mark.parametrize("case", MESSAGES, ids=_id)
@FAST
@given(data=st.data())
def test_generated_messages_round_trip_and_match_their_schema(
    case: tuple[Direction, type], data: st.DataObject
) -> None:
    direction, message_type = case
    message = data.draw(for_type(message_type))
    for encoding in Encoding:
        frame = codec.encode(message, encoding)
        assert codec.decode(frame, encoding, direction, max_bytes=len(frame)) == message
    instance = json.loads(codec.encode(message, Encoding.JSON))
    _validator(SCHEMA_DIR / direction.value / f"{tag_of(message_type)}.json").validate(instance)


@pytest.mark.parametrize("body", schemas.REST_TYPES, ids=lambda t: t.__name__)
@FAST
@given(data=st.data())
def test_generated_rest_bodies_round_trip_and_match_their_schema(body: Any, data: st.DataObject) -> None:
    value = data.draw(for_type(body))
    encoded = msgspec.json.encode(value)
    assert msgspec.json.decode(encoded, type=body) == value
    _validator(SCHEMA_DIR / "rest" / f"{body.__name__}.json").validate(json.loads(encoded))
