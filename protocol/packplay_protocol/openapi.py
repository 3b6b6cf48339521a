"""The OpenAPI 3.1 document of the REST API, generated from ``route_table.ROUTES``.

The server serves ``openapi_document()`` at ``GET /v2/openapi.json``; the same
document is checked in as ``protocol/openapi.json``.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from packplay_protocol import problems, route_table, schemas
from packplay_protocol.version import API_PREFIX, PROTOCOL_VERSION

_REF = "#/components/schemas/"
_SECURITY_SCHEMES = {"seat": "playerToken", "tournament": "tournamentToken"}
_UNEXPECTED = {
    "description": "Any other problem (a proxy's, say): a problem document when the body is one",
    "content": {problems.PROBLEM_MEDIA_TYPE: {"schema": {"$ref": f"{_REF}Problem"}}},
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
    sent_only = set(comps) - set(schemas.components_for(_body_types(requests=True)))
    return {
        name: _one_of(schemas.with_refs(_all_required(schema) if name in sent_only else schema, _REF))
        for name, schema in comps.items()
    }


def _all_required(schema: dict[str, Any]) -> dict[str, Any]:
    """A schema the server alone sends, and always whole: a field with a default is still
    always present, so it is required (code generators then type it as present)."""
    if "properties" not in schema or schema.get("title") not in _ALWAYS_SENT_TITLES():
        return schema
    return schema | {"required": list(schema["properties"])}


@cache
def _ALWAYS_SENT_TITLES() -> frozenset[str]:
    return frozenset(schemas.title_of(name) for name in schemas.always_sent())


def _body_types(requests: bool = False) -> list[Any]:
    roots = schemas.schema_set().roots
    bodies = [r.request for r in route_table.ROUTES]
    if not requests:
        bodies += [p.body for r in route_table.ROUTES for p in r.replies]
    return [b for b in dict.fromkeys(bodies) if b is not None and b in roots]


def _paths() -> dict[str, Any]:
    paths: dict[str, Any] = {}
    for route in route_table.ROUTES:
        paths.setdefault(route.path, {})[route.method.lower()] = _operation(route)
    return paths


def _operation(route: route_table.Route) -> dict[str, Any]:
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
    else:
        op["security"] = []  # public: no credential at all
    with_one_of: dict[str, Any] = _one_of(op)
    return with_one_of


def _one_of(schema: Any) -> Any:
    """``schema`` with each union told apart by a discriminator as a ``oneOf``.

    msgspec writes tagged unions as ``anyOf`` with a discriminator; their members exclude
    each other (each has its own tag), and OpenAPI tools expect ``oneOf`` beside a
    discriminator."""
    if isinstance(schema, dict):
        out = {k: _one_of(v) for k, v in schema.items()}
        if "discriminator" in out and "anyOf" in out:
            out["oneOf"] = out.pop("anyOf")
        return out
    if isinstance(schema, list):
        return [_one_of(v) for v in schema]
    return schema


def _parameter(param: route_table.Param) -> dict[str, Any]:
    return {
        "name": param.name,
        "in": param.where,
        "required": param.required or param.where == "path",
        "description": param.description,
        "schema": schemas.inline(param.type),
    }


def _response(reply: route_table.Reply) -> dict[str, Any]:
    response: dict[str, Any] = {"description": reply.description}
    if reply.body is not None:
        response["content"] = {reply.media_type: {"schema": _schema(reply.body)}}
    return response


def _schema(type_: Any) -> dict[str, Any]:
    roots = schemas.schema_set().roots
    if type_ in roots:
        return schemas.with_refs(roots[type_], _REF)  # type: ignore[no-any-return]
    return schemas.inline(type_)
