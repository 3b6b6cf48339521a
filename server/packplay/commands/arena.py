"""``packplay arena``: bots against bots, engine-only or over a live server.

packplay arena GAME --bots A,B[,C...] --games N [--players P] [--json]
                    [--server URL] [--seed S] [--budget B]
packplay arena GAME --ladder A,B[,C...] --games N [--json] [--seed S] [--budget B]
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
from typing import Any

from tqdm import tqdm

from packplay.arena import ArenaError, Standings, arena
from packplay.arena.ladder import Ladder, run_ladder
from packplay.bots.budget import Budget
from packplay.bots.registry import BUILT_IN, BotNameError
from packplay.games.base import RuleError
from packplay.games.registry import GAME_NAMES
from packplay.rng import SEED_BITS
from packplay_clients import PackplayError

DESCRIPTION = """\
Play bots against each other and print each bot's wins, draws and losses with their 95%
confidence intervals (Wilson), in 2-player runs the share of decisive games it won, wins
shared with other seats, average score and decisions per second. Games come in deals:
each deal's boosters are played once per seat rotation, so every bot plays every seat
(and every role) of the same deal.

With --ladder, every pair of the named bots plays --games 2-player games, and one
Bradley-Terry fit (draws as half wins) rates them all on an Elo-like scale, with
strong (or the first bot named) at 1500.
"""
LADDER_HELP = "comma-separated bots: every pair plays --games 2-player games, then all are rated on one scale"
BOTS_HELP = (
    f"comma-separated bots, one per seat ({', '.join(BUILT_IN)}, or an import path module:Class); "
    "with fewer bots than seats the first takes one seat and the others fill the rest in turn"
)


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "arena", help="play bots against each other and compare them", description=DESCRIPTION
    )
    parser.add_argument("game", choices=GAME_NAMES)
    who = parser.add_mutually_exclusive_group(required=True)
    who.add_argument("--bots", help=BOTS_HELP)
    who.add_argument("--ladder", metavar="BOTS", help=LADDER_HELP)
    parser.add_argument(
        "--games", type=int, default=100, help="games to play, per pair with --ladder (default 100)"
    )
    parser.add_argument("--players", type=int, default=2, help="seats per game (default 2)")
    parser.add_argument("--seed", type=int, help="seed of the first deal (default: random)")
    parser.add_argument(
        "--budget",
        type=budget_argument,
        default=None,
        help="thinking per decision of the bots that take a budget: samples (32), a time cap "
        "(50ms, 0.2s) or both (64 50ms); default: each level's own",
    )
    parser.add_argument("--server", metavar="URL", help="play over this server instead of in-process")
    parser.add_argument(
        "--unseeded",
        action="store_true",
        help="with --server: let the server draw each game's seed (a server that is no sandbox)",
    )
    parser.add_argument("--parallel", type=int, default=4, help="with --server: games at a time (default 4)")
    parser.add_argument("--json", action="store_true", help="print the results as one JSON object")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.set_defaults(handler=arena_command)


def budget_argument(text: str) -> Budget:
    """``--budget``: a :meth:`Budget.parse` text, refused with its reason."""
    try:
        return Budget.parse(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from error


def arena_command(args: argparse.Namespace) -> int:
    if args.games < 1:
        print("packplay arena: --games must be at least 1", file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else secrets.randbits(SEED_BITS)
    if args.ladder is not None:
        return ladder_command(args, seed)
    names = _names(args.bots)
    bar = tqdm(total=args.games, unit="game", file=sys.stderr, disable=True if args.no_progress else None)
    try:
        with bar:
            standings = arena(
                args.game,
                names,
                args.games,
                args.players,
                seed,
                budget=args.budget,
                server=args.server,
                seeded=not args.unseeded,
                parallel=args.parallel,
                progress=lambda now: _advance(bar, now),
            )
    except (BotNameError, ValueError, RuleError, ArenaError, PackplayError) as error:
        return _failed(error)
    if args.json:
        print(json.dumps({"seed": seed, "server": args.server} | standings.as_json()))
    else:
        print(f"first seed {seed}")
        print(standings.report())
    return 0


def ladder_command(args: argparse.Namespace, seed: int) -> int:
    """``--ladder``: every pair engine-only, each from the same first seed, then the fit."""
    if args.players != 2 or args.server is not None:
        print(
            "packplay arena: --ladder plays 2-player games in-process (no --players, no --server)",
            file=sys.stderr,
        )
        return 2
    names = _names(args.ladder)
    pairs = len(names) * (len(names) - 1) // 2
    bar = tqdm(
        total=pairs * args.games, unit="game", file=sys.stderr, disable=True if args.no_progress else None
    )

    def play(first: str, second: str) -> Standings:
        return arena(args.game, [first, second], args.games, 2, seed, budget=args.budget, progress=bar_step)

    def bar_step(_: Standings) -> None:
        bar.update(1)

    try:
        with bar:
            ladder = run_ladder(args.game, names, args.games, play, progress=lambda now: _show(bar, now))
    except (BotNameError, ValueError, RuleError, ArenaError, PackplayError) as error:
        return _failed(error)
    if args.json:
        print(json.dumps({"seed": seed} | ladder.as_json()))
    else:
        print(f"first seed {seed}")
        print(ladder.report())
    return 0


def _names(text: str) -> list[str]:
    return [name.strip() for name in text.split(",") if name.strip()]


def _show(bar: tqdm[Any], ladder: Ladder) -> None:
    top = ladder.ranked()[0]
    bar.set_postfix_str(f"{top} {ladder.ratings.get(top, 0):.0f}", refresh=False)


def _advance(bar: tqdm[Any], standings: Standings) -> None:
    lead = max(standings.tallies.values(), key=lambda tally: tally.win_rate)
    bar.set_postfix_str(f"{lead.bot} {100 * lead.win_rate:.1f}%", refresh=False)
    bar.update(1)


def _failed(error: Exception) -> int:
    """Say why a run stopped; its exit code (2: a request that cannot be, 1: a run that failed)."""
    if isinstance(error, ArenaError | PackplayError):
        print(f"packplay arena: {error}", file=sys.stderr)
        return 1
    print(f"packplay arena: {getattr(error, 'message', error)}", file=sys.stderr)
    return 2
