"""The route table of the ``/v2`` REST API: every route, its parameters, body and replies.

The OpenAPI document is generated from ``ROUTES``; the server mounts exactly these
routes, and refuses to start when one has no handler. Every route's problems
(:mod:`packplay_protocol.problems`) are listed with it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Annotated, Any, Literal

import msgspec

from packplay_protocol.errors import ErrorCode
from packplay_protocol.ids import GameId, GameName
from packplay_protocol.problems import PROBLEM_MEDIA_TYPE, PROBLEM_STATUS, Problem
from packplay_protocol.rest import (
    CreatedGame,
    CreateGame,
    GameList,
    GameSnapshot,
    GameStatus,
    GameType,
    GameTypeList,
    Health,
    JoinSeat,
    Readiness,
    Replay,
    RulesLanguage,
    RulesPage,
    SeatGrant,
)
from packplay_protocol.tournaments import (
    CreatedTournament,
    CreateTournament,
    MyTable,
    Pairings,
    PlayerId,
    RegisterPlayer,
    Registration,
    RoundNumber,
    Standings,
    Tournament,
    TournamentId,
)
from packplay_protocol.version import API_PREFIX


@dataclass(frozen=True)
class Param:
    """A path, query or header parameter of a route."""

    name: str
    where: Literal["path", "query", "header"]
    type: Any
    description: str
    required: bool = True


@dataclass(frozen=True)
class Reply:
    """One documented response: `body` None means no body."""

    status: int
    description: str
    body: Any = None
    media_type: str = "application/json"


@dataclass(frozen=True)
class Route:
    """One REST route. `auth`: whether the player token (`Authorization: Bearer`) is needed."""

    method: Literal["GET", "POST", "DELETE"]
    path: str
    operation_id: str
    summary: str
    replies: tuple[Reply, ...]
    request: Any = None
    params: tuple[Param, ...] = ()
    auth: Literal["none", "optional", "required"] = "none"
    tag: Literal["games", "tournaments", "rules", "operations"] = "games"
    credential: Literal["seat", "tournament"] = "seat"
    """Which bearer token `auth` asks for: a seat's player token, or a tournament's
    player secret or organizer token."""


def _problems(*codes: ErrorCode) -> tuple[Reply, ...]:
    statuses = sorted({PROBLEM_STATUS[c] for c in codes})
    return tuple(_problem_reply(s, [c for c in codes if PROBLEM_STATUS[c] == s]) for s in statuses)


def _problem_reply(status: int, codes: list[ErrorCode]) -> Reply:
    names = ", ".join(c.value for c in codes)
    return Reply(status, f"Problem ({names})", Problem, PROBLEM_MEDIA_TYPE)


IdempotencyKey = Annotated[str, msgspec.Meta(min_length=1, max_length=255, pattern="^[!-~]+$")]
_IDEMPOTENCY_KEY = Param(
    "Idempotency-Key",
    "header",
    IdempotencyKey,
    "A key of the client's choosing (a random one per request): the same request sent again with"
    " it, and the same body, gets the first one's answer instead of creating again (answers are"
    " kept a day); while the first is under way, 409 `out_of_order` with `Retry-After`; the same"
    " key with another body, 422 `validation_failed`.",
    required=False,
)
_GAME_ID = Param("game_id", "path", GameId, "The game's id.")
_TOURNAMENT_ID = Param("tournament_id", "path", TournamentId, "The tournament's id.")
_PLAYER_ID = Param("player_id", "path", PlayerId, "The player's id in the tournament.")

MARKDOWN_MEDIA_TYPE = "text/markdown; charset=utf-8"

_STORED_TAGS = ("games", "tournaments")
"""Routes with these tags read or write storage, so they may answer 503."""
_STORELESS = ("listGameTypes", "getGameType")


def _completed(route: Route) -> Route:
    """`route` with the problems any route of its kind may answer: 413 for a body too
    large, 503 when storage does not answer, 500 for an unexpected failure."""
    codes = [ErrorCode.INTERNAL]
    if route.request is not None:
        codes.append(ErrorCode.FRAME_TOO_LARGE)
    if route.tag in _STORED_TAGS and route.operation_id not in _STORELESS:
        codes.append(ErrorCode.UNAVAILABLE)
    taken = {reply.status for reply in route.replies}
    extra = tuple(reply for reply in _problems(*codes) if reply.status not in taken)
    replies = tuple(sorted(route.replies + extra, key=lambda reply: reply.status))
    return replace(route, replies=replies)


ROUTES: tuple[Route, ...] = tuple(map(_completed, (
    Route(
        "POST",
        f"{API_PREFIX}/games",
        "createGame",
        "Create a game; it starts when every seat is taken (at once when the request seats everyone)",
        request=CreateGame,
        params=(_IDEMPOTENCY_KEY,),
        replies=(
            Reply(201, "The new game, with every seat's token when the request seated everyone", CreatedGame),
            *_problems(
                ErrorCode.VALIDATION_FAILED,
                ErrorCode.BAD_CONFIG,
                ErrorCode.SANDBOX_DISABLED,
                ErrorCode.RATE_LIMITED,
                ErrorCode.TOO_MANY_LOBBIES,
                ErrorCode.OUT_OF_ORDER,
            ),
        ),
    ),
    Route(
        "GET",
        f"{API_PREFIX}/games",
        "listGames",
        "List games, open ones by default",
        params=(
            Param("game", "query", GameName, "Only games of this type.", required=False),
            Param("status", "query", GameStatus, "Only games in this status (default open).", required=False),
        ),
        replies=(Reply(200, "Matching games", GameList), *_problems(ErrorCode.VALIDATION_FAILED)),
    ),
    Route(
        "GET",
        f"{API_PREFIX}/game-types",
        "listGameTypes",
        "Every game this server plays: players, default sets, options, rules pages",
        replies=(Reply(200, "The game types", GameTypeList),),
    ),
    Route(
        "GET",
        f"{API_PREFIX}/game-types/{{game}}",
        "getGameType",
        "One game type: players, default sets, options, rules pages",
        params=(Param("game", "path", GameName, "The game's name (day_night, mishra_factory, ...)."),),
        replies=(Reply(200, "The game type", GameType), *_problems(ErrorCode.NOT_FOUND)),
    ),
    Route(
        "GET",
        f"{API_PREFIX}/games/{{game_id}}",
        "getGame",
        "A game as the token's seat sees it, or as a spectator without a token",
        params=(_GAME_ID,),
        auth="optional",
        replies=(
            Reply(200, "The game", GameSnapshot),
            *_problems(ErrorCode.UNAUTHORIZED, ErrorCode.NOT_FOUND),
        ),
    ),
    Route(
        "POST",
        f"{API_PREFIX}/games/{{game_id}}/seats",
        "joinSeat",
        "Take a seat; the answer holds the secret player token",
        request=JoinSeat,
        params=(_GAME_ID, _IDEMPOTENCY_KEY),
        replies=(
            Reply(201, "The seat and its token", SeatGrant),
            *_problems(
                ErrorCode.OUT_OF_ORDER,
                ErrorCode.VALIDATION_FAILED,
                ErrorCode.NOT_FOUND,
                ErrorCode.GAME_FULL,
                ErrorCode.SEAT_TAKEN,
                ErrorCode.GAME_STARTED,
                ErrorCode.INVITE_REQUIRED,
            ),
        ),
    ),
    Route(
        "DELETE",
        f"{API_PREFIX}/games/{{game_id}}/seat",
        "leaveSeat",
        "Give up the token's seat before the game starts",
        params=(_GAME_ID,),
        auth="required",
        replies=(
            Reply(204, "The seat is free again"),
            *_problems(ErrorCode.UNAUTHORIZED, ErrorCode.NOT_FOUND, ErrorCode.GAME_STARTED),
        ),
    ),
    Route(
        "GET",
        f"{API_PREFIX}/games/{{game_id}}/replay",
        "getReplay",
        "The seed, setup and full action log of a finished game",
        params=(_GAME_ID,),
        replies=(
            Reply(200, "The replay", Replay),
            *_problems(ErrorCode.NOT_FOUND, ErrorCode.GAME_NOT_OVER),
        ),
    ),
    Route(
        "POST",
        f"{API_PREFIX}/tournaments",
        "createTournament",
        "Create a tournament; the answer holds the organizer token",
        request=CreateTournament,
        params=(_IDEMPOTENCY_KEY,),
        tag="tournaments",
        replies=(
            Reply(201, "The new tournament and its organizer token", CreatedTournament),
            *_problems(ErrorCode.VALIDATION_FAILED, ErrorCode.BAD_CONFIG, ErrorCode.OUT_OF_ORDER),
        ),
    ),
    Route(
        "GET",
        f"{API_PREFIX}/tournaments/{{tournament_id}}",
        "getTournament",
        "A tournament and its players",
        params=(_TOURNAMENT_ID,),
        tag="tournaments",
        replies=(Reply(200, "The tournament", Tournament), *_problems(ErrorCode.NOT_FOUND)),
    ),
    Route(
        "POST",
        f"{API_PREFIX}/tournaments/{{tournament_id}}/players",
        "registerPlayer",
        "Register a player; the answer holds the player's secret",
        request=RegisterPlayer,
        params=(_TOURNAMENT_ID, _IDEMPOTENCY_KEY),
        tag="tournaments",
        replies=(
            Reply(201, "The player's id and secret", Registration),
            *_problems(ErrorCode.VALIDATION_FAILED, ErrorCode.NOT_FOUND, ErrorCode.OUT_OF_ORDER),
        ),
    ),
    Route(
        "DELETE",
        f"{API_PREFIX}/tournaments/{{tournament_id}}/players/{{player_id}}",
        "dropPlayer",
        "Drop a player (its own secret or the organizer token): it is paired no more; "
        "a game it is in goes on",
        params=(_TOURNAMENT_ID, _PLAYER_ID),
        auth="required",
        credential="tournament",
        tag="tournaments",
        replies=(
            Reply(204, "The player has dropped"),
            *_problems(
                ErrorCode.UNAUTHORIZED, ErrorCode.FORBIDDEN, ErrorCode.NOT_FOUND, ErrorCode.OUT_OF_ORDER
            ),
        ),
    ),
    Route(
        "POST",
        f"{API_PREFIX}/tournaments/{{tournament_id}}/start",
        "startTournament",
        "Start (organizer token): round 1 is paired and its games created at once",
        params=(_TOURNAMENT_ID,),
        auth="required",
        credential="tournament",
        tag="tournaments",
        replies=(
            Reply(200, "The running tournament", Tournament),
            *_problems(
                ErrorCode.UNAUTHORIZED, ErrorCode.FORBIDDEN, ErrorCode.NOT_FOUND, ErrorCode.OUT_OF_ORDER
            ),
        ),
    ),
    Route(
        "POST",
        f"{API_PREFIX}/tournaments/{{tournament_id}}/finish",
        "finishTournament",
        "Finish (organizer token): no round after the current one; before the start, the event ends at once",
        params=(_TOURNAMENT_ID,),
        auth="required",
        credential="tournament",
        tag="tournaments",
        replies=(
            Reply(200, "The tournament", Tournament),
            *_problems(
                ErrorCode.UNAUTHORIZED, ErrorCode.FORBIDDEN, ErrorCode.NOT_FOUND, ErrorCode.OUT_OF_ORDER
            ),
        ),
    ),
    Route(
        "GET",
        f"{API_PREFIX}/tournaments/{{tournament_id}}/standings",
        "getStandings",
        "The standings now",
        params=(_TOURNAMENT_ID,),
        tag="tournaments",
        replies=(Reply(200, "The standings", Standings), *_problems(ErrorCode.NOT_FOUND)),
    ),
    Route(
        "GET",
        f"{API_PREFIX}/tournaments/{{tournament_id}}/rounds/{{round}}",
        "getPairings",
        "One round's tables, games, byes and results",
        params=(_TOURNAMENT_ID, Param("round", "path", RoundNumber, "The round, 1 for the first.")),
        tag="tournaments",
        replies=(Reply(200, "The round", Pairings), *_problems(ErrorCode.NOT_FOUND)),
    ),
    Route(
        "GET",
        f"{API_PREFIX}/tournaments/{{tournament_id}}/table",
        "getMyTable",
        "Where the secret's player plays now: its game, seat and seat token",
        params=(_TOURNAMENT_ID,),
        auth="required",
        credential="tournament",
        tag="tournaments",
        replies=(
            Reply(200, "The player's current table", MyTable),
            *_problems(ErrorCode.UNAUTHORIZED, ErrorCode.NOT_FOUND),
        ),
    ),
    Route(
        "GET",
        f"{API_PREFIX}/rules/{{page}}",
        "getRules",
        "A page of the rules reference in Markdown: the common rules and refusal codes, or one game's",
        params=(
            Param("page", "path", RulesPage, "common, or a game's name (day_night, mishra_factory, ...)."),
            Param("lang", "query", RulesLanguage, "en (the default), fr or es.", required=False),
        ),
        tag="rules",
        replies=(
            Reply(200, "The page; each ruling has its id as heading and anchor", str, MARKDOWN_MEDIA_TYPE),
            *_problems(ErrorCode.VALIDATION_FAILED, ErrorCode.NOT_FOUND),
        ),
    ),
    Route(
        "GET",
        f"{API_PREFIX}/health",
        "getHealth",
        "Liveness",
        tag="operations",
        replies=(Reply(200, "The process is alive", Health),),
    ),
    Route(
        "GET",
        f"{API_PREFIX}/ready",
        "getReadiness",
        "Readiness: storage reachable and accepting games",
        tag="operations",
        replies=(Reply(200, "Ready", Readiness), Reply(503, "Not ready", Readiness)),
    ),
    Route(
        "GET",
        f"{API_PREFIX}/metrics",
        "getMetrics",
        "Prometheus metrics",
        tag="operations",
        replies=(Reply(200, "Metrics in the Prometheus text format", str, "text/plain; version=0.0.4"),),
    ),
    Route(
        "GET",
        f"{API_PREFIX}/openapi.json",
        "getOpenApi",
        "This API's OpenAPI 3.1 document",
        tag="operations",
        replies=(Reply(200, "The OpenAPI document", dict[str, Any]),),
    ),
)))  # fmt: skip
"""Every REST route of the protocol, in the order the OpenAPI document lists them."""
