"""Many engine-only games with random play, and their outcome statistics."""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from packplay.games.base import GameConfig
from packplay.games.playout import play, random_policy
from packplay.games.registry import get_game
from packplay.rng import Rng


@dataclass
class Tally:
    game: str
    players: int
    games: int = 0
    actions: int = 0
    draws: int = 0
    shared_wins: int = 0
    wins_by_seat: Counter[int] = field(default_factory=Counter)
    wins_by_role: Counter[str] = field(default_factory=Counter)
    games_by_role: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0

    def add(self, winners: tuple[int, ...], draw: bool, roles: tuple[str, ...] | None, steps: int) -> None:
        self.games += 1
        self.actions += steps
        if draw:
            self.draws += 1
            return
        if len(winners) > 1:
            self.shared_wins += 1
        for seat in winners:
            self.wins_by_seat[seat] += 1
            if roles is not None:
                self.wins_by_role[roles[seat]] += 1
        for role in roles or ():
            self.games_by_role[role] += 1

    def report(self) -> str:
        rows = [
            ("games/s", f"{self.games / self.seconds:,.0f}" if self.seconds else "-"),
            ("avg actions", f"{self.actions / max(self.games, 1):.1f}"),
            ("draws", self._count(self.draws)),
            ("shared wins", self._count(self.shared_wins)),
        ]
        rows += [(f"seat {seat} wins", self._count(self.wins_by_seat[seat])) for seat in range(self.players)]
        rows += [(f"{role} wins", self._count(self.wins_by_role[role])) for role in sorted(self.wins_by_role)]
        title = f"{self.game}, {self.players} players, {self.games} games, random play"
        return "\n".join([title, *(f"  {label:<20} {value}" for label, value in rows)])

    def _count(self, count: int) -> str:
        return f"{count} ({self._pct(count)})"

    def _pct(self, count: int) -> str:
        return f"{100 * count / max(self.games, 1):.1f}%"


def simulate(
    game: str, games: int, players: int, seed: int, catalog: Any, sets: tuple[str, ...] = ()
) -> Tally:
    """Play ``games`` random games; game ``i`` uses seed ``seed + i``."""
    engine = get_game(game)
    config = GameConfig(game=game, players=players, sets=sets)
    tally = Tally(game=game, players=players)
    started = time.perf_counter()
    for index in range(games):
        game_seed = seed + index
        state = engine.setup(config, game_seed, catalog)
        rng = Rng(game_seed ^ 0x5EED)
        policies = [random_policy(engine, rng)] * players
        finished = play(engine, state, policies, rng)
        result = engine.result(finished.state)
        assert result is not None
        tally.add(result.winners, result.draw, engine.roles(finished.state), finished.steps)
    tally.seconds = time.perf_counter() - started
    return tally
