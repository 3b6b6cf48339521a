"""Arena statistics: per bot, its games, wins with a 95% Wilson interval, draws, scores, speed."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

Z95 = 1.959963984540054
"""The standard normal quantile of a two-sided 95% interval."""


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (sound near 0 and 1, unlike the normal one).

    Zero trials give the whole range (0, 1).
    """
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= trials else min(1.0, centre + half)
    return low, high


@dataclass
class SeatOutcome:
    """How one seat ended one game."""

    bot: str
    seat: int
    won: bool
    shared: bool
    """Won together with other seats (not a draw of the whole table)."""
    draw: bool
    score: float
    decisions: int
    seconds: float
    """Time spent deciding."""


@dataclass
class BotTally:
    """One bot's record over every seat it played (a bot in two seats of a game counts twice)."""

    bot: str
    seat_games: int = 0
    wins: int = 0
    shared_wins: int = 0
    draws: int = 0
    score_total: float = 0.0
    decisions: int = 0
    seconds: float = 0.0

    def add(self, outcome: SeatOutcome) -> None:
        self.seat_games += 1
        self.wins += outcome.won
        self.shared_wins += outcome.shared
        self.draws += outcome.draw
        self.score_total += outcome.score
        self.decisions += outcome.decisions
        self.seconds += outcome.seconds

    @property
    def losses(self) -> int:
        return self.seat_games - self.wins - self.draws

    @property
    def win_rate(self) -> float:
        return self.wins / self.seat_games if self.seat_games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.seat_games)

    @property
    def average_score(self) -> float:
        return self.score_total / self.seat_games if self.seat_games else 0.0

    @property
    def decisions_per_second(self) -> float | None:
        return self.decisions / self.seconds if self.seconds > 0 else None

    def as_json(self) -> dict[str, Any]:
        low, high = self.interval
        return {
            "bot": self.bot,
            "seat_games": self.seat_games,
            "wins": self.wins,
            "shared_wins": self.shared_wins,
            "draws": self.draws,
            "losses": self.losses,
            "win_rate": round(self.win_rate, 4),
            "win_rate_ci95": [round(low, 4), round(high, 4)],
            "average_score": round(self.average_score, 3),
            "decisions": self.decisions,
            "decisions_per_second": _rounded(self.decisions_per_second),
        }


@dataclass
class Standings:
    """Every bot's tally, in the order the bots were named, and the table's totals."""

    game: str
    players: int
    lineup: tuple[str, ...]
    tallies: dict[str, BotTally] = field(default_factory=dict)
    games: int = 0
    draws: int = 0
    steps: int = 0
    seconds: float = 0.0

    def __post_init__(self) -> None:
        for name in self.lineup:
            self.tallies.setdefault(name, BotTally(name))

    def add(self, outcomes: list[SeatOutcome], draw: bool, steps: int) -> None:
        self.games += 1
        self.draws += draw
        self.steps += steps
        for outcome in outcomes:
            self.tallies[outcome.bot].add(outcome)

    @property
    def even_share(self) -> float:
        """The win rate of a seat when every seat is as good as the others (ignoring shared wins)."""
        return 1 / self.players

    def as_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "lineup": list(self.lineup),
            "games": self.games,
            "draws": self.draws,
            "even_share": round(self.even_share, 4),
            "average_steps": round(self.steps / self.games, 2) if self.games else 0.0,
            "seconds": round(self.seconds, 3),
            "games_per_second": _rounded(self.games / self.seconds if self.seconds > 0 else None),
            "bots": [tally.as_json() for tally in self.tallies.values()],
        }

    def report(self) -> str:
        """A plain-text table, one line per bot."""
        head = (
            f"{self.game}, {self.players} players, {self.games} games "
            f"({self.draws} draws), seats: {', '.join(self.lineup)}"
        )
        columns = f"  {'bot':<24} {'seats':>6} {'wins':>6} {'win rate':>9}  {'95% CI':<15} "
        columns += f"{'shared':>6} {'draws':>6} {'avg score':>9} {'decisions/s':>11}"
        lines = [head, columns]
        for tally in self.tallies.values():
            low, high = tally.interval
            speed = tally.decisions_per_second
            lines.append(
                f"  {tally.bot:<24} {tally.seat_games:>6} {tally.wins:>6} {100 * tally.win_rate:>8.1f}%  "
                f"{f'{100 * low:.1f}-{100 * high:.1f}%':<15} {tally.shared_wins:>6} {tally.draws:>6} "
                f"{tally.average_score:>9.2f} {'-' if speed is None else f'{speed:,.0f}':>11}"
            )
        rate = f"{self.games / self.seconds:,.1f}" if self.seconds > 0 else "-"
        lines.append(f"  even share {100 * self.even_share:.1f}%; {rate} games/s")
        return "\n".join(lines)


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 1)
