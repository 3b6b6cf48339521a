"""Benchmark one server process: N concurrent games played by scripted clients over WebSocket.

Prints moves per second, the p50/p99 latency from sending an action to every seat of
the game having the view of the version it made, the server's RSS per connection,
and Redis memory per game. Not a test: run it by hand.

    python load/bench_server.py --games 50 --rounds 3

The server runs as its own process (``packplay serve``) against a private Redis that
this script starts; the clients share one asyncio loop in this process, so on a small
machine the figures include the clients' own CPU use.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import psutil
import redis

from packplay.server import keys
from packplay.server.embedded_redis import EmbeddedRedis
from packplay_protocol.to_client import Accepted
from packplay_protocol.version import Encoding

# The scripted client, the REST steps and the server launcher are the integration tests' own.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "server"))
from server_client import Bot, Client
from server_lobby import open_game
from server_processes import start_server

TABLES = (("mishra_factory", 2), ("wedding_planner", 2), ("day_night", 2), ("base_race", 2))


@dataclass
class Table:
    game: str
    game_id: str
    seats: list[Client]
    bots: list[Bot]


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


async def open_tables(base: str, count: int, encoding: Encoding, think: float = 0.0) -> list[Table]:
    tables = []
    for index in range(count):
        game, players = TABLES[index % len(TABLES)]
        game_id, tokens = await open_game(base, game, players)
        seats = [Client(base, encoding, keep=False) for _ in tokens]
        for client, token in zip(seats, tokens, strict=True):
            await client.connect(token)
            await client.join(game_id)
        bots = [Bot(client, random.Random(index * 10 + seat), think) for seat, client in enumerate(seats)]
        tables.append(Table(game, game_id, seats, bots))
    return tables


def latencies(table: Table) -> list[float]:
    """Per applied action: from its sending to the moment the last seat had that version.

    The think time is spent before the action is sent, so it is not counted.
    """
    found = []
    for bot in table.bots:
        for answer in bot.answers:
            if isinstance(answer, Accepted):
                arrivals = [_first_at_least(c.view_times, answer.version) for c in table.seats]
                if all(t is not None for t in arrivals):
                    found.append(max(t for t in arrivals if t is not None) - bot.sent[answer.action_id])
    return found


def _first_at_least(times: dict[int, float], version: int) -> float | None:
    later = [t for v, t in times.items() if v >= version]
    return min(later) if later else None


async def play_round(
    base: str, games: int, encoding: Encoding, processes: dict[str, psutil.Process], think: float = 0.0
) -> tuple[Round, list[Table]]:
    tables = await open_tables(base, games, encoding, think)
    meter = CpuMeter(processes)
    started = time.perf_counter()
    await asyncio.gather(*(bot.play() for table in tables for bot in table.bots))
    seconds = time.perf_counter() - started
    moves = sum(isinstance(a, Accepted) for t in tables for b in t.bots for a in b.answers)
    found = [value for table in tables for value in latencies(table)]
    return Round(moves, seconds, found, meter.shares(seconds)), tables


def redis_bytes(store: redis.Redis, tables: list[Table]) -> float:
    """Bytes Redis holds for these games (``MEMORY USAGE`` of every key of each), per game."""
    total = 0
    for table in tables:
        for key in keys.game_keys(table.game_id):
            total += int(store.memory_usage(key, samples=0) or 0)  # type: ignore[arg-type]
    return total / len(tables)


async def measure_memory(base: str, server: psutil.Process, store: redis.Redis, games: int) -> None:
    """RSS per idle connection, and Redis bytes per game at the start and once over."""
    rss_before = server.memory_info().rss
    tables = await open_tables(base, games, Encoding.JSON)
    connections = sum(len(t.seats) for t in tables)
    await asyncio.sleep(0.5)
    rss_per_connection = (server.memory_info().rss - rss_before) / connections
    started = redis_bytes(store, tables)
    await asyncio.gather(*(bot.play() for table in tables for bot in table.bots))
    over = redis_bytes(store, tables)
    print(
        f"memory: server RSS {rss_per_connection / 1024:.1f} KiB per connection ({connections} connections)"
    )
    print(f"memory: Redis {started / 1024:.1f} KiB per game at the start, {over / 1024:.1f} KiB once over")
    for table in tables:
        for client in table.seats:
            await client.close()


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
    with EmbeddedRedis() as private:
        settings = {
            "PACKPLAY_ACTIONS_PER_SECOND": "1000000",
            "PACKPLAY_SEND_QUEUE": "256",
            "PACKPLAY_WS_DEFLATE": "1" if options.deflate else "0",
        }
        launched = start_server(private.url, Path(tempfile.mkdtemp(prefix="packplay-bench-")), **settings)
        base = launched.url
        server = psutil.Process(launched.process.pid)
        processes = {"server": server, "redis": psutil.Process(private.pid), "clients": psutil.Process()}
        store = redis.Redis.from_url(private.url)
        try:
            encoding = Encoding(options.encoding)
            await play_round(base, 4, encoding, processes)  # warm-up: imports, catalog, script cache
            await measure_memory(base, server, store, options.games)
            compression = "deflate" if options.deflate else "no deflate"
            plan = [(1, 0.0)] + [(options.games, 0.0)] * options.rounds + [(options.games, options.think)]
            for games, think in plan:
                result, tables = await play_round(base, games, encoding, processes, think)
                pace = f"think {think * 1000:.0f} ms" if think else "flat out"
                report(
                    f"{games} concurrent games, {pace}, {encoding.value}, {compression}", result, think > 0
                )
                for table in tables:
                    for client in table.seats:
                        await client.close()
        finally:
            store.close()
            launched.stop()


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
