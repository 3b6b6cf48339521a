"""Protocol versions and encodings, and the WebSocket subprotocol negotiation.

A client offers subprotocols named ``packplay.v<version>.<encoding>`` in
``Sec-WebSocket-Protocol``, in its order of preference. The server takes the first
it speaks, or refuses with the list of what it speaks.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum

import msgspec

PROTOCOL_VERSION = 2
RETIRED_VERSIONS: tuple[int, ...] = (1,)
"""Versions this package no longer speaks; a client offering one is refused with what is spoken."""
API_PREFIX = f"/v{PROTOCOL_VERSION}"
"""Every REST path starts with this; the WebSocket endpoint is ``{API_PREFIX}/ws``."""
WS_PATH = f"{API_PREFIX}/ws"


class Encoding(StrEnum):
    """How messages are written on the wire. Both carry the same logical messages."""

    JSON = "json"
    """UTF-8 JSON in text frames."""
    MSGPACK = "msgpack"
    """MessagePack in binary frames."""


def subprotocol(version: int, encoding: Encoding) -> str:
    """The subprotocol name of a version and an encoding, e.g. ``packplay.v2.json``."""
    return f"packplay.v{version}.{encoding.value}"


SUPPORTED_VERSIONS: tuple[int, ...] = (PROTOCOL_VERSION,)
SUBPROTOCOLS: dict[str, Encoding] = {
    subprotocol(v, e): e for v in SUPPORTED_VERSIONS for e in (Encoding.JSON, Encoding.MSGPACK)
}
"""Every subprotocol this package speaks, mapped to its encoding."""


class Negotiated(msgspec.Struct, frozen=True, kw_only=True):
    """The subprotocol chosen for a connection."""

    subprotocol: str
    version: int
    encoding: Encoding


class Refusal(msgspec.Struct, frozen=True, kw_only=True):
    """No offered subprotocol is spoken: ``spoken`` lists the ones that are."""

    offered: tuple[str, ...]
    spoken: tuple[str, ...]

    @property
    def message(self) -> str:
        offered = ", ".join(self.offered) or "none"
        spoken = ", ".join(self.spoken)
        retired = [v for v in RETIRED_VERSIONS if any(o.startswith(f"packplay.v{v}.") for o in self.offered)]
        if retired:
            return f"protocol v{retired[0]} is retired (offered: {offered}); this server speaks {spoken}"
        return f"unsupported subprotocol (offered: {offered}); this server speaks {spoken}"


def negotiate(offered: Iterable[str], spoken: dict[str, Encoding] = SUBPROTOCOLS) -> Negotiated | Refusal:
    """Pick the first offered subprotocol the server speaks, else a refusal."""
    offers = tuple(o.strip() for o in offered if o.strip())
    for offer in offers:
        encoding = spoken.get(offer)
        if encoding is not None:
            version = int(offer.split(".")[1].removeprefix("v"))
            return Negotiated(subprotocol=offer, version=version, encoding=encoding)
    return Refusal(offered=offers, spoken=tuple(spoken))


def parse_offer(header: str | None) -> tuple[str, ...]:
    """Split a ``Sec-WebSocket-Protocol`` header value into its subprotocols."""
    if not header:
        return ()
    return tuple(p.strip() for p in header.split(",") if p.strip())
