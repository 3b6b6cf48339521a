"""``packplay replay verify``: check a replay export with the engines, from its set-up alone."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import msgspec

from packplay.games.audit import Verdict, load, verify


def register(commands: Any) -> None:
    parser = commands.add_parser("replay", help="replay exports of finished games")
    sub = parser.add_subparsers(dest="replay_command", required=True, metavar="ACTION")
    verified = sub.add_parser(
        "verify",
        help="replay an export from its explicit set-up and compare every step and the result",
        description=(
            "Read a replay export (the JSON answer of GET /v2/games/{id}/replay, format "
            "packplay.replay.1), build the game from its explicit set-up and card table "
            "alone (no seed, no card catalog), apply every logged action and compare the "
            "result. Exit status: 0 when the game checks, 1 at the first difference, 2 "
            "when the file is not an export."
        ),
    )
    verified.add_argument("file", type=Path, help="the export; - reads standard input")
    verified.add_argument("--json", action="store_true", help="print the verdict as JSON")
    verified.set_defaults(handler=verify_command)


def verify_command(args: argparse.Namespace) -> int:
    try:
        raw = sys.stdin.buffer.read() if str(args.file) == "-" else args.file.read_bytes()
        replay = load(raw)
    except OSError as error:
        print(f"packplay: cannot read {args.file}: {error.strerror}", file=sys.stderr)
        return 2
    except (msgspec.DecodeError, msgspec.ValidationError) as error:
        print(f"packplay: {args.file} is not a packplay.replay.1 export: {error}", file=sys.stderr)
        return 2
    verdict = verify(replay)
    if args.json:
        sys.stdout.write(msgspec.json.encode(verdict).decode() + "\n")
    else:
        print(describe(verdict))
    return 0 if verdict.ok else 1


def describe(verdict: Verdict) -> str:
    """One line for a person: what was checked, and the first difference if any."""
    head = f"{verdict.game}, {verdict.players} players"
    if not verdict.ok:
        return f"mismatch: {head}, step {verdict.step}: {verdict.problem}"
    result = verdict.result
    assert result is not None
    won = "draw" if result.draw else "winners " + ", ".join(map(str, result.winners))
    scores = ", ".join(str(score) for score in result.scores)
    steps = f"{verdict.steps} steps from the explicit set-up"
    return f"ok: {head}, {steps}; {won}; scores {scores} ({result.reason})"
