"""Standings: match points, then opponents' match-win %, game-win %, opponents' game-win %.

How a table counts for each of its players (the same rules for two seats and for six):

- **Match points.** The sole winner gets 3. A shared win counts as a draw among the
  winners: each gets 1, as each player of a drawn game does. Everyone else gets 0.
  A bye is a match won: 3.
- **Game points** measure the place taken at the table: a player gets 3 for each
  opponent it beat and 1 for each it tied with, divided by its number of opponents
  (so 0 to 3). A winner beats every seat that did not win and ties with the other
  winners; among the seats that did not win, the higher score beats the lower and
  equal scores tie. In a two-seat game this gives 3, 1 or 0: the match points again.
  A bye gives 3.
- **Percentages.** Match-win % is match points over 3 per match played (byes count as
  matches played); game-win % is game points over 3 per match played. Each is at least
  1/3 (the usual 33% floor), also before a first match. Opponents' match-win % is the
  mean of the match-win % of every opponent met, once per meeting; opponents' game-win %
  likewise. A bye is no opponent. With no opponent yet both are 1/3.

Players are ranked by match points, then opponents' match-win %, game-win %, and
opponents' game-win %; players equal on all four share a rank (listed in registration
order). Percentages are exact fractions.

:func:`standings` computes them from every round; a :class:`Ledger` keeps them result by
result (each table counted once, each player's percentages and its opponents' sums
updated where they change), for a server that hears of results one at a time. Both give
the same lines.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from packplay.tournaments.model import Entrant, Result, Round

FLOOR = Fraction(1, 3)
WIN, DRAW = 3, 1


@dataclass(frozen=True)
class Standing:
    """One entrant's line in the standings."""

    id: str
    name: str
    rank: int
    match_points: int
    wins: int
    draws: int
    losses: int
    byes: int
    match_win: Fraction
    opponents_match_win: Fraction
    game_win: Fraction
    opponents_game_win: Fraction
    dropped: bool

    @property
    def matches(self) -> int:
        return self.wins + self.draws + self.losses + self.byes


@dataclass
class _Tally:
    match_points: int = 0
    game_points: Fraction = Fraction(0)
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    opponents: list[str] = field(default_factory=list)

    @property
    def matches(self) -> int:
        return self.wins + self.draws + self.losses + self.byes

    def match_win(self) -> Fraction:
        return _floored(Fraction(self.match_points), self.matches)

    def game_win(self) -> Fraction:
        return _floored(self.game_points, self.matches)


def beats(result: Result, seat: int, other: int) -> int:
    """1 when ``seat`` finished ahead of ``other``, 0 on a tie, -1 behind."""
    won, other_won = seat in result.winners, other in result.winners
    if won != other_won:
        return 1 if won else -1
    if won or not result.scores:
        return 0
    mine, theirs = result.scores[seat], result.scores[other]
    return (mine > theirs) - (mine < theirs)


def match_points(result: Result, seat: int) -> int:
    """3 for the sole winner, 1 for each winner of a shared win or a draw, else 0."""
    if seat not in result.winners:
        return 0
    return WIN if len(result.winners) == 1 else DRAW


def game_points(result: Result, seats: int, seat: int) -> Fraction:
    """3 per opponent beaten and 1 per opponent tied, over the number of opponents."""
    place = {1: WIN, 0: DRAW, -1: 0}
    total = sum(place[beats(result, seat, other)] for other in range(seats) if other != seat)
    return Fraction(total, seats - 1)


def standings(entrants: Sequence[Entrant], rounds: Iterable[Round]) -> list[Standing]:
    """Every entrant that was in the event once it started, best first.

    Tables without a result yet count for nobody; an entrant dropped before the start
    (``dropped == 0``) is left out.
    """
    present = [e for e in entrants if e.dropped != 0]
    tallies = _tallies(present, rounds)
    match_win = {player: tally.match_win() for player, tally in tallies.items()}
    game_win = {player: tally.game_win() for player, tally in tallies.items()}
    keyed = []
    for order, entrant in enumerate(present):
        tally = tallies[entrant.id]
        key = (
            tally.match_points,
            _mean(match_win[o] for o in tally.opponents),
            game_win[entrant.id],
            _mean(game_win[o] for o in tally.opponents),
        )
        keyed.append((key, order, entrant))
    keyed.sort(key=lambda item: (tuple(-part for part in item[0]), item[1]))
    lines: list[Standing] = []
    for position, (key, _, entrant) in enumerate(keyed):
        rank = lines[-1].rank if lines and keyed[position - 1][0] == key else position + 1
        lines.append(_line(entrant, tallies[entrant.id], rank, key))
    return lines


class Ledger:
    """Standings kept up to date as results come: :meth:`lines` equals :func:`standings`
    over the rounds whose tables and byes were added (each table and round added once).

    A result changes the percentages of the table's players only, so only the sums of
    their opponents' percentages move with it, and only those players' keys are made
    again; ranking is then a sort by keys already known (by floats, exact ties kept exact:
    see :meth:`lines`).
    """

    def __init__(self) -> None:
        self._tallies: dict[str, _Tally] = defaultdict(_Tally)
        self._match_win: dict[str, Fraction] = {}
        self._game_win: dict[str, Fraction] = {}
        self._opponents_match_win: dict[str, Fraction] = defaultdict(Fraction)
        """Sum over every meeting of the opponent's match-win %."""
        self._opponents_game_win: dict[str, Fraction] = defaultdict(Fraction)
        self._keys: dict[str, tuple[Rough, Exact, Key]] = {}
        """Each player's sort key as floats, as integers (to compare) and as fractions,
        dropped when it may have changed."""

    def add_byes(self, byes: Iterable[str]) -> None:
        """A round's byes (add each round's once)."""
        for bye in byes:
            before = self._before([bye])
            tally = self._tallies[bye]
            tally.byes += 1
            tally.match_points += WIN
            tally.game_points += WIN
            self._moved(before)

    def add_table(self, players: Sequence[str], result: Result) -> None:
        """A table's result (add each table once)."""
        before = self._before(players)
        for seat, player in enumerate(players):
            _count_seat(self._tallies[player], players, seat, result)
        self._moved(before)
        for player in players:
            tally = self._tallies[player]
            self._keys.pop(player, None)
            for other in players:
                if other != player:
                    tally.opponents.append(other)
                    self._opponents_match_win[player] += self._match_win[other]
                    self._opponents_game_win[player] += self._game_win[other]

    def add_round(self, round_: Round) -> None:
        """A round's byes and the tables that have a result."""
        self.add_byes(round_.byes)
        for table in round_.tables:
            if table.result is not None:
                self.add_table(table.players, table.result)

    def lines(self, entrants: Sequence[Entrant]) -> list[Standing]:
        """The standings of ``entrants`` (in registration order) as :func:`standings` gives them."""
        present = [e for e in entrants if e.dropped != 0]
        keyed = []
        for order, entrant in enumerate(present):
            rough, exact, key = self._keys.get(entrant.id) or self._made(entrant.id)
            keyed.append((rough, order, exact, key, entrant))
        keyed.sort(key=lambda item: (item[0], item[1]))
        # Different floats are different fractions. Distinct percentages here are far apart
        # for floats (small denominators), so equal floats are equal fractions; a run of
        # equal floats whose fractions differ all the same is ordered exactly.
        start = 0
        for end in range(1, len(keyed) + 1):
            if end == len(keyed) or keyed[end][0] != keyed[start][0]:
                run = keyed[start:end]
                if any(item[2] != run[0][2] for item in run[1:]):
                    run.sort(key=lambda item: (tuple(-part for part in item[3]), item[1]))
                    keyed[start:end] = run
                start = end
        lines: list[Standing] = []
        for position, (rough, _, exact, key, entrant) in enumerate(keyed):
            before = keyed[position - 1] if position else None
            same = before is not None and before[0] == rough and before[2] == exact
            rank = lines[-1].rank if same else position + 1
            lines.append(self._line(entrant, rank, key))
        return lines

    def _made(self, player: str) -> tuple[Rough, Exact, Key]:
        key = self._key(player)
        rough = (-key[0], -float(key[1]), -float(key[2]), -float(key[3]))
        exact = (key[0], *(n for part in key[1:] for n in (part.numerator, part.denominator)))
        made = self._keys[player] = (rough, exact, key)
        return made

    def _line(self, entrant: Entrant, rank: int, key: Key) -> Standing:
        tally = self._tallies.get(entrant.id) or _Tally()
        return _line(entrant, tally, rank, key, self._match_win.get(entrant.id, FLOOR))

    def _key(self, player: str) -> Key:
        tally = self._tallies.get(player)
        if tally is None or not tally.opponents:
            points = 0 if tally is None else tally.match_points
            game_win = FLOOR if tally is None else self._game_win[player]
            return (points, FLOOR, game_win, FLOOR)
        meetings = len(tally.opponents)
        return (
            tally.match_points,
            self._opponents_match_win[player] / meetings,
            self._game_win[player],
            self._opponents_game_win[player] / meetings,
        )

    def _before(self, players: Iterable[str]) -> dict[str, tuple[Fraction, Fraction]]:
        return {p: (self._match_win.get(p, FLOOR), self._game_win.get(p, FLOOR)) for p in players}

    def _moved(self, before: dict[str, tuple[Fraction, Fraction]]) -> None:
        """Each player's new percentages, and the change carried to its opponents' sums."""
        for player, (match_was, game_was) in before.items():
            tally = self._tallies[player]
            match_win, game_win = tally.match_win(), tally.game_win()
            self._match_win[player], self._game_win[player] = match_win, game_win
            self._keys.pop(player, None)
            if match_win == match_was and game_win == game_was:
                continue
            for other in tally.opponents:
                self._keys.pop(other, None)
                self._opponents_match_win[other] += match_win - match_was
                self._opponents_game_win[other] += game_win - game_was


def _tallies(entrants: Sequence[Entrant], rounds: Iterable[Round]) -> dict[str, _Tally]:
    tallies: dict[str, _Tally] = defaultdict(_Tally)
    for entrant in entrants:
        tallies[entrant.id] = _Tally()
    for round_ in rounds:
        for bye in round_.byes:
            tally = tallies[bye]
            tally.byes += 1
            tally.match_points += WIN
            tally.game_points += WIN
        for table in round_.tables:
            if table.result is not None:
                _count_table(tallies, table.players, table.result)
    return tallies


def _count_table(tallies: dict[str, _Tally], players: Sequence[str], result: Result) -> None:
    for seat, player in enumerate(players):
        tally = tallies[player]
        _count_seat(tally, players, seat, result)
        tally.opponents.extend(other for other in players if other != player)


def _count_seat(tally: _Tally, players: Sequence[str], seat: int, result: Result) -> None:
    points = match_points(result, seat)
    tally.match_points += points
    tally.game_points += game_points(result, len(players), seat)
    if points == WIN:
        tally.wins += 1
    elif points == DRAW:
        tally.draws += 1
    else:
        tally.losses += 1


Key = tuple[int, Fraction, Fraction, Fraction]
Rough = tuple[int, float, float, float]
Exact = tuple[int, ...]
"""A key's fractions as lowest-terms numerators and denominators: equal keys, equal tuples."""


def _line(
    entrant: Entrant, tally: _Tally, rank: int, key: Key, match_win: Fraction | None = None
) -> Standing:
    """One player's standing; ``match_win`` given, it is the one kept (else the tally's own)."""
    return Standing(
        id=entrant.id,
        name=entrant.name,
        rank=rank,
        match_points=tally.match_points,
        wins=tally.wins,
        draws=tally.draws,
        losses=tally.losses,
        byes=tally.byes,
        match_win=tally.match_win() if match_win is None else match_win,
        opponents_match_win=key[1],
        game_win=key[2],
        opponents_game_win=key[3],
        dropped=entrant.dropped is not None,
    )


def _floored(points: Fraction, matches: int) -> Fraction:
    if matches == 0:
        return FLOOR
    return max(FLOOR, points / (3 * matches))


def _mean(values: Iterable[Fraction]) -> Fraction:
    found = list(values)
    return sum(found, Fraction(0)) / len(found) if found else FLOOR
