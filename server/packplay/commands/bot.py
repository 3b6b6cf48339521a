"""``packplay bot``: play a seat with a bot over the WebSocket, or create a game full of bots.

    packplay bot URL --game-id=ID --token=T [--bot NAME] [--budget B] [--encoding json|msgpack]
    packplay bot URL --create GAME [--players N] [--bot NAME] [--budget B] [--encoding json|msgpack]

NAME is random, first, strong or an import path module:Class (see packplay.bots.registry).
The bots use the client SDK, so they see exactly what any client sees. Each prints
the outcome as one JSON object. Game ids and tokens may start with "-": pass them as
``--game-id=ID`` and ``--token=T`` so that they are not read as options.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from typing import Any

import msgspec

from packplay.bots.registry import BUILT_IN, BotFactory, BotNameError, bot_factory
from packplay.commands.arena import budget_argument
from packplay_clients import PackplayError, RestClient, connect, play
from packplay_protocol.to_client import GameOver

IDLE_TIMEOUT = 60.0
"""With bots in every seat a game never waits this long; it guards against a stuck server."""


def register(commands: Any) -> None:
    parser = commands.add_parser("bot", help="play games with bots through the client SDK")
    parser.add_argument("url", help="the server's base URL, e.g. http://127.0.0.1:8000")
    target = parser.add_mutually_exclusive_group(required=True)
    target.add_argument("--game-id", help="play one seat of this game (with --token); write --game-id=ID")
    target.add_argument("--create", metavar="GAME", help="create a game and fill every seat with bots")
    parser.add_argument("--token", help="the seat's token (with --game-id); write --token=T")
    parser.add_argument("--players", type=int, default=2, help="seats of the created game (default 2)")
    parser.add_argument(
        "--bot",
        default="random",
        help=f"the bot: {', '.join(BUILT_IN)}, or an import path module:Class (default random)",
    )
    parser.add_argument(
        "--budget",
        type=budget_argument,
        default=None,
        help="thinking per decision of a bot that takes a budget: samples (32), a time cap (50ms) or "
        "both; default: the level's own",
    )
    parser.add_argument("--encoding", choices=("json", "msgpack"), default="json")
    parser.add_argument("--seed", type=int, help="seed of the (first) bot: the same seed plays the same way")
    parser.set_defaults(handler=bot_command)


def bot_command(args: argparse.Namespace) -> int:
    if args.game_id is not None and not args.token:
        print("packplay bot: --game-id needs --token", file=sys.stderr)
        return 2
    try:
        args.factory = bot_factory(args.bot)
    except BotNameError as error:
        print(f"packplay bot: {error}", file=sys.stderr)
        return 2
    try:
        outcome = asyncio.run(_create_and_play(args) if args.create else _play_seat(args))
    except PackplayError as error:
        print(f"packplay bot: {error}", file=sys.stderr)
        return 1
    print(json.dumps(outcome))
    return 0


async def _play_seat(args: argparse.Namespace) -> dict[str, Any]:
    async with await connect(args.url, args.token, args.encoding) as connection:
        view = await connection.join(args.game_id)
        over = await play(connection, _bot(args, args.seed))
    return _outcome(over, view.game, connection.version, seat=connection.seat)


async def _create_and_play(args: argparse.Namespace) -> dict[str, Any]:
    async with RestClient(args.url) as lobby:
        created = await lobby.create_game(args.create, args.players)
        grants = [await lobby.join_seat(created.game_id, f"bot-{seat}") for seat in range(args.players)]
    seeds = [None if args.seed is None else args.seed + seat for seat in range(args.players)]
    games = [_bot_seat(args, grant.token, seed) for grant, seed in zip(grants, seeds, strict=True)]
    results = await asyncio.gather(*games)
    return results[0] | {"players": args.players}


async def _bot_seat(args: argparse.Namespace, token: str, seed: int | None) -> dict[str, Any]:
    async with await connect(args.url, token, args.encoding) as connection:
        view = await connection.join()
        over = await play(connection, _bot(args, seed), idle_timeout=IDLE_TIMEOUT)
    return _outcome(over, view.game, connection.version)


def _bot(args: argparse.Namespace, seed: int | None) -> Any:
    factory: BotFactory = args.factory
    return factory(seed, args.budget)


def _outcome(over: GameOver, game: str, version: int, seat: int | None = None) -> dict[str, Any]:
    outcome: dict[str, Any] = {"game_id": over.game_id, "game": game}
    if seat is not None:
        outcome["seat"] = seat
    result = msgspec.to_builtins(over.result)
    return outcome | {"actions": version, "result": result, "replay_url": over.replay_url}
