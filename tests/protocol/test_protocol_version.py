"""Subprotocol negotiation: the first offer the server speaks wins; otherwise a refusal that lists them."""

from __future__ import annotations

from packplay_protocol.version import (
    API_PREFIX,
    SUBPROTOCOLS,
    Encoding,
    Negotiated,
    Refusal,
    negotiate,
    parse_offer,
    subprotocol,
)


def test_the_server_speaks_json_and_msgpack_in_v2() -> None:
    assert SUBPROTOCOLS == {"packplay.v2.json": Encoding.JSON, "packplay.v2.msgpack": Encoding.MSGPACK}
    assert subprotocol(2, Encoding.MSGPACK) == "packplay.v2.msgpack"
    assert API_PREFIX == "/v2"


def test_the_clients_first_spoken_preference_wins() -> None:
    chosen = negotiate(["packplay.v9.msgpack", "packplay.v2.msgpack", "packplay.v2.json"])
    assert chosen == Negotiated(subprotocol="packplay.v2.msgpack", version=2, encoding=Encoding.MSGPACK)


def test_an_unknown_version_is_refused_with_what_is_spoken() -> None:
    refusal = negotiate(["packplay.v9.json", "chat"])
    assert isinstance(refusal, Refusal)
    assert refusal.spoken == ("packplay.v2.json", "packplay.v2.msgpack")
    assert "packplay.v9.json" in refusal.message
    assert "packplay.v2.json, packplay.v2.msgpack" in refusal.message


def test_a_client_of_the_retired_v1_is_told_so() -> None:
    refusal = negotiate(["packplay.v1.json"])
    assert isinstance(refusal, Refusal)
    assert refusal.message.startswith("protocol v1 is retired")
    assert "packplay.v2.json, packplay.v2.msgpack" in refusal.message


def test_no_offer_is_refused() -> None:
    refusal = negotiate([])
    assert isinstance(refusal, Refusal)
    assert "offered: none" in refusal.message


def test_the_header_is_split_on_commas() -> None:
    assert parse_offer(" packplay.v2.json ,packplay.v2.msgpack,, ") == (
        "packplay.v2.json",
        "packplay.v2.msgpack",
    )
    assert parse_offer(None) == ()
    assert negotiate(parse_offer("x, packplay.v2.json")) == Negotiated(
        subprotocol="packplay.v2.json", version=2, encoding=Encoding.JSON
    )
