"""The Packplay wire contract: typed messages, one codec, versions.

Modules: ``version`` (subprotocols and negotiation), ``errors`` (closed reasons and
codes), ``from_client`` / ``to_client`` (the WebSocket message catalog), ``codec``
(JSON and MessagePack), ``patch`` (the JSON Patch of view updates), ``rest`` (REST
bodies and routes), ``catalog`` (every game's wire types), ``openapi`` / ``asyncapi`` /
``schemas`` (the documents the server serves and the generators in ``protocol/tools``,
which are not installed, write into ``protocol/``).
"""

from packplay_protocol.codec import Direction, decode, decode_client, decode_server, encode
from packplay_protocol.errors import CloseCode, DecodeError, ErrorCode, RejectReason
from packplay_protocol.from_client import (
    Act,
    ClientMessage,
    Create,
    Follow,
    Hello,
    Join,
    Ping,
    Rematch,
    Resume,
    TakeSeat,
)
from packplay_protocol.limits import DEFAULT_LIMITS, Limits
from packplay_protocol.patch import PatchError, PatchOp
from packplay_protocol.to_client import (
    Accepted,
    Error,
    Events,
    GameOver,
    Pong,
    Rejected,
    Seated,
    ServerMessage,
    TournamentRound,
    TournamentStandings,
    TournamentTable,
    Update,
    ViewMessage,
    Welcome,
)
from packplay_protocol.version import (
    API_PREFIX,
    PROTOCOL_VERSION,
    SUBPROTOCOLS,
    WS_PATH,
    Encoding,
    Negotiated,
    Refusal,
    negotiate,
)

__all__ = [
    "API_PREFIX",
    "DEFAULT_LIMITS",
    "PROTOCOL_VERSION",
    "SUBPROTOCOLS",
    "WS_PATH",
    "Accepted",
    "Act",
    "ClientMessage",
    "CloseCode",
    "Create",
    "DecodeError",
    "Direction",
    "Encoding",
    "Error",
    "ErrorCode",
    "Events",
    "Follow",
    "GameOver",
    "Hello",
    "Join",
    "Limits",
    "Negotiated",
    "PatchError",
    "PatchOp",
    "Ping",
    "Pong",
    "Refusal",
    "RejectReason",
    "Rejected",
    "Rematch",
    "Resume",
    "Seated",
    "ServerMessage",
    "TakeSeat",
    "TournamentRound",
    "TournamentStandings",
    "TournamentTable",
    "Update",
    "ViewMessage",
    "Welcome",
    "decode",
    "decode_client",
    "decode_server",
    "encode",
    "negotiate",
]
