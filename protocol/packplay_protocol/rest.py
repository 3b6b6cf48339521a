"""REST bodies of the ``/v2`` lobby API, and the route table the server implements.

The OpenAPI document is generated from ``ROUTES``; the server mounts exactly
these routes. Errors are problem documents (RFC 9457) with a stable ``code``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Any, Literal

import msgspec

from packplay_protocol.catalog import AnyAction
from packplay_protocol.errors import ErrorCode
from packplay_protocol.games.common import GameResult
from packplay_protocol.ids import (
    ActionId,
    GameId,
    GameName,
    PlayerName,
    PlayerToken,
    Seat,
    Seed,
    SetCode,
    Version,
)
from packplay_protocol.to_client import ViewMessage
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

GameStatus = Literal["open", "playing", "over"]
"""``open`` waits for players, ``playing`` started when every seat was taken."""
Players = Annotated[int, msgspec.Meta(ge=1, le=16)]
TurnSeconds = Annotated[float, msgspec.Meta(gt=0, le=86400)]
InviteCode = Annotated[str, msgspec.Meta(min_length=1, max_length=64, pattern="^[A-Za-z0-9_-]+$")]
"""The secret that takes a seat of a private game (given to its creator only)."""


class CardRef(msgspec.Struct, frozen=True, kw_only=True):
    """A printed card by set and collector number (sandbox boosters)."""

    set: SetCode
    number: Annotated[str, msgspec.Meta(min_length=1, max_length=16)]
    foil: bool = False


class CreateGame(msgspec.Struct, frozen=True, kw_only=True):
    """Create a game. `sets` empty means the game's default sets.

    `turn_seconds` turns on the turn clock. `seed` and `boosters` (one card list per
    booster the game opens) are accepted only by a sandbox server. `seats`, one player
    name per seat, takes every seat at once: the game starts right away and the answer
    holds every seat's token (for an organizer seating a table, or one client playing
    several seats); without it the game waits in the lobby for its seats to be taken.

    `private` keeps the game out of every listing, and its seats are taken only with the
    invite code the answer holds (anyone with the game's id may still watch it). A client
    may create only so many games a minute, and have only so many waiting for players.
    """

    game: GameName
    players: Players
    sets: tuple[SetCode, ...] = ()
    options: dict[str, Any] = msgspec.field(default_factory=dict)
    turn_seconds: TurnSeconds | None = None
    seed: Seed | None = None
    boosters: tuple[tuple[CardRef, ...], ...] | None = None
    seats: tuple[PlayerName, ...] | None = None
    private: bool = False


class SeatInfo(msgspec.Struct, frozen=True, kw_only=True):
    """One seat of a game: ``name`` is None while the seat is free."""

    seat: Seat
    name: PlayerName | None = None


class GameSummary(msgspec.Struct, frozen=True, kw_only=True):
    """A game as the lobby lists it."""

    game_id: GameId
    game: GameName
    status: GameStatus
    players: Players
    seats: tuple[SeatInfo, ...]
    sets: tuple[SetCode, ...]
    version: Version
    created_at: datetime
    turn_seconds: TurnSeconds | None = None
    sandbox: bool = False
    private: bool = False


class SeatGrant(msgspec.Struct, frozen=True, kw_only=True):
    """A taken seat. `token` is shown once: it authenticates REST calls and `hello`."""

    game_id: GameId
    seat: Seat
    token: PlayerToken


class CreatedGame(GameSummary, frozen=True, kw_only=True):
    """The new game; `grants` holds one seat grant per seat when the request named them.
    `invite` is the code that takes a seat of a private game waiting for players (shown
    once: share it with the players)."""

    grants: tuple[SeatGrant, ...] = ()
    invite: InviteCode | None = None


class GameList(msgspec.Struct, frozen=True, kw_only=True):
    """Games matching a lobby query, newest first."""

    games: tuple[GameSummary, ...]


class JoinSeat(msgspec.Struct, frozen=True, kw_only=True):
    """Take a seat: `seat` null takes the lowest free one; `invite`: the code of a private game."""

    name: PlayerName
    seat: Seat | None = None
    invite: InviteCode | None = None


class GameSnapshot(msgspec.Struct, frozen=True, kw_only=True):
    """A game as the caller's seat (or a spectator) sees it; ``state`` is None until it starts."""

    summary: GameSummary
    state: ViewMessage | None = None


class GameSetup(msgspec.Struct, frozen=True, kw_only=True):
    """Everything a game was set up from, besides the seed."""

    game: GameName
    players: Players
    sets: tuple[SetCode, ...]
    options: dict[str, Any] = msgspec.field(default_factory=dict)
    boosters: tuple[tuple[CardRef, ...], ...] | None = None


class LoggedAction(msgspec.Struct, frozen=True, kw_only=True):
    """One applied action: it took the game from ``version - 1`` to ``version``.

    ``timed_out`` marks an action the server played for a seat whose clock ran out.
    """

    version: Version
    seat: Seat
    action: AnyAction
    action_id: ActionId | None = None
    timed_out: bool = False


class Replay(msgspec.Struct, frozen=True, kw_only=True):
    """A finished game: replaying ``log`` on the game set up from ``setup`` and ``seed``
    gives ``result``."""

    game_id: GameId
    setup: GameSetup
    seed: Seed
    log: tuple[LoggedAction, ...]
    result: GameResult


class Health(msgspec.Struct, frozen=True, kw_only=True):
    """Liveness: the process answers."""

    status: Literal["ok"] = "ok"
    server: str
    protocols: tuple[str, ...]


class Readiness(msgspec.Struct, frozen=True, kw_only=True):
    """Readiness: whether this process can serve games now, check by check."""

    ready: bool
    checks: dict[str, bool]


class Problem(msgspec.Struct, frozen=True, kw_only=True):
    """An RFC 9457 problem document; clients branch on ``code``, never on ``title``."""

    type: str
    title: str
    status: Annotated[int, msgspec.Meta(ge=400, le=599)]
    code: ErrorCode
    detail: str | None = None
    instance: str | None = None


PROBLEM_MEDIA_TYPE = "application/problem+json"

PROBLEM_STATUS: dict[ErrorCode, int] = {
    ErrorCode.BAD_MESSAGE: 400,
    ErrorCode.UNKNOWN_TYPE: 400,
    ErrorCode.VALIDATION_FAILED: 422,
    ErrorCode.BAD_CONFIG: 422,
    ErrorCode.FRAME_TOO_LARGE: 413,
    ErrorCode.UNSUPPORTED_VERSION: 400,
    ErrorCode.OUT_OF_ORDER: 409,
    ErrorCode.UNAUTHORIZED: 401,
    ErrorCode.FORBIDDEN: 403,
    ErrorCode.SANDBOX_DISABLED: 403,
    ErrorCode.NOT_FOUND: 404,
    ErrorCode.GAME_FULL: 409,
    ErrorCode.SEAT_TAKEN: 409,
    ErrorCode.GAME_STARTED: 409,
    ErrorCode.GAME_NOT_OVER: 409,
    ErrorCode.RATE_LIMITED: 429,
    ErrorCode.TOO_MANY_LOBBIES: 429,
    ErrorCode.INVITE_REQUIRED: 403,
    ErrorCode.INTERNAL: 500,
    ErrorCode.UNAVAILABLE: 503,
}
"""The HTTP status that goes with each code in a problem document."""


def problem(code: ErrorCode, detail: str | None = None, instance: str | None = None) -> Problem:
    """The problem document for ``code``, with its usual status and title."""
    return Problem(
        type=f"urn:packplay:problem:{code.value}",
        title=code.value.replace("_", " ").capitalize(),
        status=PROBLEM_STATUS[code],
        code=code,
        detail=detail,
        instance=instance,
    )


@dataclass(frozen=True)
class Param:
    """A path, query or header parameter of a route."""

    name: str
    where: Literal["path", "query"]
    type: Any
    description: str
    required: bool = True


@dataclass(frozen=True)
class Reply:
    """One documented response: ``body`` None means no body."""

    status: int
    description: str
    body: Any = None
    media_type: str = "application/json"


@dataclass(frozen=True)
class Route:
    """One REST route. ``auth``: whether the player token (``Authorization: Bearer``) is needed."""

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
    """Which bearer token ``auth`` asks for: a seat's player token, or a tournament's
    player secret or organizer token."""


def _problems(*codes: ErrorCode) -> tuple[Reply, ...]:
    statuses = sorted({PROBLEM_STATUS[c] for c in codes})
    return tuple(_problem_reply(s, [c for c in codes if PROBLEM_STATUS[c] == s]) for s in statuses)


def _problem_reply(status: int, codes: list[ErrorCode]) -> Reply:
    names = ", ".join(c.value for c in codes)
    return Reply(status, f"Problem ({names})", Problem, PROBLEM_MEDIA_TYPE)


_GAME_ID = Param("game_id", "path", GameId, "The game's id.")
_TOURNAMENT_ID = Param("tournament_id", "path", TournamentId, "The tournament's id.")
_PLAYER_ID = Param("player_id", "path", PlayerId, "The player's id in the tournament.")

RulesPage = Annotated[str, msgspec.Meta(pattern="^[a-z_]{1,32}$")]
"""A page of the rules reference: ``common``, or a game's name."""
RulesLanguage = Annotated[str, msgspec.Meta(pattern="^[a-z]{2}$")]
"""A language of the rules reference: ``en``, ``fr`` or ``es``."""
MARKDOWN_MEDIA_TYPE = "text/markdown; charset=utf-8"

ROUTES: tuple[Route, ...] = (
    Route(
        "POST",
        f"{API_PREFIX}/games",
        "createGame",
        "Create a game; it starts when every seat is taken (at once when the request seats everyone)",
        request=CreateGame,
        replies=(
            Reply(201, "The new game, with every seat's token when the request seated everyone", CreatedGame),
            *_problems(
                ErrorCode.VALIDATION_FAILED,
                ErrorCode.BAD_CONFIG,
                ErrorCode.SANDBOX_DISABLED,
                ErrorCode.RATE_LIMITED,
                ErrorCode.TOO_MANY_LOBBIES,
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
        params=(_GAME_ID,),
        replies=(
            Reply(201, "The seat and its token", SeatGrant),
            *_problems(
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
        tag="tournaments",
        replies=(
            Reply(201, "The new tournament and its organizer token", CreatedTournament),
            *_problems(ErrorCode.VALIDATION_FAILED, ErrorCode.BAD_CONFIG),
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
        params=(_TOURNAMENT_ID,),
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
)
"""Every REST route of the protocol, in the order the OpenAPI document lists them."""
