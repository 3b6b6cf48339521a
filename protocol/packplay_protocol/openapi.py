"""The OpenAPI 3.1 document of the REST API, generated from ``rest.ROUTES``.

The server serves ``openapi_document()`` at ``GET /v2/openapi.json``; the same
document is checked in as ``protocol/openapi.json``.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from packplay_protocol import rest, schemas
from packplay_protocol.version import API_PREFIX, PROTOCOL_VERSION

_REF = "#/components/schemas/"
_SECURITY_SCHEMES = {"seat": "playerToken", "tournament": "tournamentToken"}
_UNEXPECTED = {
    "description": "Problem (rate_limited, internal, unavailable, ...)",
    "content": {rest.PROBLEM_MEDIA_TYPE: {"schema": {"$ref": f"{_REF}Problem"}}},
}
_DESCRIPTION = (
    "The lobby of Packplay: create games, take seats, read games and replays; run "
    "tournaments (register, start, standings, pairings, each player's current table). "
    "Play itself happens over the WebSocket API (see the AsyncAPI document). "
    "Every error is a problem document (RFC 9457) whose `code` is stable."
)


@cache
def openapi_document(server_version: str = "0.1.0") -> dict[str, Any]:
    """The OpenAPI 3.1 document (a fresh dict per ``server_version``; do not mutate)."""
    return {
        "openapi": "3.1.0",
        "jsonSchemaDialect": schemas.JSON_SCHEMA_DIALECT,
        "info": {
            "title": "Packplay REST API",
            "version": f"{PROTOCOL_VERSION}.0 (server {server_version})",
            "description": _DESCRIPTION,
            "license": {"name": "MIT", "identifier": "MIT"},
        },
        "servers": [{"url": "/", "description": f"REST paths all start with {API_PREFIX}"}],
        "tags": [
            {"name": "games", "description": "Lobby, seats, snapshots and replays"},
            {"name": "tournaments", "description": "Swiss and round-robin events, standings and pairings"},
            {"name": "rules", "description": "The rules reference, per game and language"},
            {"name": "operations", "description": "Health, readiness, metrics, this document"},
        ],
        "paths": _paths(),
        "components": {
            "schemas": _components(),
            "securitySchemes": {
                "playerToken": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "The player token of a seat, from joinSeat.",
                },
                "tournamentToken": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "A tournament player's secret, from registerPlayer, or the "
                    "organizer token, from createTournament.",
                },
            },
        },
    }


def _components() -> dict[str, Any]:
    comps = schemas.components_for(_body_types())
    return {name: schemas.with_refs(schema, _REF) for name, schema in comps.items()}


def _body_types() -> list[Any]:
    roots = schemas.schema_set().roots
    bodies = [r.request for r in rest.ROUTES] + [p.body for r in rest.ROUTES for p in r.replies]
    return [b for b in dict.fromkeys(bodies) if b is not None and b in roots]


def _paths() -> dict[str, Any]:
    paths: dict[str, Any] = {}
    for route in rest.ROUTES:
        paths.setdefault(route.path, {})[route.method.lower()] = _operation(route)
    return paths


def _operation(route: rest.Route) -> dict[str, Any]:
    op: dict[str, Any] = {
        "operationId": route.operation_id,
        "summary": route.summary,
        "tags": [route.tag],
        "responses": {str(r.status): _response(r) for r in route.replies} | {"default": _UNEXPECTED},
    }
    if route.params:
        op["parameters"] = [_parameter(p) for p in route.params]
    if route.request is not None:
        op["requestBody"] = {
            "required": True,
            "content": {"application/json": {"schema": _schema(route.request)}},
        }
    scheme = _SECURITY_SCHEMES[route.credential]
    if route.auth == "required":
        op["security"] = [{scheme: []}]
    elif route.auth == "optional":
        op["security"] = [{scheme: []}, {}]
    return op


def _parameter(param: rest.Param) -> dict[str, Any]:
    return {
        "name": param.name,
        "in": param.where,
        "required": param.required or param.where == "path",
        "description": param.description,
        "schema": schemas.inline(param.type),
    }


def _response(reply: rest.Reply) -> dict[str, Any]:
    response: dict[str, Any] = {"description": reply.description}
    if reply.body is not None:
        response["content"] = {reply.media_type: {"schema": _schema(reply.body)}}
    return response


def _schema(type_: Any) -> dict[str, Any]:
    roots = schemas.schema_set().roots
    if type_ in roots:
        return schemas.with_refs(roots[type_], _REF)  # type: ignore[no-any-return]
    return schemas.inline(type_)
