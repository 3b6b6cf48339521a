"""Engine benchmark: what the pure rules cost per game, with no I/O at all.

    python load/bench_engines.py [--games 40]

For every game at its smallest and largest player count, random legal games are
played from fixed seeds, and each step is timed: 'setup' (opening the boosters and
dealing), 'apply' (one action, on the engine's own copy), 'legal' (the legal
actions of the acting seat), 'view' (one audience's view with its card table, every
audience counted) and the state's size as stored (without its card table, which is
stored once per game). Figures are microseconds per call; compare them as ratios
between runs of this script, never as absolute numbers between machines.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import msgspec

from packplay.cards.catalog import load_catalog
from packplay.games.base import Game, GameConfig, without_cards
from packplay.games.random_policy import random_action
from packplay.games.registry import GAME_NAMES, get_game
from packplay.rng import Rng

T = TypeVar("T")


@dataclass
class Timings:
    """Seconds spent per kind of call, and how many calls."""

    seconds: dict[str, float] = field(default_factory=dict)
    calls: dict[str, int] = field(default_factory=dict)
    state_bytes: int = 0
    states: int = 0

    def timed(self, kind: str, call: Callable[..., T], *args: Any) -> T:
        started = time.thread_time()  # CPU time: another process's load does not count
        value = call(*args)
        self.seconds[kind] = self.seconds.get(kind, 0.0) + time.thread_time() - started
        self.calls[kind] = self.calls.get(kind, 0) + 1
        return value

    def per_call(self, kind: str) -> float:
        return self.seconds.get(kind, 0.0) / max(1, self.calls.get(kind, 0)) * 1e6


def apply_in_place(engine: Game[Any], state: Any, seat: int, action: Any) -> Any:
    """As the server applies: on a copy of its own, so without copying again."""
    return engine.apply(state, seat, action, copy=False).state


def view_with_cards(engine: Game[Any], state: Any, audience: int | None) -> tuple[Any, list[str]]:
    return engine.view(state, audience), engine.known_cards(state, audience)


def play_one(game: str, players: int, seed: int, catalog: Any, timings: Timings) -> None:
    engine = get_game(game)
    config = GameConfig(game=game, players=players)
    state = timings.timed("setup", engine.setup, config, seed, catalog)
    rng = Rng(seed)
    audiences: list[int | None] = [*range(players), None]
    while pending := engine.pending(state):
        seat = pending[rng.below(len(pending))]
        legal = timings.timed("legal", engine.legal_actions, state, seat)
        action = random_action(legal, engine.action_type, rng)
        state = timings.timed("apply", apply_in_place, engine, state, seat, action)
        for audience in audiences:
            timings.timed("view", view_with_cards, engine, state, audience)
        timings.state_bytes += len(msgspec.msgpack.encode(without_cards(state)))
        timings.states += 1


def main(options: argparse.Namespace) -> None:
    catalog = load_catalog()
    print(f"{'game':16} {'players':>7} {'setup':>9} {'apply':>8} {'legal':>8} {'view':>8} {'state B':>8}")
    for game in GAME_NAMES:
        engine = get_game(game)
        for players in sorted({engine.min_players, engine.max_players}):
            timings = Timings()
            for seed in range(options.games):
                play_one(game, players, seed, catalog, timings)
            print(
                f"{game:16} {players:>7} {timings.per_call('setup'):>7.0f}us "
                f"{timings.per_call('apply'):>6.1f}us {timings.per_call('legal'):>6.1f}us "
                f"{timings.per_call('view'):>6.1f}us {timings.state_bytes / max(1, timings.states):>8.0f}"
            )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=40, help="games per game type and player count")
    main(parser.parse_args())
