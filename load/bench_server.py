"""Benchmark one server process: N concurrent games played by SDK bots over WebSocket.

Prints moves per second, the p50/p99 latency from sending an action to every seat of
the game having the view of the version it made, the CPU share of the server, Redis
and the clients, the server's RSS per connection, and Redis memory per game. Not a
test: run it by hand.

    python load/bench_server.py --games 50 --rounds 3

The server runs as its own process ('packplay serve') against a private Redis that
this script starts. The clients are the public Python SDK ('packplay_clients'): a
:class:`RandomBot` in every seat, all sharing one asyncio loop in this process, so on
a small machine the figures include the clients' own CPU use.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import IO

import psutil
import redis

from packplay.server.storage import keys
from packplay.server.storage.embedded import EmbeddedRedis, free_port
from packplay_clients import (
    Answer,
    ApiError,
    GameConnection,
    PlayError,
    RandomBot,
    RestClient,
    connect,
    pending,
)
from packplay_clients.bots import RETRY_REASONS
from packplay_protocol.errors import RejectReason
from packplay_protocol.to_client import Accepted, Rejected, ViewMessage
from packplay_protocol.version import Encoding

TABLES = (("mishra_factory", 2), ("wedding_planner", 2), ("day_night", 2), ("base_race", 2))
HEALTH_TIMEOUT = 20.0
"""Seconds the server has to answer ``GET /v2/health`` after it is started."""


# the server under test


@contextlib.asynccontextmanager
async def serve(redis_url: str, settings: dict[str, str]) -> AsyncIterator[tuple[str, psutil.Process]]:
    """``packplay serve`` on a free port with these ``PACKPLAY_*`` settings: (base URL, its process).

    The machine's own ``PACKPLAY_*`` variables are left out; the log is kept in a
    temporary file and shown if the server does not come up.
    """
    port = free_port()
    command = [sys.executable, "-m", "packplay.cli", "serve", "--port", str(port), "--redis-url", redis_url]
    inherited = {name: value for name, value in os.environ.items() if not name.startswith("PACKPLAY_")}
    with tempfile.TemporaryFile() as log:
        server = subprocess.Popen(command, env=inherited | settings, stdout=log, stderr=subprocess.STDOUT)
        try:
            base = f"http://127.0.0.1:{port}"
            await _until_healthy(base, server, log)
            yield base, psutil.Process(server.pid)
        finally:
            server.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                server.wait(timeout=10)
            server.kill()  # does nothing once it has exited
            server.wait()


async def _until_healthy(base: str, server: subprocess.Popen[bytes], log: IO[bytes]) -> None:
    deadline = time.monotonic() + HEALTH_TIMEOUT
    async with RestClient(base, timeout=1.0) as lobby:
        while server.poll() is None and time.monotonic() < deadline:
            with contextlib.suppress(ApiError):
                await lobby.health()
                return
            await asyncio.sleep(0.1)
    log.seek(0)
    state = "exited" if server.poll() is not None else "did not answer /v2/health in time"
    raise RuntimeError(f"the server {state}:\n{log.read().decode(errors='replace')}")


# the players


@dataclass
class Seat:
    """One seat played by a :class:`RandomBot` over its own connection."""

    connection: GameConnection
    bot: RandomBot
    rng: random.Random
    """Draws the think times."""
    view_times: dict[int, float] = field(default_factory=dict)
    """When the view of each version arrived (``time.perf_counter``)."""
    answers: list[tuple[Answer, float]] = field(default_factory=list)
    """Each answer with the moment its action was sent."""
    follower: asyncio.Task[None] | None = None

    async def follow(self) -> None:
        """Read the connection's stream to its end, noting when each version's view arrived."""
        async for message in self.connection.messages():
            if isinstance(message, ViewMessage):
                self.view_times.setdefault(message.version, time.perf_counter())

    async def play(self, think: float = 0.0) -> None:
        """Act whenever the view says the seat is pending, after ``think`` seconds on average."""
        connection = self.connection
        while connection.game_over is None:
            view = connection.view
            assert view is not None, "join before playing"
            if pending(view):
                if think:
                    await asyncio.sleep(think * self.rng.uniform(0.5, 1.5))
                sent = time.perf_counter()
                answer = await connection.act(self.bot.choose(view), version=view.version)
                self.answers.append((answer, sent))
                if isinstance(answer, Rejected) and answer.reason not in RETRY_REASONS:
                    raise PlayError(answer)
                if isinstance(answer, Rejected) and answer.reason is RejectReason.RATE_LIMITED:
                    await asyncio.sleep(0.01)
                    continue
            await connection.wait_until(functools.partial(_moved_on, connection, view))

    async def close(self) -> None:
        await self.connection.close()
        if self.follower is not None:
            await self.follower


def _moved_on(connection: GameConnection, view: ViewMessage) -> bool:
    current = connection.view
    return connection.game_over is not None or (current is not None and current.version > view.version)


@dataclass
class Table:
    game: str
    game_id: str
    seats: list[Seat]

    def accepted(self) -> list[tuple[Accepted, float]]:
        return [(a, sent) for seat in self.seats for a, sent in seat.answers if isinstance(a, Accepted)]

    def latencies(self) -> list[float]:
        """Per applied action: from its sending to the moment the last seat had that version.

        The think time is spent before the action is sent, so it is not counted.
        """
        found = []
        for answer, sent in self.accepted():
            arrivals = [_first_at_least(seat.view_times, answer.version) for seat in self.seats]
            if all(t is not None for t in arrivals):
                found.append(max(t for t in arrivals if t is not None) - sent)
        return found


def _first_at_least(times: dict[int, float], version: int) -> float | None:
    later = [t for v, t in times.items() if v >= version]
    return min(later) if later else None


async def open_tables(lobby: RestClient, count: int, encoding: Encoding) -> list[Table]:
    """Create ``count`` games and take every seat (the game starts), then connect and join each seat."""
    tables = []
    for index in range(count):
        game, players = TABLES[index % len(TABLES)]
        created = await lobby.create_game(game, players)
        grants = [await lobby.join_seat(created.game_id, f"p{number}") for number in range(players)]
        seats = []
        for number, grant in enumerate(grants):
            seed = index * 10 + number
            connection = await connect(lobby.base_url, grant.token, encoding)
            seat = Seat(connection, RandomBot(seed), random.Random(seed))
            seat.follower = asyncio.create_task(seat.follow())
            await connection.join(created.game_id)
            seats.append(seat)
        tables.append(Table(game, created.game_id, seats))
    return tables


async def close_tables(tables: list[Table]) -> None:
    await asyncio.gather(*(seat.close() for table in tables for seat in table.seats))


async def play_tables(tables: list[Table], think: float = 0.0) -> None:
    await asyncio.gather(*(seat.play(think) for table in tables for seat in table.seats))


# the figures


@dataclass
class Round:
    moves: int
    seconds: float
    latencies: list[float]
    cpu: dict[str, float]


class CpuMeter:
    """CPU time of the server, Redis and this client process over one round, as a share of wall time."""

    def __init__(self, processes: dict[str, psutil.Process]) -> None:
        self.processes = processes
        self.start = {name: _cpu(p) for name, p in processes.items()}

    def shares(self, seconds: float) -> dict[str, float]:
        return {name: (_cpu(p) - self.start[name]) / seconds for name, p in self.processes.items()}


def _cpu(process: psutil.Process) -> float:
    times = process.cpu_times()
    return float(times.user + times.system)


async def play_round(
    lobby: RestClient,
    games: int,
    encoding: Encoding,
    processes: dict[str, psutil.Process],
    think: float = 0.0,
) -> Round:
    tables = await open_tables(lobby, games, encoding)
    try:
        meter = CpuMeter(processes)
        started = time.perf_counter()
        await play_tables(tables, think)
        seconds = time.perf_counter() - started
    finally:
        await close_tables(tables)
    moves = sum(len(table.accepted()) for table in tables)
    found = [value for table in tables for value in table.latencies()]
    return Round(moves, seconds, found, meter.shares(seconds))


def redis_bytes(store: redis.Redis, tables: list[Table]) -> float:
    """Bytes Redis holds for these games (``MEMORY USAGE`` of every key of each), per game."""
    total = 0
    for table in tables:
        for key in keys.game_keys(table.game_id):
            total += int(store.memory_usage(key, samples=0) or 0)  # type: ignore[arg-type]
    return total / len(tables)


async def measure_memory(lobby: RestClient, server: psutil.Process, store: redis.Redis, games: int) -> None:
    """RSS per idle connection, and Redis bytes per game at the start and once over."""
    rss_before = server.memory_info().rss
    tables = await open_tables(lobby, games, Encoding.JSON)
    try:
        connections = sum(len(t.seats) for t in tables)
        await asyncio.sleep(0.5)
        rss_per_connection = (server.memory_info().rss - rss_before) / connections
        started = redis_bytes(store, tables)
        await play_tables(tables)
        over = redis_bytes(store, tables)
    finally:
        await close_tables(tables)
    print(
        f"memory: server RSS {rss_per_connection / 1024:.1f} KiB per connection ({connections} connections)"
    )
    print(f"memory: Redis {started / 1024:.1f} KiB per game at the start, {over / 1024:.1f} KiB once over")


def report(label: str, result: Round, paced: bool) -> None:
    """Flat out, moves/s is the capacity; paced, it is the players' pace and latency is the figure."""
    ordered = sorted(result.latencies)
    p50 = statistics.median(ordered) * 1000
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000
    rate = result.moves / result.seconds
    busy = ", ".join(f"{name} {share:.0%}" for name, share in result.cpu.items())
    kind = "offered" if paced else "served"
    print(f"{label}: {result.moves} moves in {result.seconds:.2f}s = {rate:.0f} moves/s {kind}")
    print(f"    latency p50 {p50:.2f} ms, p99 {p99:.2f} ms; CPU of one core: {busy}")


async def main(options: argparse.Namespace) -> None:
    settings = {
        "PACKPLAY_LOG_LEVEL": "warning",
        "PACKPLAY_ACTIONS_PER_SECOND": "1000000",
        "PACKPLAY_FRAMES_PER_SECOND": "1000000",
        "PACKPLAY_GAMES_PER_MINUTE": "0",
        "PACKPLAY_OPEN_LOBBIES": "0",
        "PACKPLAY_CONNECTIONS_PER_ADDRESS": "0",
        "PACKPLAY_SPECTATORS_PER_ADDRESS": "0",
        "PACKPLAY_CATCH_UPS_PER_MINUTE": "0",
        "PACKPLAY_HOUSE_GAMES_PER_MINUTE": "0",
        "PACKPLAY_HOUSE_MOVES_PER_MINUTE": "0",
        "PACKPLAY_SEND_QUEUE": "256",
        "PACKPLAY_WS_DEFLATE": "1" if options.deflate else "0",
    }
    encoding = Encoding(options.encoding)
    compression = "deflate" if options.deflate else "no deflate"
    with EmbeddedRedis() as private, contextlib.closing(redis.Redis.from_url(private.url)) as store:
        async with serve(private.url, settings) as (base, server), RestClient(base) as lobby:
            processes = {"server": server, "redis": psutil.Process(private.pid), "clients": psutil.Process()}
            await play_round(lobby, 4, encoding, processes)  # warm-up: imports, catalog, script cache
            await measure_memory(lobby, server, store, options.games)
            plan = [(1, 0.0)] + [(options.games, 0.0)] * options.rounds + [(options.games, options.think)]
            for games, think in plan:
                result = await play_round(lobby, games, encoding, processes, think)
                pace = f"think {think * 1000:.0f} ms" if think else "flat out"
                report(
                    f"{games} concurrent games, {pace}, {encoding.value}, {compression}", result, think > 0
                )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=50, help="concurrent games (2 seats each)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds played flat out")
    parser.add_argument("--think", type=float, default=0.2, help="mean seconds per action, paced round")
    parser.add_argument("--encoding", choices=[e.value for e in Encoding], default="json")
    parser.add_argument("--no-deflate", dest="deflate", action="store_false", help="no frame compression")
    asyncio.run(main(parser.parse_args()))
