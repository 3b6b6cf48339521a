"""The codec: every example round-trips in both encodings; failures are typed values."""

from __future__ import annotations

from typing import Any

import msgpack
import msgspec
import pytest

from packplay_protocol import codec
from packplay_protocol.codec import Direction
from packplay_protocol.errors import DecodeError, ErrorCode
from packplay_protocol.from_client import Hello, Ping
from packplay_protocol.games import mishra_factory as mf
from packplay_protocol.games.common import LegalActions
from packplay_protocol.to_client import Events, Pong
from packplay_protocol.version import Encoding

import examples

CLIENT = examples.client_examples()
SERVER = examples.server_examples()
ENCODINGS = list(Encoding)


def _logical(message: Any) -> Any:
    return msgspec.json.decode(msgspec.json.encode(message))


def _direction(name: str) -> Direction:
    return Direction.FROM_CLIENT if name in CLIENT else Direction.TO_CLIENT


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("name", [*CLIENT, *SERVER])
def test_example_round_trips(name: str, encoding: Encoding) -> None:
    message = {**CLIENT, **SERVER}[name]
    decoded = codec.decode(codec.encode(message, encoding), encoding, _direction(name))
    assert decoded == message


@pytest.mark.parametrize("name", [*CLIENT, *SERVER])
def test_both_encodings_carry_the_same_logical_message(name: str) -> None:
    message = {**CLIENT, **SERVER}[name]
    as_json = msgspec.json.decode(codec.encode(message, Encoding.JSON))
    as_msgpack = msgpack.unpackb(codec.encode(message, Encoding.MSGPACK))
    assert as_json == as_msgpack == _logical(message)


def test_json_frames_are_utf8_text_and_may_arrive_as_str() -> None:
    frame = codec.encode(Hello(client="Zoë/1"), Encoding.JSON)
    assert codec.decode_client(frame.decode("utf-8"), Encoding.JSON) == Hello(client="Zoë/1")


def test_every_message_starts_with_its_type() -> None:
    assert codec.encode(Ping(nonce="n"), Encoding.JSON).startswith(b'{"type":"ping"')


def test_legal_actions_travel_as_plain_action_objects() -> None:
    legal = LegalActions(actions=(mf.Take(belt_position=0, group="W"),))
    frame = codec.encode(
        msgspec.structs.replace(SERVER["view/mishra_factory"], legal=legal), Encoding.MSGPACK
    )
    decoded = codec.decode_server(frame, Encoding.MSGPACK)
    assert not isinstance(decoded, DecodeError)
    assert _logical(decoded)["legal"]["actions"] == [
        {"type": "mishra_factory.take", "belt_position": 0, "group": "W", "discard": None}
    ]


def test_unknown_fields_are_ignored() -> None:
    frame = b'{"type":"ping","nonce":"x","added_in_v1_3":{"a":[1]}}'
    assert codec.decode_client(frame, Encoding.JSON) == Ping(nonce="x")


def test_unknown_event_types_are_dropped_towards_the_client() -> None:
    events = _logical(SERVER["events/mishra_factory"])
    events["events"].insert(1, {"type": "mishra_factory.confetti", "amount": 3})
    for encoding, frame in (
        (Encoding.JSON, msgspec.json.encode(events)),
        (Encoding.MSGPACK, msgpack.packb(events)),
    ):
        assert codec.decode_server(frame, encoding) == SERVER["events/mishra_factory"]


def test_a_malformed_known_event_is_still_an_error() -> None:
    events = _logical(SERVER["events/mishra_factory"])
    events["events"].append({"type": "mishra_factory.refilled", "belt_position": "front"})
    result = codec.decode_server(msgspec.json.encode(events), Encoding.JSON)
    assert isinstance(result, DecodeError) and result.code is ErrorCode.BAD_MESSAGE


@pytest.mark.parametrize("tag", [["x"], {"a": 1}, 7, None])
def test_an_event_whose_type_is_no_string_is_a_bad_message(tag: object) -> None:
    events = _logical(SERVER["events/mishra_factory"])
    events["events"].insert(0, {"type": tag})
    for encoding, frame in (
        (Encoding.JSON, msgspec.json.encode(events)),
        (Encoding.MSGPACK, msgpack.packb(events)),
    ):
        result = codec.decode_server(frame, encoding)
        assert isinstance(result, DecodeError) and result.code is ErrorCode.BAD_MESSAGE


def test_an_events_message_with_only_unknown_events_decodes_empty() -> None:
    frame = b'{"type":"events","game_id":"g","from_version":1,"to_version":2,"events":[{"type":"x.y"}]}'
    assert codec.decode_server(frame, Encoding.JSON) == Events(
        game_id="g", from_version=1, to_version=2, events=()
    )


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        (b'{"type":"shout"}', ErrorCode.UNKNOWN_TYPE),
        (b'{"type":"pong","nonce":""}', ErrorCode.UNKNOWN_TYPE),
        (b'{"nonce":""}', ErrorCode.BAD_MESSAGE),
        (b'{"type":7}', ErrorCode.BAD_MESSAGE),
        (b'"ping"', ErrorCode.BAD_MESSAGE),
        (b"", ErrorCode.BAD_MESSAGE),
        (b'{"type":"join"}', ErrorCode.BAD_MESSAGE),
        (b'{"type":"join","game_id":"has space"}', ErrorCode.BAD_MESSAGE),
        (b'{"type":"ping","nonce":"\xff"}', ErrorCode.BAD_MESSAGE),
        (b'{"type":"resume","from_version":9007199254740992}', ErrorCode.BAD_MESSAGE),
    ],
)
def test_bad_json_frames_get_a_typed_error(frame: bytes, code: ErrorCode) -> None:
    result = codec.decode_client(frame, Encoding.JSON)
    assert isinstance(result, DecodeError)
    assert result.code is code
    assert result.message


def test_a_bad_act_keeps_its_action_id_for_the_rejection() -> None:
    frame = b'{"type":"act","action_id":"a-9","version":3,"action":{"type":"mishra_factory.take"}}'
    result = codec.decode_client(frame, Encoding.JSON)
    assert isinstance(result, DecodeError)
    assert (result.code, result.action_id) == (ErrorCode.BAD_MESSAGE, "a-9")
    assert "belt_position" in result.message


def test_a_server_message_from_a_client_is_refused() -> None:
    frame = codec.encode(Pong(nonce="x"), Encoding.MSGPACK)
    result = codec.decode_client(frame, Encoding.MSGPACK)
    assert isinstance(result, DecodeError) and result.code is ErrorCode.UNKNOWN_TYPE


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_oversized_frames_are_refused_unread(encoding: Encoding) -> None:
    frame = codec.encode(Ping(nonce="x" * 64), encoding)
    result = codec.decode_client(frame, encoding, max_bytes=len(frame) - 1)
    assert isinstance(result, DecodeError) and result.code is ErrorCode.FRAME_TOO_LARGE
    assert codec.decode_client(frame, encoding, max_bytes=len(frame)) == Ping(nonce="x" * 64)


def test_oversized_text_frames_are_refused() -> None:
    result = codec.decode_client('{"type":"ping","nonce":"' + "é" * 40 + '"}', Encoding.JSON, max_bytes=60)
    assert isinstance(result, DecodeError) and result.code is ErrorCode.FRAME_TOO_LARGE


@pytest.mark.parametrize(
    "frame",
    [
        b"\xc1",
        b"\x81\xa4type\xd4\x05\x00",
        b"\x81\xa4type\xa4ping\x00",
        b"\x81\x91\x00\x00",
        b"\x91" * 100_000 + b"\xc0",
        b"\x82\xa4type\xa4ping\xa5nonce\xc4\x01x",
    ],
    ids=["reserved", "extension", "trailing", "list_key", "nesting_bomb", "bytes_for_str"],
)
def test_bad_msgpack_frames_get_a_typed_error(frame: bytes) -> None:
    result = codec.decode_client(frame, Encoding.MSGPACK, max_bytes=len(frame))
    assert isinstance(result, DecodeError) and result.code is ErrorCode.BAD_MESSAGE


def test_msgpack_frames_must_be_binary() -> None:
    result = codec.decode_client('{"type":"ping"}', Encoding.MSGPACK)
    assert isinstance(result, DecodeError) and result.code is ErrorCode.BAD_MESSAGE


def test_a_text_frame_with_a_lone_surrogate_is_refused() -> None:
    result = codec.decode_client('{"type":"ping","nonce":"\ud800"}', Encoding.JSON)
    assert isinstance(result, DecodeError) and result.code is ErrorCode.BAD_MESSAGE


def test_json_nesting_bombs_in_free_form_fields_are_refused() -> None:
    bomb = "[" * 100_000 + "]" * 100_000
    frame = (
        '{"type":"view","game_id":"g","game":"mishra_factory","version":1,"seat":null,"pending":[],'
        '"legal":{"actions":[' + bomb + ']},"view":{}}'
    ).encode()
    result = codec.decode_server(frame, Encoding.JSON, max_bytes=len(frame))
    assert isinstance(result, DecodeError) and result.code is ErrorCode.BAD_MESSAGE


def _expect_error(result: Any) -> DecodeError:
    assert isinstance(result, DecodeError)
    return result


def test_error_messages_are_bounded() -> None:
    frame = b'{"type":"' + b"x" * 5000 + b'"}'
    assert len(_expect_error(codec.decode_client(frame, Encoding.JSON)).message) < 200
