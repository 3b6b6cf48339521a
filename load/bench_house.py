"""How fast the house answers, and what its decisions cost the rest of the server.

    python load/bench_house.py [--games 12] [--parallel 6] [--bot hard] [--processes 2]

One server process (``packplay serve``, a private Redis started here). For each game
type, ``--games`` games are played, ``--parallel`` at a time, each by one SDK client
(a random bot in seat 0) against the house in every other seat. Printed per game type:
the house's turnaround (from the answer to the player's action to the view of the
house's move, whenever only the house was left to decide), its p50, p95 and maximum;
and the round trip of a ``ping`` on a spectator connection sent every 20 ms meanwhile
(how long the server's event loop keeps other connections waiting). Figures, never
assertions; on a small machine they include the clients' own CPU use.

Then the serving process's own CPU per move (its workers left out), for each game type:
``--games`` games with an SDK client in every seat, then as many with one client against
the house, one game at a time, each measured from its creation to its end (a client's
connection and join, and the house's following of its seat, are in it); ``--rounds``
such pairs, alternated so that the machine's drift falls on both. A house move costs
``(CPU of the house games - their client moves x a client move's CPU) / house moves``,
printed beside a client's move and as their ratio. What the process spends idle (its
clock sweeps and timers, measured first for 5 s) is taken out of both, in proportion to
each game's length: a game against the house lasts longer, the house thinking. The
clients there take ``--think`` seconds (0.05) before each move, as a person or a bot
takes some: moves that arrive one by one cost a server more than a burst does, and the
house's arrive one by one.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import statistics
import time
from typing import Any

import psutil
from bench_server import serve

from packplay.server.storage.embedded import EmbeddedRedis
from packplay_clients import RestClient, connect, play
from packplay_clients.bots import RandomBot
from packplay_protocol.to_client import Accepted, Pong

CASES = [("day_night", 2), ("mishra_factory", 3), ("wedding_planner", 2), ("base_race", 2)]
PING_EVERY = 0.02


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


async def one_game(url: str, game: str, players: int, bot: str, seed: int, turnarounds: list[float]) -> None:
    async with RestClient(url) as lobby:
        house: Any = {seat: bot for seat in range(1, players)}
        created = await lobby.create_game(game, players, seats=("bench",), house=house)
    player = RandomBot(seed)
    async with await connect(url, created.grants[0].token, "msgpack") as connection:
        await connection.join()
        while connection.game_over is None:
            view = connection.view
            assert view is not None
            if 0 not in view.pending:
                await connection.wait_until(
                    lambda v=view: connection.view is not v or bool(connection.game_over)
                )
                continue
            answer = await connection.act(player.choose(view), version=view.version)
            answered = time.perf_counter()
            if not isinstance(answer, Accepted):
                continue
            made = answer.version
            await connection.wait_until(lambda made=made: connection.version >= made)
            after = connection.view
            if (
                connection.game_over is None
                and after is not None
                and after.version == made
                and not after.legal.actions
                and not after.legal.choices
            ):
                await connection.wait_until(
                    lambda made=made: connection.version > made or bool(connection.game_over)
                )
                if connection.version > made:
                    turnarounds.append(time.perf_counter() - answered)


async def pinger(url: str, stop: asyncio.Event, trips: list[float]) -> None:
    async with await connect(url, None, "msgpack") as connection:
        sent: dict[str, float] = {}

        def heard(message: Any) -> None:
            if isinstance(message, Pong) and message.nonce in sent:
                trips.append(time.perf_counter() - sent.pop(message.nonce))

        connection.listen(heard)
        count = 0
        while not stop.is_set():
            count += 1
            nonce = str(count)
            sent[nonce] = time.perf_counter()
            await connection.ping(nonce)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), PING_EVERY)


async def run_case(url: str, game: str, players: int, options: argparse.Namespace) -> None:
    turnarounds: list[float] = []
    trips: list[float] = []
    stop = asyncio.Event()
    ping_task = asyncio.create_task(pinger(url, stop, trips))
    gate = asyncio.Semaphore(options.parallel)

    async def gated(index: int) -> None:
        async with gate:
            await one_game(url, game, players, options.bot, index, turnarounds)

    started = time.perf_counter()
    await asyncio.gather(*(gated(index) for index in range(options.games)))
    seconds = time.perf_counter() - started
    stop.set()
    await ping_task
    ms = [1000 * t for t in turnarounds]
    pings = [1000 * t for t in trips]
    house = f"{statistics.median(ms):.1f} | {pct(ms, 0.95):.1f} | {max(ms):.1f}"
    ping = f"{statistics.median(pings):.1f} | {pct(pings, 0.99):.1f}"
    print(
        f"| {game} | {players} | {options.games} | {len(ms)} | {house} | {ping} | {seconds:.1f} |", flush=True
    )


async def cost_run(
    url: str, process: psutil.Process, game: str, players: int, house: bool, options: argparse.Namespace
) -> tuple[float, int, int]:
    """Play ``--games`` games one at a time (clients in every seat, or one client and the house):
    the serving process's CPU from each game's creation to its end (the clients' connections
    and joins, the house's following of its seats, every move) less what it spends idle in
    that time, and the moves by clients and by the house."""
    cpu, moves = 0.0, [0, 0]
    async with RestClient(url) as lobby:
        for index in range(options.games):
            seats: Any = {seat: options.bot for seat in range(1, players)} if house else None
            names = ("bench",) if house else tuple(f"p{seat}" for seat in range(players))
            created = await lobby.create_game(game, players, seats=names, house=seats)
            before, started = serving_cpu(process), time.perf_counter()
            async with contextlib.AsyncExitStack() as stack:
                connections = [
                    await stack.enter_async_context(await connect(url, grant.token, "msgpack"))
                    for grant in created.grants
                ]
                for connection in connections:
                    await connection.join()
                bots = [RandomBot(index * 10 + n) for n in range(len(connections))]
                thinking = functools.partial(float, options.think)
                await asyncio.gather(
                    *(
                        play(connection, bot, idle_timeout=60.0, think=thinking)
                        for connection, bot in zip(connections, bots, strict=True)
                    )
                )
                cpu += serving_cpu(process) - before - options.idle_rate * (time.perf_counter() - started)
            replay = await lobby.replay(created.game_id)
            for action in replay.log:
                if action.seat is not None:
                    moves[bool(action.action_id and action.action_id.startswith("house-"))] += 1
    return cpu, moves[0], moves[1]


async def idle_rate(process: psutil.Process, seconds: float = 5.0) -> float:
    """The serving process's CPU a second with no game under way (its clock sweeps and timers)."""
    before = serving_cpu(process)
    await asyncio.sleep(seconds)
    return (serving_cpu(process) - before) / seconds


def serving_cpu(process: psutil.Process) -> float:
    times = process.cpu_times()
    return times.user + times.system


async def cost_case(
    url: str, process: psutil.Process, game: str, players: int, options: argparse.Namespace
) -> None:
    clients_cpu = mixed_cpu = 0.0
    client_moves = mixed_client = house_moves = 0
    for _ in range(options.rounds):
        cpu, moves, _ = await cost_run(url, process, game, players, False, options)
        clients_cpu, client_moves = clients_cpu + cpu, client_moves + moves
        cpu, moves, by_house = await cost_run(url, process, game, players, True, options)
        mixed_cpu, mixed_client, house_moves = mixed_cpu + cpu, mixed_client + moves, house_moves + by_house
    per_client = clients_cpu / client_moves
    per_house = (mixed_cpu - mixed_client * per_client) / max(house_moves, 1)
    print(
        f"| {game} | {players} | {client_moves} | {1e6 * per_client:.0f} | {house_moves} "
        f"| {1e6 * per_house:.0f} | {per_house / per_client:.2f}x |",
        flush=True,
    )


async def main(options: argparse.Namespace) -> None:
    with EmbeddedRedis() as private:
        settings = {
            "PACKPLAY_LOG_LEVEL": "warning",
            "PACKPLAY_HOUSE_PROCESSES": str(options.processes),
            # Every game comes from this one address: the per-client limits of the house lifted.
            "PACKPLAY_GAMES_PER_MINUTE": "0",
            "PACKPLAY_HOUSE_GAMES_PER_MINUTE": "0",
            "PACKPLAY_HOUSE_MOVES_PER_MINUTE": "0",
        }
        async with serve(private.url, settings) as (url, process):
            print(
                f"house bot {options.bot} in {options.processes} worker processes, {options.parallel} games "
                "at a time; times in ms\n\n"
                "| game | players | games | house moves timed | p50 | p95 | max | ping p50 | ping p99 "
                "| seconds |\n"
                "|---|---|---|---|---|---|---|---|---|---|"
            )
            for game, players in CASES:
                await run_case(url, game, players, options)
            options.idle_rate = await idle_rate(process)
            print(
                f"\nthe serving process's CPU per move, its workers left out (us; idle: "
                f"{1e3 * options.idle_rate:.1f} ms a second, taken out)\n\n"
                "| game | players | client moves | per client move | house moves | per house move | ratio |\n"
                "|---|---|---|---|---|---|---|"
            )
            for game, players in CASES:
                await cost_case(url, process, game, players, options)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--parallel", type=int, default=6)
    parser.add_argument(
        "--bot", default="hard", choices=["easy", "medium", "hard", "strong", "random", "first"]
    )
    parser.add_argument("--processes", type=int, default=2, help="PACKPLAY_HOUSE_PROCESSES")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of the CPU comparison")
    parser.add_argument(
        "--think", type=float, default=0.05, help="seconds a client takes to decide in the CPU comparison"
    )
    asyncio.run(main(parser.parse_args()))
