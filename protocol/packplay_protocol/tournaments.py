"""REST bodies of tournaments: create, register, start, drop, finish, read standings and pairings.

A tournament plays rounds of games of one type. Its organizer creates it and gets the
organizer token; each player registers under a name and gets a player id and its own
secret, reused for the whole event. Once started, every round's games are created by
the server with their seats taken; a player asks for its current table (the game id,
its seat and the seat's token) and plays it over the WebSocket like any other game.
How pairings and standings are made is described in protocol/tournaments.md.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

import msgspec

from packplay_protocol.ids import GameId, GameName, PlayerName, PlayerToken, Seat, SetCode

TournamentFormat = Literal["swiss", "round_robin"]
"""`swiss`: paired by score each round; `round_robin`: everyone meets everyone once."""
TournamentStatus = Literal["registering", "running", "finished"]
TournamentId = Annotated[
    str,
    msgspec.Meta(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$", description="A tournament's id."),
]
PlayerId = Annotated[
    str,
    msgspec.Meta(
        min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$", description="A player's id in a tournament."
    ),
]
TournamentName = Annotated[str, msgspec.Meta(min_length=1, max_length=80, description="A display name.")]
RoundNumber = Annotated[int, msgspec.Meta(ge=1, le=64, description="A round, 1 for the first.")]
TableSize = Annotated[int, msgspec.Meta(ge=2, le=6)]
ClockSeconds = Annotated[float, msgspec.Meta(gt=0, le=86400)]
Share = Annotated[float, msgspec.Meta(ge=0, le=1)]


class CreateTournament(msgspec.Struct, frozen=True, kw_only=True):
    """Create a tournament; it takes registrations until its organizer starts it.

    `players_per_table` is 2 for the two-player games; Mishra's Factory takes 2 to 4 and
    Wedding Planner 2 to 6 (tables of 3 and more are grouped by score). A round robin has
    two players a table. `rounds` empty means log2 of the players for Swiss (rounded up)
    and every pairing once for a round robin. `turn_seconds` is the turn clock of every
    game: a seat whose clock runs out plays its default action, so every round ends.
    `late_registration` lets players register after the start, until the last round is
    paired (Swiss only); they join at the next round.
    """

    name: TournamentName
    game: GameName
    format: TournamentFormat = "swiss"
    players_per_table: TableSize = 2
    rounds: RoundNumber | None = None
    turn_seconds: ClockSeconds = 60.0
    late_registration: bool = False
    sets: tuple[SetCode, ...] = ()
    options: dict[str, Any] = msgspec.field(default_factory=dict)


class TournamentSummary(msgspec.Struct, frozen=True, kw_only=True):
    """A tournament as everyone may see it. `rounds` is fixed at the start (empty before,
    when the request left it to the number of players); `round` is the current round, 0
    before the start."""

    tournament_id: TournamentId
    name: TournamentName
    game: GameName
    format: TournamentFormat
    players_per_table: TableSize
    rounds: RoundNumber | None
    turn_seconds: ClockSeconds
    late_registration: bool
    sets: tuple[SetCode, ...]
    status: TournamentStatus
    round: Annotated[int, msgspec.Meta(ge=0, le=64)]
    players: Annotated[int, msgspec.Meta(ge=0)]
    """Registered players who have not dropped."""
    created_at: datetime


class CreatedTournament(msgspec.Struct, frozen=True, kw_only=True):
    """The new tournament. `organizer_token` is shown once: it starts and finishes the event
    and may drop any player (send it as `Authorization: Bearer <token>`)."""

    tournament: TournamentSummary
    organizer_token: PlayerToken


class RegisterPlayer(msgspec.Struct, frozen=True, kw_only=True):
    """Register for a tournament under a display name."""

    name: PlayerName


class Registration(msgspec.Struct, frozen=True, kw_only=True):
    """A registered player. `secret` is shown once: it proves the player for the whole
    event (its current table, dropping out); `joins_round` is its first round."""

    tournament_id: TournamentId
    player_id: PlayerId
    name: PlayerName
    secret: PlayerToken
    joins_round: RoundNumber


class TournamentPlayer(msgspec.Struct, frozen=True, kw_only=True):
    """A registered player: `dropped` is the last round it was in when it dropped (0 before
    the start), empty while it is in."""

    player_id: PlayerId
    name: PlayerName
    joins_round: RoundNumber
    dropped: Annotated[int, msgspec.Meta(ge=0, le=64)] | None = None


class Tournament(msgspec.Struct, frozen=True, kw_only=True):
    """A tournament and its players, in registration order."""

    summary: TournamentSummary
    players: tuple[TournamentPlayer, ...]


class StandingLine(msgspec.Struct, frozen=True, kw_only=True):
    """One player's line. Players equal on match points and the three percentages share a
    rank. The percentages are fractions between 1/3 (the floor) and 1."""

    rank: Annotated[int, msgspec.Meta(ge=1)]
    player_id: PlayerId
    name: PlayerName
    match_points: Annotated[int, msgspec.Meta(ge=0)]
    wins: Annotated[int, msgspec.Meta(ge=0)]
    draws: Annotated[int, msgspec.Meta(ge=0)]
    """Draws and shared wins."""
    losses: Annotated[int, msgspec.Meta(ge=0)]
    byes: Annotated[int, msgspec.Meta(ge=0)]
    match_win: Share
    opponents_match_win: Share
    game_win: Share
    opponents_game_win: Share
    dropped: bool = False


class Standings(msgspec.Struct, frozen=True, kw_only=True):
    """The standings now: every result recorded so far counts, including tables of the
    current round that are over. `complete_rounds` counts the rounds whose every table has
    a result; `final` is true once the event is over."""

    tournament_id: TournamentId
    round: Annotated[int, msgspec.Meta(ge=0, le=64)]
    complete_rounds: Annotated[int, msgspec.Meta(ge=0, le=64)]
    final: bool
    lines: tuple[StandingLine, ...]


class TableResult(msgspec.Struct, frozen=True, kw_only=True):
    """How a table's game ended: `winners` are player ids (several for a shared win, all of
    them on a draw), `scores` per seat."""

    winners: tuple[PlayerId, ...]
    draw: bool
    scores: tuple[float, ...]


class TableSeat(msgspec.Struct, frozen=True, kw_only=True):
    seat: Seat
    player_id: PlayerId
    name: PlayerName


class PairedTable(msgspec.Struct, frozen=True, kw_only=True):
    """One table of a round: its game (empty for the moment it takes to create it), its
    players in seat order, and its result once the game is over."""

    table: Annotated[int, msgspec.Meta(ge=1)]
    game_id: GameId | None = None
    seats: tuple[TableSeat, ...]
    result: TableResult | None = None


class Pairings(msgspec.Struct, frozen=True, kw_only=True):
    """One round's tables and byes; `complete` once every table has a result."""

    tournament_id: TournamentId
    round: RoundNumber
    tables: tuple[PairedTable, ...]
    byes: tuple[TableSeat, ...] = ()
    """Players sitting the round out with a bye (a match won); their seat is always 0."""
    complete: bool


TableStatus = Literal["registered", "playing", "waiting", "bye", "dropped", "finished"]


class MyTable(msgspec.Struct, frozen=True, kw_only=True):
    """Where the player plays now.

    - `registered`: the event has not started.
    - `playing`: seated in round `round` at `table`: join `game_id` over the WebSocket with
      `token` (the seat's own token) as any player does.
    - `waiting`: nothing to play now (its table is over, or the game of its table is being
      created, or it joins a later round); ask again shortly.
    - `bye`: it sits round `round` out with a bye.
    - `dropped`, `finished`: it has dropped, or the event is over.
    """

    tournament_id: TournamentId
    player_id: PlayerId
    status: TableStatus
    round: Annotated[int, msgspec.Meta(ge=0, le=64)]
    table: Annotated[int, msgspec.Meta(ge=1)] | None = None
    game_id: GameId | None = None
    seat: Seat | None = None
    token: PlayerToken | None = None


__all__ = [
    "CreateTournament",
    "CreatedTournament",
    "MyTable",
    "PairedTable",
    "Pairings",
    "PlayerId",
    "RegisterPlayer",
    "Registration",
    "RoundNumber",
    "StandingLine",
    "Standings",
    "TableResult",
    "TableSeat",
    "TableStatus",
    "Tournament",
    "TournamentFormat",
    "TournamentId",
    "TournamentPlayer",
    "TournamentStatus",
    "TournamentSummary",
]
