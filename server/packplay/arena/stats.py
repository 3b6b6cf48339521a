"""Arena statistics: per bot, its games; wins, draws and losses, each with a 95% Wilson
interval; in 2-player runs, its share of the decisive games won; scores and speed."""

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
    times: tuple[float, ...] = ()
    """Each decision's time, in seconds."""


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
    times: list[float] = field(default_factory=list)
    """Every decision's time, in seconds."""

    def add(self, outcome: SeatOutcome) -> None:
        self.seat_games += 1
        self.wins += outcome.won
        self.shared_wins += outcome.shared
        self.draws += outcome.draw
        self.score_total += outcome.score
        self.decisions += outcome.decisions
        self.seconds += outcome.seconds
        self.times.extend(outcome.times)

    def decision_ms(self, quantile: float) -> float | None:
        """A quantile of the decisions' times in milliseconds (nearest rank; None without times)."""
        if not self.times:
            return None
        ordered = sorted(self.times)
        rank = min(len(ordered) - 1, max(0, math.ceil(quantile * len(ordered)) - 1))
        return 1000 * ordered[rank]

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
    def draw_interval(self) -> tuple[float, float]:
        return wilson(self.draws, self.seat_games)

    @property
    def loss_interval(self) -> tuple[float, float]:
        return wilson(self.losses, self.seat_games)

    @property
    def decisive(self) -> int:
        """Games won or lost: the draws left out."""
        return self.wins + self.losses

    @property
    def decisive_share(self) -> float | None:
        """Of the games won or lost, the part won (None without such a game).

        Meant for 2-player runs, where a win shared by both seats is a draw: it then says
        who is better however often the game is drawn.
        """
        return self.wins / self.decisive if self.decisive else None

    @property
    def decisive_interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.decisive)

    @property
    def average_score(self) -> float:
        return self.score_total / self.seat_games if self.seat_games else 0.0

    @property
    def decisions_per_second(self) -> float | None:
        return self.decisions / self.seconds if self.seconds > 0 else None

    def as_json(self, decisive: bool = False) -> dict[str, Any]:
        """The tally as JSON; ``decisive`` adds the share of decisive games won (2-player runs)."""
        games = self.seat_games or 1
        shares = {
            "decisive_games": self.decisive,
            "decisive_share": _rounded(self.decisive_share, 4),
            "decisive_share_ci95": _pair(self.decisive_interval),
        }
        return {
            "bot": self.bot,
            "seat_games": self.seat_games,
            "wins": self.wins,
            "shared_wins": self.shared_wins,
            "draws": self.draws,
            "losses": self.losses,
            "win_rate": round(self.win_rate, 4),
            "win_rate_ci95": _pair(self.interval),
            "draw_rate": round(self.draws / games, 4),
            "draw_rate_ci95": _pair(self.draw_interval),
            "loss_rate": round(self.losses / games, 4),
            "loss_rate_ci95": _pair(self.loss_interval),
            **(shares if decisive else {}),
            "average_score": round(self.average_score, 3),
            "decisions": self.decisions,
            "decisions_per_second": _rounded(self.decisions_per_second),
            "decision_ms_p50": _rounded(self.decision_ms(0.5), 2),
            "decision_ms_p99": _rounded(self.decision_ms(0.99), 2),
            "decision_ms_max": _rounded(self.decision_ms(1.0), 2),
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
            "bots": [tally.as_json(decisive=self.players == 2) for tally in self.tallies.values()],
        }

    def report(self) -> str:
        """A plain-text table, one line per bot: wins, draws and losses with their 95% CI
        (and, with 2 players, the share of decisive games won), then scores and speed."""
        head = (
            f"{self.game}, {self.players} players, {self.games} games "
            f"({self.draws} draws), seats: {', '.join(self.lineup)}"
        )
        decisive = self.players == 2
        columns = f"  {'bot':<24} {'seats':>6} "
        columns += "".join(f"{name:>7} {'rate, 95% CI':<21}" for name in ("wins", "draws", "losses"))
        columns += f"{'decisive won, 95% CI':<23}" if decisive else ""
        columns += f"{'shared':>6} {'avg score':>9} {'decisions/s':>11} {'p99 ms':>8}"
        lines = [head, columns]
        for tally in self.tallies.values():
            games = tally.seat_games or 1
            speed = tally.decisions_per_second
            line = f"  {tally.bot:<24} {tally.seat_games:>6} "
            line += f"{tally.wins:>7} {_rate(tally.win_rate, tally.interval):<21}"
            line += f"{tally.draws:>7} {_rate(tally.draws / games, tally.draw_interval):<21}"
            line += f"{tally.losses:>7} {_rate(tally.losses / games, tally.loss_interval):<21}"
            if decisive:
                share = tally.decisive_share
                line += f"{'-' if share is None else _rate(share, tally.decisive_interval):<23}"
            speed_text = "-" if speed is None else f"{speed:,.0f}"
            p99 = tally.decision_ms(0.99)
            p99_text = "-" if p99 is None else f"{p99:,.1f}"
            line += f"{tally.shared_wins:>6} {tally.average_score:>9.2f} {speed_text:>11} {p99_text:>8}"
            lines.append(line)
        rate = f"{self.games / self.seconds:,.1f}" if self.seconds > 0 else "-"
        lines.append(f"  even share {100 * self.even_share:.1f}%; {rate} games/s")
        return "\n".join(lines)


def _rate(rate: float, interval: tuple[float, float]) -> str:
    """A rate and its interval: ``45.0% [34.6-59.1]``."""
    low, high = interval
    return f"{100 * rate:.1f}% [{100 * low:.1f}-{100 * high:.1f}]"


def _pair(interval: tuple[float, float]) -> list[float]:
    return [round(interval[0], 4), round(interval[1], 4)]


def _rounded(value: float | None, digits: int = 1) -> float | None:
    return None if value is None else round(value, digits)
