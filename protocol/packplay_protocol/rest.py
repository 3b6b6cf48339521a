"""REST bodies of the `/v2` API: games created, joined, listed, read and replayed, the game
types, health and readiness. The routes that carry them are in
:mod:`packplay_protocol.route_table`, errors in :mod:`packplay_protocol.problems`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

import msgspec

from packplay_protocol import catalog, rules
from packplay_protocol.audit import REPLAY_FORMAT, AnyDeal, ReplayFormat
from packplay_protocol.cards import CardId, CardInstance
from packplay_protocol.catalog import AnyAction
from packplay_protocol.games import base_race, day_night, mishra_factory, wedding_planner
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
from packplay_protocol.version import API_PREFIX

GameStatus = Literal["open", "playing", "over"]
"""`open` waits for players, `playing` started when every seat was taken."""
Players = Annotated[int, msgspec.Meta(ge=1, le=16)]
RulesPage = Annotated[str, msgspec.Meta(pattern="^[a-z_]{1,32}$")]
"""A page of the rules reference: `common`, or a game's name."""
RulesLanguage = Annotated[str, msgspec.Meta(pattern="^[a-z]{2}$")]
"""A language of the rules reference: `en`, `fr` or `es`."""
TurnSeconds = Annotated[float, msgspec.Meta(gt=0, le=86400)]
InviteCode = Annotated[str, msgspec.Meta(min_length=1, max_length=64, pattern="^[A-Za-z0-9_-]+$")]
"""The secret that takes a seat of a private game (given to its creator only)."""


class CardRef(msgspec.Struct, frozen=True, kw_only=True):
    """A printed card by set and collector number (sandbox boosters)."""

    set: SetCode
    number: Annotated[str, msgspec.Meta(min_length=1, max_length=16)]
    foil: bool = False


HouseBot = Literal["random", "first", "easy", "medium", "hard", "strong", "greedy", "thoughtful"]
"""The bots the server can seat: the house's levels `easy`, `medium`, `hard` and `strong` (the
protocol's page on the house says how each decides and its budget); `greedy` and `thoughtful`,
sparring partners written from the printed rules (a greedy player, and one that looks one move
ahead); `random` plays a random legal action, `first` the first legal one."""


class HouseSeat(msgspec.Struct, frozen=True, kw_only=True):
    """A seat the server plays itself, with the built-in bot `bot`."""

    seat: Seat
    bot: HouseBot = "strong"


class _CreateGameBase(msgspec.Struct, frozen=True, kw_only=True, tag_field="game"):
    """What every create-game body has besides `game`, `players` and `options`."""

    sets: tuple[SetCode, ...] = ()
    turn_seconds: TurnSeconds | None = None
    seed: Seed | None = None
    boosters: tuple[tuple[CardRef, ...], ...] | None = None
    seats: tuple[PlayerName, ...] | None = None
    house: tuple[HouseSeat, ...] = ()
    private: bool = False

    @property
    def game(self) -> str:
        """The game's name: this body's `game` tag."""
        return str(self.__struct_config__.tag)

    def _check(self, players: int, options: Any) -> None:
        options.check(players)
        house = [seat.seat for seat in self.house]
        if len(set(house)) != len(house):
            raise ValueError("Expected distinct seats: a seat is listed twice - at `$.house`")
        if any(seat >= players for seat in house):
            raise ValueError(f"Expected seats of this game, seats 0 to {players - 1} - at `$.house`")
        if len(house) >= players:
            raise ValueError(
                "Expected fewer house seats: leave at least one seat for a player - at `$.house`"
            )
        named = players - len(house)
        if self.seats is not None and len(self.seats) != named:
            whose = " the house does not play" if house else ""
            raise ValueError(f"Expected a player name for each of the {named} seats{whose} - at `$.seats`")


_CREATE_GAME_DOC = """Create a {title} game. `sets` empty means the game's default sets.

    `turn_seconds` turns on the turn clock. `seed` and `boosters` (one card list per
    booster the game opens) are accepted only by a sandbox server. `seats`, one player
    name per seat, takes every seat at once: the game starts right away and the answer
    holds every seat's token (for an organizer seating a table, or one client playing
    several seats); without it the game waits in the lobby for its seats to be taken.

    `house` lists seats the server plays itself (the house), each with a built-in bot:
    those seats are taken at once, at least one seat stays for a player, and `seats`
    then names only the other seats, in seat order. A player alone creates a game with
    the house in every other seat and takes the last seat: the game starts at once.
    The house plays through the same rules and turn clock as any player, and decides
    from what its seat is sent, never more.

    `private` keeps the game out of every listing, and its seats are taken only with the
    invite code the answer holds (anyone with the game's id may still watch it). A client
    may create only so many games a minute, and have only so many waiting for players.
    """


class CreateDayNightGame(_CreateGameBase, frozen=True, kw_only=True, tag="day_night"):
    __doc__ = _CREATE_GAME_DOC.format(title=day_night.FACTS.title)

    players: Annotated[int, msgspec.Meta(ge=day_night.FACTS.min_players, le=day_night.FACTS.max_players)]
    options: day_night.Options = msgspec.field(default_factory=day_night.Options)

    def __post_init__(self) -> None:
        self._check(self.players, self.options)


class CreateMishraFactoryGame(_CreateGameBase, frozen=True, kw_only=True, tag="mishra_factory"):
    __doc__ = _CREATE_GAME_DOC.format(title=mishra_factory.FACTS.title)

    players: Annotated[
        int, msgspec.Meta(ge=mishra_factory.FACTS.min_players, le=mishra_factory.FACTS.max_players)
    ]
    options: mishra_factory.Options = msgspec.field(default_factory=mishra_factory.Options)

    def __post_init__(self) -> None:
        self._check(self.players, self.options)


class CreateWeddingPlannerGame(_CreateGameBase, frozen=True, kw_only=True, tag="wedding_planner"):
    __doc__ = _CREATE_GAME_DOC.format(title=wedding_planner.FACTS.title)

    players: Annotated[
        int, msgspec.Meta(ge=wedding_planner.FACTS.min_players, le=wedding_planner.FACTS.max_players)
    ]
    options: wedding_planner.Options = msgspec.field(default_factory=wedding_planner.Options)

    def __post_init__(self) -> None:
        self._check(self.players, self.options)


class CreateBaseRaceGame(_CreateGameBase, frozen=True, kw_only=True, tag="base_race"):
    __doc__ = _CREATE_GAME_DOC.format(title=base_race.FACTS.title)

    players: Annotated[int, msgspec.Meta(ge=base_race.FACTS.min_players, le=base_race.FACTS.max_players)]
    options: base_race.Options = msgspec.field(default_factory=base_race.Options)

    def __post_init__(self) -> None:
        self._check(self.players, self.options)


CreateGame = CreateDayNightGame | CreateMishraFactoryGame | CreateWeddingPlannerGame | CreateBaseRaceGame
"""The create-game body: one struct per game, told apart by `game`."""

CREATE_GAME_TYPES: dict[str, type[_CreateGameBase]] = {
    t.__struct_config__.tag: t  # type: ignore[misc]
    for t in (CreateDayNightGame, CreateMishraFactoryGame, CreateWeddingPlannerGame, CreateBaseRaceGame)
}
"""Game name -> its create-game body."""


def create_game(game: str, players: int, **fields: Any) -> CreateGame:
    """The create-game body for `game`, checked as the server checks what it receives.

    Raises:
        msgspec.ValidationError: an unknown game or an invalid member (the message ends
            with the member's path, as in `- at `$.options.first_seat``).
    """
    body = {"game": game, "players": players, **{k: v for k, v in fields.items() if v is not None}}
    created: CreateGame = msgspec.convert(body, CreateGame)
    return created


class SeatInfo(msgspec.Struct, frozen=True, kw_only=True):
    """One seat of a game: `name` is null while the seat is free."""

    seat: Seat
    name: PlayerName | None = None
    house: HouseBot | None = None


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
    """Take a seat: `seat` null (or left out) takes the lowest free one; `invite`: the code of a
    private game."""

    name: PlayerName
    seat: Seat | None = None
    invite: InviteCode | None = None


class GameSnapshot(msgspec.Struct, frozen=True, kw_only=True):
    """A game as the caller's seat (or a spectator) sees it; `state` is null until it starts."""

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
    """One applied action: it took the game from `version - 1` to `version`.

    `timed_out` marks an action the server played for a seat whose clock ran out.
    """

    version: Version
    seat: Seat
    action: AnyAction
    action_id: ActionId | None = None
    timed_out: bool = False


class Replay(msgspec.Struct, frozen=True, kw_only=True):
    """A finished game, for audit: replaying `log` on the set-up gives `result`.

    `format` versions this document (packplay.replay.1). `deal` is the explicit
    set-up (what each seat was dealt, the pile order, roles, first seat, themes) and
    `cards` the facts of every card of the game by id, so the game can be checked
    without Packplay's random generator or card catalog. `setup` and `seed` are what
    Packplay set the game up from: the same game again with Packplay's engines.
    """

    format: ReplayFormat = REPLAY_FORMAT
    game_id: GameId
    setup: GameSetup
    seed: Seed
    deal: AnyDeal
    cards: dict[CardId, CardInstance]
    log: tuple[LoggedAction, ...]
    result: GameResult


OptionType = Literal["boolean", "integer", "string", "array"]
OptionValue = bool | int | str | None
"""A value an option lists among its allowed values, or as its default."""
Audience = Literal["seat", "spectator"]
"""Who may watch a game: a `seat` sees its own hidden cards, a `spectator` only what is public."""


class GameOption(msgspec.Struct, frozen=True, kw_only=True):
    """One option of a game, as `options` of the create-game body takes it.

    `type` is the JSON type of a value other than null; `nullable` says whether null is
    allowed too. `default` is what leaving the option out means. `values` lists every
    allowed value when there are few (null among them when `nullable`), and is null
    otherwise; `minimum` and `maximum` bound an integer. `schema` is the JSON Schema of
    the option in the create-game body.
    """

    name: str
    type: OptionType
    nullable: bool
    default: OptionValue
    description: str
    values: tuple[OptionValue, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    schema: dict[str, Any]


class RulesLink(msgspec.Struct, frozen=True, kw_only=True):
    """A page of the rules reference in one language, at `path` (GET it for Markdown)."""

    lang: RulesLanguage
    path: str


class GameType(msgspec.Struct, frozen=True, kw_only=True):
    """A game this server plays: its name on the wire, its printed title, how many players
    it takes, the sets it opens when a request names none, its options, and where its
    rules are.

    `simultaneous` is true when seats make some decisions at the same time, each kept
    secret until all have chosen. `audiences` lists who may watch a game: seats and
    spectators. `rules` links the game's page of the rules reference in each language;
    `common_rules` the page of the rules and refusal codes shared by every game.
    """

    game: GameName
    title: str
    min_players: Players
    max_players: Players
    default_sets: tuple[SetCode, ...]
    options: tuple[GameOption, ...]
    simultaneous: bool
    audiences: tuple[Audience, ...]
    rules: tuple[RulesLink, ...]
    common_rules: tuple[RulesLink, ...]


class GameTypeList(msgspec.Struct, frozen=True, kw_only=True):
    """Every game this server plays, in a fixed order."""

    games: tuple[GameType, ...]


_FEW_VALUES = 16
"""An integer option with at most this many allowed values lists them all in `values`."""


def game_type(game: str) -> GameType:
    """The game-types entry of `game`, read from its protocol module.

    Raises:
        KeyError: no game has that name.
    """
    types = catalog.GAMES[game]
    facts = types.facts
    return GameType(
        game=game,
        title=facts.title,
        min_players=facts.min_players,
        max_players=facts.max_players,
        default_sets=facts.default_sets,
        options=game_options(types.options),
        simultaneous=facts.simultaneous,
        audiences=("seat", "spectator"),
        rules=_rules_links(game),
        common_rules=_rules_links(rules.COMMON),
    )


def game_type_list() -> GameTypeList:
    """Every game of the protocol, in the catalog's order."""
    return GameTypeList(games=tuple(game_type(name) for name in catalog.GAMES))


def _rules_links(page: str) -> tuple[RulesLink, ...]:
    return tuple(
        RulesLink(lang=lang, path=f"{API_PREFIX}/rules/{page}?lang={lang}") for lang in rules.languages()
    )


def game_options(options: type[msgspec.Struct]) -> tuple[GameOption, ...]:
    """Each field of an options struct, described from its JSON Schema."""
    document = msgspec.json.schema(options)
    properties = document["$defs"][options.__name__]["properties"]
    return tuple(_option(name, schema) for name, schema in properties.items())


def _option(name: str, schema: dict[str, Any]) -> GameOption:
    schema = msgspec.json.decode(msgspec.json.encode(schema))  # tuples to lists: JSON values only
    alternatives = schema.get("anyOf", [schema])
    nullable = {"type": "null"} in alternatives
    (value,) = [a for a in alternatives if a != {"type": "null"}]
    kind = value["type"]
    low, high = value.get("minimum"), value.get("maximum")
    values: list[OptionValue] | None = None
    if kind == "boolean":
        values = [True, False]
    elif kind == "integer" and low is not None and high is not None and high - low < _FEW_VALUES:
        values = list(range(low, high + 1))
    if values is not None and nullable:
        values.append(None)
    return GameOption(
        name=name,
        type=kind,
        nullable=nullable,
        default=schema.get("default"),
        description=schema.get("description", ""),
        values=None if values is None else tuple(values),
        minimum=low,
        maximum=high,
        schema={k: v for k, v in schema.items() if k != "description"},
    )


class Health(msgspec.Struct, frozen=True, kw_only=True):
    """Liveness: the process answers."""

    status: Literal["ok"] = "ok"
    server: str
    protocols: tuple[str, ...]


class Readiness(msgspec.Struct, frozen=True, kw_only=True):
    """Readiness: whether this process can serve games now, check by check."""

    ready: bool
    checks: dict[str, bool]
