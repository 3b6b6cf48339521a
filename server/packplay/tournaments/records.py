"""A tournament's records as storage keeps them and the runner reads them: plain values.

A tournament is its meta (its name, its configuration, its seed, the organizer token's
digest), its players in registration order, each paired round's tables, each table's game
and result. :class:`TournamentSnapshot` is all of it at one version.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal

import msgspec

from packplay.tournaments.model import Entrant, Format, Result, Round, Table

Status = Literal["registering", "running", "finished"]
"""Taking registrations, playing its rounds, over."""


class TournamentConfig(msgspec.Struct, frozen=True, kw_only=True):
    """How the event is played; never changes after creation."""

    game: str
    format: Format
    players_per_table: int
    rounds: int | None
    turn_seconds: float
    late_registration: bool
    sets: tuple[str, ...] = ()
    options: dict[str, Any] = msgspec.field(default_factory=dict)


class TournamentMeta(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    config: TournamentConfig
    seed: int
    created: float
    organizer: str
    """The organizer token's digest."""


class PlayerRecord(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    secret: str
    """The player secret's digest."""
    seq: int
    """Registration order."""
    joined: int = 1
    dropped: int | None = None

    def entrant(self) -> Entrant:
        return Entrant(id=self.id, name=self.name, joined=self.joined, dropped=self.dropped)


@dataclass(frozen=True)
class TournamentSnapshot:
    """A tournament as read at one version."""

    meta: TournamentMeta
    status: Status
    version: int
    round: int
    rounds: int | None
    pairings: dict[int, Round] = field(default_factory=dict)
    """Each paired round's tables and byes, without results."""
    players: tuple[PlayerRecord, ...] = ()
    """In registration order."""
    games: dict[str, str] = field(default_factory=dict)
    """``<round>:<table>`` -> game id."""
    results: dict[str, Result] = field(default_factory=dict)

    @property
    def id(self) -> str:
        return self.meta.id

    def entrants(self) -> list[Entrant]:
        return [player.entrant() for player in self.players]

    def player(self, player_id: str) -> PlayerRecord | None:
        return self._by_id.get(player_id)

    def table_of(self, number: int, player_id: str) -> Table | None:
        """The table of round ``number`` that seats the player (without its result)."""
        return self._seating(number).get(player_id)

    @cached_property
    def _by_id(self) -> dict[str, PlayerRecord]:
        return {p.id: p for p in self.players}

    @cached_property
    def _tables(self) -> dict[int, dict[str, Table]]:
        return {}

    def _seating(self, number: int) -> dict[str, Table]:
        found = self._tables.get(number)
        if found is None:
            paired = self.pairings.get(number)
            tables = paired.tables if paired is not None else ()
            found = self._tables[number] = {p: t for t in tables for p in t.players}
        return found

    def played(self, number: int) -> Round | None:
        """Round ``number`` with the results recorded so far."""
        paired = self.pairings.get(number)
        if paired is None:
            return None
        tables = tuple(
            msgspec.structs.replace(t, result=self.results.get(table_field(number, t.number)))
            for t in paired.tables
        )
        return msgspec.structs.replace(paired, tables=tables)

    def complete(self, number: int) -> bool:
        """Whether every table of round ``number`` has its result."""
        paired = self.pairings.get(number)
        return paired is not None and all(
            table_field(number, t.number) in self.results for t in paired.tables
        )

    def history(self) -> list[Round]:
        """Every paired round, with its results so far."""
        return [r for n in sorted(self.pairings) if (r := self.played(n)) is not None]

    def game_of(self, number: int, table: Table) -> str | None:
        return self.games.get(table_field(number, table.number))


def table_field(round_number: int, table: int) -> str:
    """How a table is named among a tournament's games and results: ``<round>:<table>``."""
    return f"{round_number}:{table}"
