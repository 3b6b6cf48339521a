"""``packplay simulate``: engine-only games with bots, and outcome statistics."""

from __future__ import annotations

import argparse
import secrets
import sys
from typing import Any

from packplay.cards.catalog import load_catalog
from packplay.games.base import RuleError
from packplay.games.registry import GAME_NAMES
from packplay.rng import SEED_BITS
from packplay.simulation import simulate


def register(commands: Any) -> None:
    parser = commands.add_parser("simulate", help="play engine-only games and print statistics")
    parser.add_argument("game", choices=GAME_NAMES)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--bot", choices=("random",), default="random")
    parser.add_argument("--seed", type=int, help="seed of the first game (default: random)")
    parser.add_argument("--set", dest="sets", action="append", default=[], help="booster set (repeatable)")
    parser.set_defaults(handler=simulate_command)


def simulate_command(args: argparse.Namespace) -> int:
    seed = args.seed if args.seed is not None else secrets.randbits(SEED_BITS)
    try:
        tally = simulate(args.game, args.games, args.players, seed, load_catalog(), tuple(args.sets))
    except RuleError as exc:
        print(f"packplay: {exc.message}", file=sys.stderr)
        return 2
    print(f"first seed {seed}")
    print(tally.report())
    return 0
