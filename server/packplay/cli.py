"""The `packplay` command: one entry point, one module per subcommand group."""

from __future__ import annotations

import argparse
import os
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
    _import_from_here()
    result: int = args.handler(args)
    return result


def _import_from_here() -> None:
    """Find modules in the current folder, as ``python -m`` does: a bot named ``mybot:Bot``
    is the ``mybot.py`` beside the user (the installed script's own folder comes first)."""
    here = os.getcwd()
    if here not in sys.path and "" not in sys.path:
        sys.path.insert(0, here)


if __name__ == "__main__":
    sys.exit(main())
