"""Subprotocol negotiation: the first offer the server speaks wins; otherwise a refusal that lists them."""

from __future__ import annotations

from packplay_protocol.version import (
    SUBPROTOCOLS,
    Encoding,
    Negotiated,
    Refusal,
    negotiate,
    parse_offer,
    subprotocol,
)


def test_the_server_speaks_json_and_msgpack_in_v1() -> None:
    assert SUBPROTOCOLS == {"packplay.v1.json": Encoding.JSON, "packplay.v1.msgpack": Encoding.MSGPACK}
    assert subprotocol(1, Encoding.MSGPACK) == "packplay.v1.msgpack"


def test_the_clients_first_spoken_preference_wins() -> None:
    chosen = negotiate(["packplay.v2.msgpack", "packplay.v1.msgpack", "packplay.v1.json"])
    assert chosen == Negotiated(subprotocol="packplay.v1.msgpack", version=1, encoding=Encoding.MSGPACK)


def test_an_unknown_version_is_refused_with_what_is_spoken() -> None:
    refusal = negotiate(["packplay.v9.json", "chat"])
    assert isinstance(refusal, Refusal)
    assert refusal.spoken == ("packplay.v1.json", "packplay.v1.msgpack")
    assert "packplay.v9.json" in refusal.message
    assert "packplay.v1.json, packplay.v1.msgpack" in refusal.message


def test_no_offer_is_refused() -> None:
    refusal = negotiate([])
    assert isinstance(refusal, Refusal)
    assert "offered: none" in refusal.message


def test_the_header_is_split_on_commas() -> None:
    assert parse_offer(" packplay.v1.json ,packplay.v1.msgpack,, ") == (
        "packplay.v1.json",
        "packplay.v1.msgpack",
    )
    assert parse_offer(None) == ()
    assert negotiate(parse_offer("x, packplay.v1.json")) == Negotiated(
        subprotocol="packplay.v1.json", version=1, encoding=Encoding.JSON
    )
