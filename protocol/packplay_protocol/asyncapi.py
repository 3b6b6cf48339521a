"""The AsyncAPI 3.0 document of the WebSocket API, generated from the message catalog.

It describes the server: it receives client messages and sends server messages
on one channel, ``/v2/ws``.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import msgspec

from packplay_protocol import catalog, from_client, schemas, to_client
from packplay_protocol.version import PROTOCOL_VERSION, SUBPROTOCOLS, WS_PATH

_CHANNEL = "play"
_DESCRIPTION = (
    "Play Packplay games over one WebSocket per game. Pick the version and the "
    "encoding with the subprotocol (`Sec-WebSocket-Protocol`): `packplay.v2.json` "
    "(UTF-8 JSON, text frames) or `packplay.v2.msgpack` (MessagePack, binary frames). "
    "Both carry the same messages, described here as JSON. Every message is an object "
    "whose `type` names it; clients ignore unknown fields, unknown message types and "
    "unknown event types. The same socket may follow a tournament instead of a game "
    "(`follow`): a player then hears of each table it is seated at, a watcher of each "
    "round's pairings and of the standings. A kept socket also creates (`create`), takes "
    "(`take_seat`) or asks again (`rematch`) its next game itself, answered `seated`. "
    "See protocol/README.md for the flow."
)

# Which server messages answer which client message (AsyncAPI operation replies).
_REPLIES: dict[type[msgspec.Struct], tuple[type[msgspec.Struct], ...]] = {
    from_client.Hello: (to_client.Welcome, to_client.Error),
    from_client.Join: (to_client.ViewMessage, to_client.Events, to_client.Error),
    from_client.Act: (to_client.Accepted, to_client.Rejected),
    from_client.Resume: (to_client.Events, to_client.ViewMessage, to_client.Error),
    from_client.Ping: (to_client.Pong,),
    from_client.Follow: (
        to_client.TournamentTable,
        to_client.TournamentRound,
        to_client.TournamentStandings,
        to_client.Error,
    ),
    from_client.Create: (to_client.Seated, to_client.ViewMessage, to_client.Error),
    from_client.TakeSeat: (to_client.Seated, to_client.ViewMessage, to_client.Error),
    from_client.Rematch: (to_client.Seated, to_client.ViewMessage, to_client.Error),
}


@cache
def asyncapi_document() -> dict[str, Any]:
    """The AsyncAPI 3.0 document (cached; do not mutate)."""
    messages = [*from_client.CLIENT_MESSAGES, *to_client.SERVER_MESSAGES]
    return {
        "asyncapi": "3.0.0",
        "info": {
            "title": "Packplay WebSocket API",
            "version": f"{PROTOCOL_VERSION}.0.0",
            "description": _DESCRIPTION,
            "license": {"name": "MIT"},
        },
        "defaultContentType": "application/json",
        "servers": {
            "local": {
                "host": "localhost:8000",
                "protocol": "ws",
                "description": "A server started with `packplay serve`.",
            }
        },
        "channels": {_CHANNEL: _channel(messages)},
        "operations": _operations(),
        "components": {
            "messages": {_message_key(m): _message(m) for m in messages},
            "schemas": _components(),
        },
    }


def _channel(messages: list[type[msgspec.Struct]]) -> dict[str, Any]:
    offer = {
        "type": "string",
        "description": "Comma-separated subprotocols, in order of preference.",
        "examples": [", ".join(SUBPROTOCOLS)],
    }
    return {
        "address": WS_PATH,
        "title": "Play one game",
        "messages": {_message_key(m): {"$ref": f"#/components/messages/{_message_key(m)}"} for m in messages},
        "bindings": {
            "ws": {
                "method": "GET",
                "headers": {"type": "object", "properties": {"Sec-WebSocket-Protocol": offer}},
                "bindingVersion": "0.1.0",
            }
        },
    }


def _operations() -> dict[str, Any]:
    ops: dict[str, Any] = {}
    for message in from_client.CLIENT_MESSAGES:
        op = _operation("receive", message)
        replies = _REPLIES.get(message)
        if replies:
            op["reply"] = {"channel": {"$ref": f"#/channels/{_CHANNEL}"}, "messages": _refs(replies)}
        ops[f"receive_{_message_key(message)}"] = op
    for message in to_client.SERVER_MESSAGES:
        ops[f"send_{_message_key(message)}"] = _operation("send", message)
    return ops


def _operation(action: str, message: type[msgspec.Struct]) -> dict[str, Any]:
    return {
        "action": action,
        "channel": {"$ref": f"#/channels/{_CHANNEL}"},
        "summary": _summary(message),
        "messages": _refs((message,)),
    }


def _refs(messages: tuple[type[msgspec.Struct], ...]) -> list[dict[str, str]]:
    return [{"$ref": f"#/channels/{_CHANNEL}/messages/{_message_key(m)}"} for m in messages]


def _message(message: type[msgspec.Struct]) -> dict[str, Any]:
    key = _message_key(message)
    payload = _asyncapi_schema(schemas.schema_set().roots[message])
    return {
        "name": key,
        "title": key.replace("_", " ").capitalize(),
        "summary": _summary(message),
        "payload": payload,
    }


def _message_key(message: type[msgspec.Struct]) -> str:
    tag = catalog.tag_of(message)
    if tag is None:
        raise RuntimeError(f"{message.__name__} has no tag")
    return tag


def _summary(message: type[msgspec.Struct]) -> str:
    return (message.__doc__ or "").strip().split("\n", 1)[0]


def _components() -> dict[str, Any]:
    comps = schemas.schema_set().components
    return {name: _asyncapi_schema(schema) for name, schema in comps.items()}


def _asyncapi_schema(schema: Any) -> Any:
    """An AsyncAPI Schema Object: refs into components, ``discriminator`` as a property name."""
    return _plain_discriminators(schemas.with_refs(schema, "#/components/schemas/"))


def _plain_discriminators(schema: Any) -> Any:
    if isinstance(schema, list):
        return [_plain_discriminators(v) for v in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: _plain_discriminators(v) for k, v in schema.items()}
    if isinstance(out.get("discriminator"), dict):
        out["discriminator"] = out["discriminator"]["propertyName"]
    return out
