"""How strong the strong bot is: arena runs of strong against random and first, for every
game and player count, as a Markdown table (figures, never assertions).

    python load/bot_strength.py [--games 2000] [--seed 1] [--jobs 2] [--budget 16] [--out FILE]

Each run is 'packplay arena GAME --players P --bots strong,OTHER': one strong bot against
P - 1 copies of the other, seats rotated over deals. '--out' also writes every run's
JSON result, one per line.
"""

from __future__ import annotations

import argparse
import json
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from packplay.arena import arena
from packplay.bots.budget import Budget

CASES = [
    ("day_night", 2),
    ("mishra_factory", 2),
    ("mishra_factory", 3),
    ("mishra_factory", 4),
    ("wedding_planner", 2),
    ("wedding_planner", 3),
    ("wedding_planner", 4),
    ("wedding_planner", 5),
    ("wedding_planner", 6),
    ("base_race", 2),
]
OPPONENTS = ("random", "first")


def run(job: tuple[str, int, str, int, int, str]) -> dict[str, Any]:
    game, players, other, games, seed, budget = job
    standings = arena(game, ["strong", other], games, players, seed, budget=Budget.parse(budget))
    return {"opponent": other, "seed": seed} | standings.as_json()


def row(result: dict[str, Any]) -> str:
    strong = result["bots"][0]
    low, high = strong["win_rate_ci95"]
    other = result["bots"][1]
    return (
        f"| {result['game']} | {result['players']} | {result['opponent']} | {result['games']} "
        f"| {100 * strong['win_rate']:.1f}% | {100 * low:.1f}-{100 * high:.1f}% "
        f"| {100 * result['even_share']:.1f}% | {strong['shared_wins']} | {result['draws']} "
        f"| {strong['average_score']:.2f} / {other['average_score']:.2f} "
        f"| {strong['decisions_per_second']:,.0f} | {result['games_per_second']:.1f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--budget", default="16")
    parser.add_argument("--out", help="also write each run's JSON here, one per line")
    args = parser.parse_args()
    jobs = [(g, p, o, args.games, args.seed, args.budget) for g, p in CASES for o in OPPONENTS]
    print(
        "| game | players | vs | games | strong wins | 95% CI | even share | shared | draws "
        "| avg score strong / other | strong decisions/s | games/s |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for result in pool.map(run, jobs):
            print(row(result), flush=True)
            if args.out:
                with open(args.out, "a", encoding="utf-8") as sink:
                    sink.write(json.dumps(result) + "\n")


if __name__ == "__main__":
    main()
