"""The `packplay` command: one entry point, one module per subcommand group."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from packplay import __version__
from packplay.commands import arena, bot, cards, replay, serve, simulate, tournament

DESCRIPTION = (
    "Packplay serves four Magic: The Gathering booster mini-games to clients over REST and "
    "WebSocket, and comes with the tools around them: the card catalog, engine-only "
    "simulations, bots and their arena, and tournaments."
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="packplay", description=DESCRIPTION)
    parser.add_argument("--version", action="version", version=f"packplay {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in (serve, cards, simulate, arena, replay, bot, tournament):
        module.register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    result: int = args.handler(args)
    return result


if __name__ == "__main__":
    sys.exit(main())
