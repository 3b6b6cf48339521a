"""REST ``/v2``: one handler per route of the protocol's route table; errors are problem documents."""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Awaitable, Callable, Hashable
from typing import Any, TypeVar, cast

import msgspec
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from packplay import __version__
from packplay.server.http.problems import problem_response
from packplay.server.play.addresses import client_key
from packplay.server.play.errors import Refused
from packplay.server.runtime import Runtime
from packplay.server.storage.requests import Busy, Mismatch, Replay
from packplay_protocol import rules
from packplay_protocol.catalog import GAMES
from packplay_protocol.errors import ErrorCode
from packplay_protocol.ids import GameId, GameName
from packplay_protocol.openapi import openapi_document
from packplay_protocol.problems import PROBLEM_MEDIA_TYPE, pointer_of, problem
from packplay_protocol.rest import (
    CreateGame,
    GameStatus,
    Health,
    JoinSeat,
    Readiness,
    RulesLanguage,
    RulesPage,
    game_type,
    game_type_list,
)
from packplay_protocol.route_table import MARKDOWN_MEDIA_TYPE, ROUTES
from packplay_protocol.tournaments import (
    CreateTournament,
    PlayerId,
    RegisterPlayer,
    RoundNumber,
    TournamentId,
)
from packplay_protocol.version import API_PREFIX, PROTOCOL_VERSION, SUBPROTOCOLS

log = logging.getLogger(__name__)
T = TypeVar("T")
Handler = Callable[[Request], Awaitable[Response]]
_encode = msgspec.json.Encoder().encode


def json_response(body: Any, status: int = 200) -> Response:
    return Response(_encode(body), status_code=status, media_type="application/json")


def _runtime(request: Request) -> Runtime:
    runtime: Runtime = request.app.state.runtime
    return runtime


def _problems(handler: Handler) -> Handler:
    """Turn the authority's refusals into problem documents."""

    @functools.wraps(handler)
    async def wrapped(request: Request) -> Response:
        try:
            return await handler(request)
        except Refused as error:
            return problem_response(error.code, error.detail, request, error.pointer, error.retry_after)

    return wrapped


IDEMPOTENCY_KEY = re.compile(r"[\x21-\x7e]{1,255}")
"""What an ``Idempotency-Key`` may be: 1 to 255 printable ASCII characters."""


def _idempotent(handler: Handler) -> Handler:
    """A creating request with an ``Idempotency-Key`` header: sent again with the same key
    and body, it gets the first one's answer (kept a day once it succeeded) instead of
    creating again; while the first is under way, 409 ``out_of_order`` (retry in a second);
    the same key with another body, 422 ``validation_failed``."""

    @functools.wraps(handler)
    async def wrapped(request: Request) -> Response:
        key = request.headers.get("idempotency-key")
        if key is None:
            return await handler(request)
        if not IDEMPOTENCY_KEY.fullmatch(key):
            detail = "Idempotency-Key: 1 to 255 printable ASCII characters"
            return problem_response(ErrorCode.VALIDATION_FAILED, detail, request)
        requests, body = _runtime(request).requests, await request.body()
        client = client_key(request.client.host) if request.client is not None else ""
        route = f"{request.method} {request.url.path}"
        held = await requests.claim(client, route, key, body)
        if isinstance(held, Replay):
            return Response(held.body, held.status, {"Idempotent-Replayed": "true"}, "application/json")
        if isinstance(held, Busy):
            detail = "a request with this Idempotency-Key is under way; retry in a moment"
            return problem_response(ErrorCode.OUT_OF_ORDER, detail, request, retry_after=1)
        if isinstance(held, Mismatch):
            detail = "this Idempotency-Key was used for another request"
            return problem_response(ErrorCode.VALIDATION_FAILED, detail, request)
        try:
            response = await handler(request)
        except BaseException:
            await requests.release(client, route, key)
            raise
        if 200 <= response.status_code < 300:
            await requests.keep(client, route, key, body, response.status_code, bytes(response.body))
        else:
            await requests.release(client, route, key)
        return response

    return wrapped


async def _body(request: Request, kind: type[T]) -> T:
    raw = await request.body()
    if len(raw) > _runtime(request).settings.frame_limit:
        raise Refused(ErrorCode.FRAME_TOO_LARGE, "request body too large")
    try:
        decoded: T = _decoder(cast(Hashable, kind)).decode(raw)
        return decoded
    except (msgspec.ValidationError, msgspec.DecodeError):
        pass  # read again the lenient way below, which also says what is wrong
    try:
        return msgspec.convert(_whole_numbers(msgspec.json.decode(raw)), type=kind)
    except (msgspec.ValidationError, msgspec.DecodeError) as error:
        raise Refused(ErrorCode.VALIDATION_FAILED, str(error), pointer_of(str(error))) from error


@functools.cache
def _decoder(kind: Hashable) -> msgspec.json.Decoder[Any]:
    """A body of ``kind`` read at once (most bodies): ``_body`` reads the others again."""
    return msgspec.json.Decoder(kind)


def _whole_numbers(value: Any) -> Any:
    """JSON Schema's integers include 13.0: a number without a fraction counts as an integer."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {key: _whole_numbers(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_whole_numbers(item) for item in value]
    return value


def _query(request: Request, name: str, kind: Any) -> Any:
    value = request.query_params.get(name)
    if value is None:
        return None
    try:
        return msgspec.convert(value, kind)
    except msgspec.ValidationError as error:
        raise Refused(ErrorCode.VALIDATION_FAILED, f"{name}: {error}") from error


def _game_id(request: Request) -> str:
    try:
        game_id: str = msgspec.convert(request.path_params["game_id"], GameId)
    except msgspec.ValidationError as error:
        raise Refused(ErrorCode.NOT_FOUND, "no such game") from error
    return game_id


def _token(request: Request, required: bool) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return token.strip()
    if required:
        raise Refused(ErrorCode.UNAUTHORIZED, "send the player token as 'Authorization: Bearer <token>'")
    return None


@_idempotent
@_problems
async def create_game(request: Request) -> Response:
    runtime = _runtime(request)
    body: CreateGame = await _body(request, CreateGame)  # type: ignore[arg-type]  # a union of structs
    # The peer's address, or the one a trusted proxy forwarded (uvicorn puts it in the scope).
    client = request.client.host if request.client is not None else None
    summary = await runtime.authority.lobby.create(body, client)
    runtime.metrics.games_created.labels(summary.game).inc()
    return json_response(summary, 201)


@_problems
async def list_games(request: Request) -> Response:
    game = _query(request, "game", GameName)
    status = _query(request, "status", GameStatus)
    return json_response(await _runtime(request).authority.lobby.list_games(game, status))


@functools.cache
def _game_types() -> bytes:
    return _encode(game_type_list())


async def list_game_types(request: Request) -> Response:
    return Response(_game_types(), media_type="application/json")


@_problems
async def get_game_type(request: Request) -> Response:
    name = request.path_params["game"]
    if name not in GAMES:
        raise Refused(ErrorCode.NOT_FOUND, f"no game type {name!r}; known: {', '.join(GAMES)}")
    return json_response(game_type(name))


@_problems
async def get_game(request: Request) -> Response:
    token = _token(request, required=False)
    return json_response(await _runtime(request).authority.lobby.snapshot(_game_id(request), token))


@_idempotent
@_problems
async def join_seat(request: Request) -> Response:
    grant = await _runtime(request).authority.lobby.join(_game_id(request), await _body(request, JoinSeat))
    return json_response(grant, 201)


@_problems
async def leave_seat(request: Request) -> Response:
    token = _token(request, required=True)
    assert token is not None
    await _runtime(request).authority.lobby.leave(_game_id(request), token)
    return Response(status_code=204)


@_problems
async def get_replay(request: Request) -> Response:
    return json_response(await _runtime(request).authority.lobby.replay(_game_id(request)))


def _path(request: Request, name: str, kind: Any, what: str) -> Any:
    try:
        return msgspec.convert(request.path_params[name], kind, strict=False)
    except msgspec.ValidationError as error:
        raise Refused(ErrorCode.NOT_FOUND, f"no such {what}") from error


def _tournament_id(request: Request) -> str:
    tournament_id: str = _path(request, "tournament_id", TournamentId, "tournament")
    return tournament_id


def _required_token(request: Request) -> str:
    token = _token(request, required=True)
    assert token is not None
    return token


@_idempotent
@_problems
async def create_tournament(request: Request) -> Response:
    tournaments = _runtime(request).tournaments
    return json_response(await tournaments.create(await _body(request, CreateTournament)), 201)


@_problems
async def get_tournament(request: Request) -> Response:
    return json_response(await _runtime(request).tournaments.get(_tournament_id(request)))


@_idempotent
@_problems
async def register_player(request: Request) -> Response:
    tournament_id = _tournament_id(request)
    body = await _body(request, RegisterPlayer)
    return json_response(await _runtime(request).tournaments.register(tournament_id, body), 201)


@_problems
async def drop_player(request: Request) -> Response:
    player_id: str = _path(request, "player_id", PlayerId, "player")
    tournament_id = _tournament_id(request)
    await _runtime(request).tournaments.drop(tournament_id, player_id, _required_token(request))
    return Response(status_code=204)


@_problems
async def start_tournament(request: Request) -> Response:
    tournament_id = _tournament_id(request)
    return json_response(await _runtime(request).tournaments.start(tournament_id, _required_token(request)))


@_problems
async def finish_tournament(request: Request) -> Response:
    tournament_id = _tournament_id(request)
    return json_response(await _runtime(request).tournaments.finish(tournament_id, _required_token(request)))


@_problems
async def get_standings(request: Request) -> Response:
    return json_response(await _runtime(request).tournaments.standings(_tournament_id(request)))


@_problems
async def get_pairings(request: Request) -> Response:
    number: int = _path(request, "round", RoundNumber, "round")
    return json_response(await _runtime(request).tournaments.pairings(_tournament_id(request), number))


@_problems
async def get_my_table(request: Request) -> Response:
    tournament_id = _tournament_id(request)
    return json_response(
        await _runtime(request).tournaments.my_table(tournament_id, _required_token(request))
    )


@_problems
async def get_rules(request: Request) -> Response:
    language = _query(request, "lang", RulesLanguage) or "en"
    try:
        page = msgspec.convert(request.path_params["page"], RulesPage)
        markdown = rules.text(page, language)
    except (msgspec.ValidationError, LookupError) as error:
        raise Refused(ErrorCode.NOT_FOUND, str(error)) from error
    return Response(markdown, media_type=MARKDOWN_MEDIA_TYPE)


async def get_health(request: Request) -> Response:
    name = _runtime(request).settings.server_name
    return json_response(Health(server=f"{name}/{__version__}", protocols=tuple(SUBPROTOCOLS)))


async def get_readiness(request: Request) -> Response:
    checks = await _runtime(request).ready()
    ready = all(checks.values())
    return json_response(Readiness(ready=ready, checks=checks), 200 if ready else 503)


async def get_metrics(request: Request) -> Response:
    return Response(_runtime(request).metrics.render(), media_type="text/plain; version=0.0.4; charset=utf-8")


@functools.cache
def _openapi() -> bytes:
    return _encode(openapi_document(__version__))


async def get_openapi(request: Request) -> Response:
    return Response(_openapi(), media_type="application/json")


HANDLERS: dict[str, Handler] = {
    "createGame": create_game,
    "listGames": list_games,
    "listGameTypes": list_game_types,
    "getGameType": get_game_type,
    "getGame": get_game,
    "joinSeat": join_seat,
    "leaveSeat": leave_seat,
    "getReplay": get_replay,
    "createTournament": create_tournament,
    "getTournament": get_tournament,
    "registerPlayer": register_player,
    "dropPlayer": drop_player,
    "startTournament": start_tournament,
    "finishTournament": finish_tournament,
    "getStandings": get_standings,
    "getPairings": get_pairings,
    "getMyTable": get_my_table,
    "getRules": get_rules,
    "getHealth": get_health,
    "getReadiness": get_readiness,
    "getMetrics": get_metrics,
    "getOpenApi": get_openapi,
}


def rest_routes() -> list[Route]:
    """Exactly the protocol's routes; a route without a handler is a bug caught at startup.

    One route per path, dispatching on the method: a method the path lacks gets a 405 whose
    ``Allow`` names every method of the path (not only those of the first route that matched).
    """
    by_path: dict[str, dict[str, Handler]] = {}
    for route in ROUTES:
        by_path.setdefault(route.path, {})[route.method] = HANDLERS[route.operation_id]
    return [Route(path, _dispatch(handlers), methods=list(handlers)) for path, handlers in by_path.items()]


RETIRED_PREFIXES = ("/v1",)
"""REST prefixes of protocol versions this server no longer speaks."""


def retired_routes() -> list[Route]:
    """Every path under a retired prefix: 410 with a problem naming the version spoken."""
    methods = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]
    return [
        route
        for prefix in RETIRED_PREFIXES
        for route in (
            Route(prefix, retired, methods=methods),
            Route(prefix + "/{rest:path}", retired, methods=methods),
        )
    ]


async def retired(request: Request) -> Response:
    detail = (
        f"this server speaks protocol version {PROTOCOL_VERSION} only: "
        f"use {API_PREFIX}/ (described at {API_PREFIX}/openapi.json)"
    )
    document = msgspec.structs.replace(
        problem(ErrorCode.UNSUPPORTED_VERSION, detail, instance=request.url.path), status=410
    )
    return Response(_encode(document), status_code=410, media_type=PROBLEM_MEDIA_TYPE)


def _dispatch(handlers: dict[str, Handler]) -> Handler:
    async def endpoint(request: Request) -> Response:
        return await handlers["GET" if request.method == "HEAD" else request.method](request)

    return endpoint
