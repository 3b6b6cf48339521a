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
        points = match_points(result, seat)
        tally.match_points += points
        tally.game_points += game_points(result, len(players), seat)
        if points == WIN:
            tally.wins += 1
        elif points == DRAW:
            tally.draws += 1
        else:
            tally.losses += 1
        tally.opponents.extend(other for other in players if other != player)


Key = tuple[int, Fraction, Fraction, Fraction]


def _line(entrant: Entrant, tally: _Tally, rank: int, key: Key) -> Standing:
    return Standing(
        id=entrant.id,
        name=entrant.name,
        rank=rank,
        match_points=tally.match_points,
        wins=tally.wins,
        draws=tally.draws,
        losses=tally.losses,
        byes=tally.byes,
        match_win=tally.match_win(),
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
