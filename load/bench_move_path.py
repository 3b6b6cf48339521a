"""Move-path benchmark: what one move costs the server's process in computation alone.

    python load/bench_move_path.py [--games 200] [--players 2]

Random legal games of every game type are played through the server's own copy and
rendering, without sockets or Redis, and each piece of a move is timed: 'step' (the
action applied to a working copy of the state, the legal actions and decisions of the
next version, the state and log entry as stored), 'shared' (the parts of the view every
audience shares, computed and compared once), 'updates' (every seat's update: its events
and the JSON Patch of its view message) and 'frames' (those updates encoded as JSON).
Figures are microseconds per move, every seat counted (two seats by default, as in
'bench_hot_path.py'); under load each piece costs more, since the server shares its core
with Redis. Compare them as ratios between runs of this script, never as absolute
numbers between machines.
"""

from __future__ import annotations

import argparse
from typing import Any

from bench_engines import Timings

from packplay.cards.catalog import load_catalog
from packplay.games.base import GameConfig
from packplay.games.random_policy import random_action
from packplay.games.registry import GAME_NAMES, get_game
from packplay.rng import Rng
from packplay.table.game_copy import GameCopy, Step
from packplay.table.records import GameMeta
from packplay.table.rendering import Change, HeldViews
from packplay_protocol import codec
from packplay_protocol.to_client import Update
from packplay_protocol.version import Encoding

PIECES = ("step", "shared", "updates", "frames")


def stepped(copy: GameCopy, seat: int, action: Any) -> Step:
    step = copy.step(seat, action, "bench", 0.0)
    copy.advance(step)
    return step


def shared(views: HeldViews, copy: GameCopy, step: Step) -> Change:
    change = views.change(copy, step)
    assert change is not None
    return change


def updates(views: HeldViews, change: Change, seats: int) -> list[Update]:
    return [views.update(change, seat) for seat in range(seats)]


def frames(updates: list[Update]) -> list[bytes]:
    return [codec.encode(update, Encoding.JSON) for update in updates]


def dealt(game: str, players: int, seed: int, catalog: Any) -> tuple[GameCopy, HeldViews]:
    """A new game's copy, and the views every seat holds."""
    engine = get_game(game)
    config = GameConfig(game=game, players=players, sets=engine.default_sets)
    meta = GameMeta(id=f"bench-{seed}", config=config, seed=seed, created=0.0)
    copy = GameCopy.dealt(meta, engine, engine.setup(config, seed, catalog), 0.0)
    views = HeldViews()
    for seat in range(players):
        views.message(copy, seat)
    return copy, views


def options(description: str | None, games: int) -> argparse.Namespace:
    """The command line of a script that plays random games of every type."""
    parser = argparse.ArgumentParser(
        description=description, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=games, help="games per game type")
    parser.add_argument("--players", type=int, default=2, help="seats per game (within each game's range)")
    return parser.parse_args()


def play_one(game: str, players: int, seed: int, catalog: Any, timings: Timings) -> None:
    copy, views = dealt(game, players, seed, catalog)
    engine, rng = copy.engine, Rng(seed)
    while copy.result is None and copy.pending:
        seat = copy.pending[rng.below(len(copy.pending))]
        action = random_action(copy.legal[seat], engine.action_type, rng)
        taken = timings.timed("step", stepped, copy, seat, action)
        change = timings.timed("shared", shared, views, copy, taken)
        made = timings.timed("updates", updates, views, change, players)
        timings.timed("frames", frames, made)


def main(options: argparse.Namespace) -> None:
    catalog = load_catalog()
    print(f"{'game':16} {'players':>7} {'moves/game':>10}" + "".join(f" {piece:>9}" for piece in PIECES))
    for game in GAME_NAMES:
        engine = get_game(game)
        players = min(max(options.players, engine.min_players), engine.max_players)
        timings = Timings()
        for seed in range(options.games):
            play_one(game, players, seed, catalog, timings)
        moves = timings.calls.get("step", 0)
        figures = "".join(f" {timings.per_call(piece):>7.1f}us" for piece in PIECES)
        print(f"{game:16} {players:>7} {moves / options.games:>10.1f}{figures}")


if __name__ == "__main__":
    main(options(__doc__, games=200))
