"""How strong the house's levels are: arena runs for every game and player count, as Markdown.

    python load/bot_strength.py [--games 200] [--seed 1] [--jobs 2] [--bot hard] [--only GAME]
                                [--out FILE]

Two-player games: ``--bot`` (``hard`` by default) against the fixed reference ``strong`` and
against the independent sparring partners ``thoughtful`` and ``greedy`` (written from the
printed rules, not from the house's code). Each run plays deals from both sides (the
arena's seating), and the table gives the share of decisive games won with its 95% Wilson
interval, the draws, and the decision time (p50, p99, slowest). Games of three or more:
one ``--bot`` among ``strong`` bots; its wins (shared ones among them, counted whole) beside
the fair share. Figures, never assertions: on a shared machine the decision
times follow the load. ``--out`` also writes every run's JSON result, one per line.
"""

from __future__ import annotations

import argparse
import json
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from packplay.arena import arena

TWO_PLAYER = ("day_night", "mishra_factory", "wedding_planner", "base_race")
OPPONENTS = ("strong", "thoughtful", "greedy")
FIELDS = [("mishra_factory", 3), ("mishra_factory", 4), ("wedding_planner", 3), ("wedding_planner", 4),
          ("wedding_planner", 6)]  # fmt: skip
"""Games of three or more: one bot among ``strong`` ones."""


def run(job: tuple[str, int, str, str, int, int]) -> dict[str, Any]:
    game, players, bot, other, games, seed = job
    return arena(game, [bot, other], games, players, seed).as_json() | {"opponent": other}


def two_player_row(result: dict[str, Any]) -> str:
    bot = result["bots"][0]
    low, high = bot["decisive_share_ci95"]
    share = bot["decisive_share"]
    share_text = "-" if share is None else f"{100 * share:.1f}% [{100 * low:.1f}-{100 * high:.1f}]"
    return (
        f"| {result['game']} | {result['opponent']} | {result['games']} | {bot['wins']} | {result['draws']} "
        f"| {bot['losses']} | {share_text} | {_times(bot)} |"
    )


def field_row(result: dict[str, Any]) -> str:
    bot = result["bots"][0]
    low, high = bot["win_rate_ci95"]
    fair = result["even_share"]
    return (
        f"| {result['game']} | {result['players']} | {result['games']} | {100 * bot['win_rate']:.1f}% "
        f"[{100 * low:.1f}-{100 * high:.1f}] | {bot['shared_wins']} | {100 * fair:.1f}% "
        f"| {bot['win_rate'] / fair:.2f}x | {_times(bot)} |"
    )


def _times(bot: dict[str, Any]) -> str:
    return f"{bot['decision_ms_p50']} / {bot['decision_ms_p99']} / {bot['decision_ms_max']}"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--bot", default="hard")
    parser.add_argument("--only", help="one game only")
    parser.add_argument("--out", help="also write each run's JSON here, one per line")
    args = parser.parse_args()
    wanted = [args.only] if args.only else list(TWO_PLAYER)
    pairs = [(g, 2, args.bot, other, args.games, args.seed) for g in wanted for other in OPPONENTS]
    fields = [(g, p, args.bot, "strong", args.games, args.seed) for g, p in FIELDS if g in wanted]
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        print(f"{args.bot}, two players: share of the decisive games won, 95% CI; decisions in ms\n")
        print("| game | against | games | wins | draws | losses | decisive won | p50 / p99 / max ms |")
        print("|---|---|---|---|---|---|---|---|")
        for result in pool.map(run, pairs):
            print(two_player_row(result), flush=True)
            _keep(args.out, result)
        if fields:
            print(f"\n{args.bot} in a field of strong: its wins, 95% CI, against the fair share\n")
            print(
                "| game | players | games | wins | of them shared | fair share | ratio | p50 / p99 / max ms |"
            )
            print("|---|---|---|---|---|---|---|---|")
            for result in pool.map(run, fields):
                print(field_row(result), flush=True)
                _keep(args.out, result)


def _keep(path: str | None, result: dict[str, Any]) -> None:
    if path:
        with open(path, "a", encoding="utf-8") as sink:
            sink.write(json.dumps(result) + "\n")


if __name__ == "__main__":
    main()
