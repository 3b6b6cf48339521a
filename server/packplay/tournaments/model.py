"""What a tournament is made of: entrants, and rounds of tables with their results."""

from __future__ import annotations

from typing import Literal

import msgspec

Format = Literal["swiss", "round_robin"]


class Result(msgspec.Struct, frozen=True, kw_only=True):
    """How one table's game ended, by seat: seat ``i`` is the table's ``i``-th player.

    ``winners`` holds several seats when they share the win; every seat with ``draw``.
    ``scores`` breaks no tie of match points: it only orders the seats that did not win
    (see :func:`packplay.tournaments.standings.beats`).
    """

    winners: tuple[int, ...]
    draw: bool = False
    scores: tuple[float, ...] = ()


class Table(msgspec.Struct, frozen=True, kw_only=True):
    """One game of a round: its players in seat order, and its result once it has one."""

    number: int
    """1 for the round's first table."""
    players: tuple[str, ...]
    result: Result | None = None


class Round(msgspec.Struct, frozen=True, kw_only=True):
    """One round: its tables, and the entrants who sit out with a bye."""

    number: int
    """1 for the first round."""
    tables: tuple[Table, ...]
    byes: tuple[str, ...] = ()

    @property
    def complete(self) -> bool:
        """Whether every table has a result."""
        return all(table.result is not None for table in self.tables)

    def with_result(self, number: int, result: Result) -> Round:
        """This round with table ``number``'s result set."""
        tables = tuple(
            msgspec.structs.replace(t, result=result) if t.number == number else t for t in self.tables
        )
        return msgspec.structs.replace(self, tables=tables)


class Entrant(msgspec.Struct, frozen=True, kw_only=True):
    """A registered player of the event."""

    id: str
    name: str
    joined: int = 1
    """The first round the entrant may be paired in (later than 1 for a late registration)."""
    dropped: int | None = None
    """The last round the entrant was in when it dropped (0: before the start); None while in."""

    def plays_in(self, round_number: int) -> bool:
        """Whether the entrant is paired in ``round_number``."""
        return self.joined <= round_number and (self.dropped is None or round_number <= self.dropped)
