"""A ladder: every pair of bots plays 2-player games, and one fit puts them all on one scale.

Each pair plays ``games`` games seated as any arena run is (deals played once from each
side). The ratings are the Bradley-Terry maximum-likelihood strengths, a draw counting
half a win to each side, shown on the Elo scale (400 points: ten to one odds) and
anchored so that one bot (``strong`` when it plays, else the first named) is at 1500.

The fit is Hunter's MM iteration (2004), a few lines of plain Python: the project has
no numeric library among its dependencies, and the problem is a handful of bots. A bot
that wins (or loses) every game has no finite maximum-likelihood strength, so each pair
gets ``prior`` virtual games split evenly (one virtual draw by default), which keeps
every rating finite and barely moves the others. Each rating comes with its standard
error relative to the anchor (from the fit's Fisher information): about 35 points for an
even pair after 100 games.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from packplay.arena.stats import Standings

ANCHOR_RATING = 1500.0
ELO = 400 / math.log(10)
"""Elo points per unit of natural-log strength."""


@dataclass(frozen=True)
class PairResult:
    """The games between two bots: wins of each, and draws."""

    first: str
    second: str
    first_wins: float
    second_wins: float
    draws: float = 0.0

    @property
    def games(self) -> float:
        return self.first_wins + self.second_wins + self.draws

    def score(self, bot: str) -> float:
        """``bot``'s points in these games: a win 1, a draw one half."""
        wins = self.first_wins if bot == self.first else self.second_wins
        return wins + self.draws / 2

    def as_json(self) -> dict[str, Any]:
        return {
            "first": self.first,
            "second": self.second,
            "games": self.games,
            "first_wins": self.first_wins,
            "second_wins": self.second_wins,
            "draws": self.draws,
        }


def fit(
    results: Sequence[PairResult],
    anchor: str | None = None,
    *,
    prior: float = 1.0,
    tolerance: float = 1e-10,
    rounds: int = 100_000,
) -> dict[str, float]:
    """Each bot's rating: Bradley-Terry by maximum likelihood, on the Elo scale.

    ``anchor`` (default: the first bot named) is set to 1500. ``prior`` virtual games per
    pair, split evenly, keep the strengths finite; 0 fits the results alone.

    Raises:
        ValueError: no result, or an anchor that played none.
    """
    bots = list(dict.fromkeys(name for r in results for name in (r.first, r.second)))
    if not bots:
        raise ValueError("no games to fit")
    anchor = bots[0] if anchor is None else anchor
    if anchor not in bots:
        raise ValueError(f"the anchor {anchor!r} played no game")
    points = dict.fromkeys(bots, 0.0)
    meetings: dict[str, dict[str, float]] = {bot: {} for bot in bots}
    for result in results:
        for bot, other in ((result.first, result.second), (result.second, result.first)):
            points[bot] += result.score(bot) + prior / 2
            meetings[bot][other] = meetings[bot].get(other, 0.0) + result.games + prior
    strength = _iterate(points, meetings, tolerance, rounds)
    base = math.log(strength[anchor])
    return {bot: ANCHOR_RATING + ELO * (math.log(strength[bot]) - base) for bot in bots}


def _iterate(
    points: dict[str, float], meetings: dict[str, dict[str, float]], tolerance: float, rounds: int
) -> dict[str, float]:
    """MM updates ``p_i = W_i / sum_j n_ij / (p_i + p_j)`` until they stop moving."""
    strength = dict.fromkeys(points, 1.0)
    for _ in range(rounds):
        updated = {}
        for bot, met in meetings.items():
            denominator = sum(n / (strength[bot] + strength[other]) for other, n in met.items())
            updated[bot] = max(points[bot] / denominator, 1e-300) if denominator > 0 else strength[bot]
        scale = math.exp(sum(math.log(p) for p in updated.values()) / len(updated))
        updated = {bot: p / scale for bot, p in updated.items()}
        change = max(abs(math.log(updated[b]) - math.log(strength[b])) for b in updated)
        strength = updated
        if change < tolerance:
            break
    return strength


def standard_errors(
    results: Sequence[PairResult], ratings: dict[str, float], anchor: str
) -> dict[str, float]:
    """Each rating's standard error (Elo points) relative to the anchor's, from the Fisher
    information of the fit at ``ratings`` (draws counted as two half games: a little wide).
    """
    others = [bot for bot in ratings if bot != anchor]
    index = {bot: i for i, bot in enumerate(others)}
    information = [[0.0] * len(others) for _ in others]
    for result in results:
        share = expected_score(ratings[result.first], ratings[result.second])
        weight = result.games * share * (1 - share)
        i, j = index.get(result.first), index.get(result.second)
        for a, b in ((i, j), (j, i)):
            if a is not None:
                information[a][a] += weight
                if b is not None:
                    information[a][b] -= weight
    inverse = _inverse(information)
    errors = {bot: ELO * math.sqrt(max(inverse[index[bot]][index[bot]], 0.0)) for bot in others}
    return {anchor: 0.0} | errors


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    """Gauss-Jordan inverse of a small positive-definite matrix (infinities where singular)."""
    size = len(matrix)
    work = [row[:] + [float(i == j) for j in range(size)] for i, row in enumerate(matrix)]
    for column in range(size):
        pivot = max(range(column, size), key=lambda r: abs(work[r][column]))
        if abs(work[pivot][column]) < 1e-12:
            return [[math.inf] * size for _ in range(size)]
        work[column], work[pivot] = work[pivot], work[column]
        lead = work[column][column]
        work[column] = [x / lead for x in work[column]]
        for row in range(size):
            if row != column and work[row][column]:
                factor = work[row][column]
                work[row] = [x - factor * y for x, y in zip(work[row], work[column], strict=True)]
    return [row[size:] for row in work]


def expected_score(rating: float, other: float) -> float:
    """The share of points a bot of ``rating`` is expected to take from one of ``other``."""
    return 1 / (1 + 10 ** ((other - rating) / 400))


@dataclass
class Ladder:
    """The pairs' results and the ratings fitted on them."""

    game: str
    names: tuple[str, ...]
    games_per_pair: int
    anchor: str
    pairs: list[PairResult] = field(default_factory=list)
    ratings: dict[str, float] = field(default_factory=dict)
    errors: dict[str, float] = field(default_factory=dict)
    seconds: float = 0.0

    def refit(self) -> None:
        self.ratings = fit(self.pairs, self.anchor) if self.pairs else {}
        self.errors = standard_errors(self.pairs, self.ratings, self.anchor) if self.pairs else {}

    def record(self, bot: str) -> tuple[float, float, float]:
        """``bot``'s wins, draws and losses over all its pairs."""
        wins = draws = losses = 0.0
        for pair in self.pairs:
            if bot in (pair.first, pair.second):
                mine = pair.first_wins if bot == pair.first else pair.second_wins
                wins, draws, losses = wins + mine, draws + pair.draws, losses + pair.games - mine - pair.draws
        return wins, draws, losses

    def ranked(self) -> list[str]:
        return sorted(self.names, key=lambda bot: -self.ratings.get(bot, -math.inf))

    def as_json(self) -> dict[str, Any]:
        rows = []
        for bot in self.ranked():
            wins, draws, losses = self.record(bot)
            games = wins + draws + losses
            rows.append(
                {
                    "bot": bot,
                    "rating": round(self.ratings.get(bot, math.nan), 1),
                    "rating_se": round(self.errors.get(bot, math.nan), 1),
                    "games": games,
                    "wins": wins,
                    "draws": draws,
                    "losses": losses,
                    "score": round((wins + draws / 2) / games, 4) if games else None,
                }
            )
        return {
            "game": self.game,
            "players": 2,
            "games_per_pair": self.games_per_pair,
            "anchor": self.anchor,
            "anchor_rating": ANCHOR_RATING,
            "ratings": rows,
            "pairs": [pair.as_json() for pair in self.pairs],
            "seconds": round(self.seconds, 3),
        }

    def report(self) -> str:
        """The ratings, best first, then each pair's score from the row bot's side."""
        head = (
            f"{self.game} ladder, {self.games_per_pair} games per pair, "
            f"Bradley-Terry ratings ({self.anchor} = {ANCHOR_RATING:.0f})"
        )
        lines = [
            head,
            f"  {'#':>2} {'bot':<24} {'rating':>7} {'± se':>6} "
            + "".join(f"{name:>7}" for name in ("games", "wins", "draws", "losses", "score")),
        ]
        for place, bot in enumerate(self.ranked(), 1):
            wins, draws, losses = self.record(bot)
            games = wins + draws + losses
            score = f"{100 * (wins + draws / 2) / games:.1f}%" if games else "-"
            lines.append(
                f"  {place:>2} {bot:<24} {self.ratings.get(bot, math.nan):>7.0f} "
                f"{self.errors.get(bot, math.nan):>6.0f} {games:>7.0f}"
                f"{wins:>7.0f}{draws:>7.0f}{losses:>7.0f}{score:>7}"
            )
        lines.append("  score of the row bot against the column bot:")
        order = self.ranked()
        lines.append("  " + " " * 24 + "".join(f"{bot[:9]:>10}" for bot in order))
        for bot in order:
            cells = [self._cell(bot, other) for other in order]
            lines.append(f"  {bot:<24}" + "".join(f"{cell:>10}" for cell in cells))
        return "\n".join(lines)

    def _cell(self, bot: str, other: str) -> str:
        for pair in self.pairs:
            if {pair.first, pair.second} == {bot, other} and bot != other and pair.games:
                return f"{100 * pair.score(bot) / pair.games:.0f}%"
        return "-"


Play = Callable[[str, str], Standings]
"""Plays one pair (first, second) and returns its standings."""


def run_ladder(
    game: str,
    names: Sequence[str],
    games: int,
    play: Play,
    progress: Callable[[Ladder], None] | None = None,
) -> Ladder:
    """Every pair of ``names`` played by ``play``, and the ratings fitted on all of them.

    Raises:
        ValueError: fewer than two bots, or a name given twice.
    """
    if len(names) < 2:
        raise ValueError("a ladder needs at least two bots")
    if len(set(names)) != len(names):
        raise ValueError("a bot is named twice in the ladder")
    anchor = "strong" if "strong" in names else names[0]
    ladder = Ladder(game=game, names=tuple(names), games_per_pair=games, anchor=anchor)
    for first, second in combinations(names, 2):
        standings = play(first, second)
        one, two = standings.tallies[first], standings.tallies[second]
        ladder.pairs.append(PairResult(first, second, one.wins, two.wins, standings.draws))
        ladder.seconds += standings.seconds
        ladder.refit()
        if progress is not None:
            progress(ladder)
    return ladder
