"""What a spectator costs: one Day vs Night game watched by N spectators, against a bare relay
with N listeners, in one run.

    python load/bench_spectators.py                          # 100 and 1,000 spectators
    python load/bench_spectators.py --spectators 1000 --repeat 3 --deflate
    python load/bench_spectators.py --baseline ../old        # also an older checkout (its own .venv)

Two seats play one game at a time (random legal moves), each move sent once the one before
has reached every seat and spectator; the spectators say hello again and join each next
game on the connections they keep. The server's CPU is read (the scheduler's count,
``/proc``) around the moves of each game only, so joining is left out; a run with no
spectators gives the game's own cost, and a spectator's cost a move is what N of them add,
over N. The relay ('load/relay.py') sends a frame of the size of Packplay's mean update to
two seats and N listeners: the least a server does to send one update to one more
connection. '--deflate' also runs Packplay with permessage-deflate (each message
compressed on its own, the server's default), its spectators offering it as browsers do.
The server (and its Redis) is pinned to one core, this driver to the other. Compare
figures as ratios within one run: absolute figures drift.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import httpx
import msgspec
import psutil
import websockets
from bench_hot_path import System, _cpu, running

from packplay.games.random_policy import random_action
from packplay.rng import Rng
from packplay.server.storage.embedded import EmbeddedRedis, free_port
from packplay_protocol import patch
from packplay_protocol.codec import decode_server
from packplay_protocol.games.common import LegalActions
from packplay_protocol.to_client import Update
from packplay_protocol.version import Encoding

LOAD = Path(__file__).resolve().parent
CONNECT_AT_ONCE = 64


class _Header(msgspec.Struct):
    """What the driver reads of each frame a spectator gets."""

    type: str
    version: int = -1


_header = msgspec.json.Decoder(_Header)


@dataclass
class Watch:
    """Every connection's last version, and a wait for all of them to reach one."""

    size: int
    versions: list[int] = field(default_factory=list)
    update_bytes: list[int] = field(default_factory=list)
    _waiting: tuple[int, asyncio.Future[None]] | None = None

    def seen(self, index: int, version: int) -> None:
        self.versions[index] = max(self.versions[index], version)
        waiting = self._waiting
        if (
            waiting is not None
            and min(self.versions, default=version) >= waiting[0]
            and not waiting[1].done()
        ):
            waiting[1].set_result(None)

    async def until(self, version: int) -> None:
        if min(self.versions, default=version) >= version:
            return
        future = asyncio.get_running_loop().create_future()
        self._waiting = (version, future)
        await asyncio.wait_for(future, 60)


async def _read(ws: Any, index: int, watch: Watch) -> None:
    async for frame in ws:
        header = _header.decode(frame)
        if header.type == "update":
            watch.update_bytes.append(len(frame))
        if header.type in ("update", "view"):
            watch.seen(index, header.version)


async def _connect_all(count: int, connect: Callable[[int], Awaitable[Any]]) -> list[Any]:
    gate = asyncio.Semaphore(CONNECT_AT_ONCE)

    async def one(index: int) -> Any:
        async with gate:
            return await connect(index)

    return list(await asyncio.gather(*(one(index) for index in range(count))))


async def packplay(port: int, spectators: int, moves: int, deflate: bool, pid: int) -> dict[str, float]:
    """Play games until ``moves`` moves are made; the server's CPU seconds over those moves."""
    base = f"http://127.0.0.1:{port}"
    url = f"ws://127.0.0.1:{port}/v2/ws"
    compression = "deflate" if deflate else None
    rng = random.Random(1)
    watch = Watch(spectators)
    connections = await _connect_all(
        spectators,
        lambda _: websockets.connect(
            url, subprotocols=["packplay.v2.json"], compression=compression, max_size=None
        ),  # type: ignore[list-item]
    )
    readers: list[asyncio.Task[None]] = []
    seconds = played = 0.0
    async with httpx.AsyncClient(base_url=base) as http:
        while played < moves:
            created = (
                await http.post("/v2/games", json={"game": "day_night", "players": 2, "seats": ["a", "b"]})
            ).json()
            game_id = created["game_id"]
            await _stop(readers)
            watch.versions = [-1] * spectators
            for ws in connections:
                await ws.send('{"type": "hello"}')
                while _header.decode(await ws.recv()).type != "welcome":
                    pass  # what the last game sent after its end
                await ws.send(f'{{"type": "join", "game_id": "{game_id}", "role": "spectator"}}')
            readers = [asyncio.create_task(_read(ws, index, watch)) for index, ws in enumerate(connections)]
            async with (
                websockets.connect(url, subprotocols=["packplay.v2.json"], compression=compression) as first,  # type: ignore[list-item]
                websockets.connect(url, subprotocols=["packplay.v2.json"], compression=compression) as second,  # type: ignore[list-item]
            ):
                seats = [first, second]
                views = [
                    await _seat(ws, grant["token"], game_id)
                    for ws, grant in zip(seats, created["grants"], strict=True)
                ]
                await watch.until(0)
                start = _cpu_of(pid)
                made = await _play(seats, views, watch, rng)
                seconds += _cpu_of(pid) - start
                played += made
    await _stop(readers)
    for ws in connections:
        await ws.close()
    return {"cpu": seconds, "moves": played, "update_bytes": statistics.fmean(watch.update_bytes or [0])}


async def _stop(readers: list[asyncio.Task[None]]) -> None:
    for reader in readers:
        reader.cancel()
    await asyncio.gather(*readers, return_exceptions=True)


def _cpu_of(pid: int) -> float:
    return _cpu(psutil.Process(pid))


async def _seat(ws: Any, token: str, game_id: str) -> dict[str, Any]:
    """Say hello with a seat's token and join: the seat's view as plain data."""
    await ws.send(f'{{"type": "hello", "token": "{token}"}}')
    await ws.recv()
    await ws.send(f'{{"type": "join", "game_id": "{game_id}"}}')
    view: dict[str, Any] = msgspec.json.decode(await ws.recv())
    assert view["type"] == "view", view
    return view


async def _play(seats: list[Any], documents: list[dict[str, Any]], watch: Watch, rng: random.Random) -> int:
    """One game to its end: each move sent once the one before reached everyone."""
    version, made = documents[0]["version"], 0
    while documents[0]["result"] is None:
        actor = next(index for index, doc in enumerate(documents) if _pending(doc))
        legal = msgspec.convert(documents[actor]["legal"], LegalActions[Any])
        action = random_action(legal, Any, Rng(rng.getrandbits(53)))
        act = {"type": "act", "action_id": f"m{version}", "version": version, "action": action}
        await seats[actor].send(msgspec.json.encode(act).decode())
        version += 1
        for index, ws in enumerate(seats):
            documents[index] = await _until_version(ws, documents[index], version)
        await watch.until(version)
        made += 1
    return made


def _pending(document: dict[str, Any]) -> bool:
    legal = document["legal"]
    return bool(legal.get("actions") or legal.get("choices"))


async def _until_version(ws: Any, document: dict[str, Any], version: int) -> dict[str, Any]:
    while document["version"] < version:
        message = decode_server(await asyncio.wait_for(ws.recv(), 60), Encoding.JSON)
        if isinstance(message, Update):
            document = patch.apply(document, message.patch)
            document["version"] = message.version
    return document


async def relay(port: int, listeners: int, moves: int, size: int, pid: int) -> dict[str, float]:
    """The relay: a seat sends ``moves`` frames of ``size`` bytes to two seats and N listeners."""
    url = f"ws://127.0.0.1:{port}/ws?game=g"
    watch = Watch(listeners + 2)
    watch.versions = [-1] * (listeners + 2)
    connections = await _connect_all(listeners + 2, lambda _: websockets.connect(url, compression=None))
    counts = [0] * len(connections)

    async def read(ws: Any, index: int) -> None:
        async for _frame in ws:
            counts[index] += 1
            watch.seen(index, counts[index])

    readers = [asyncio.create_task(read(ws, index)) for index, ws in enumerate(connections)]
    padding = "x" * max(0, size - 40)
    start = _cpu_of(pid)
    for move in range(1, moves + 1):
        await connections[0].send(f'{{"type": "update", "version": {move}, "p": "{padding}"}}')
        await watch.until(move)
    seconds = _cpu_of(pid) - start
    await _stop(readers)
    for ws in connections:
        await ws.close()
    return {"cpu": seconds, "moves": moves, "update_bytes": size}


UNLIMITED = {"PACKPLAY_SPECTATORS_PER_GAME": "0"}
DEFLATE = UNLIMITED | {"PACKPLAY_WS_DEFLATE": "1"}


def _systems(options: argparse.Namespace) -> list[System]:
    serve = ["-m", "packplay.cli", "serve", "--port", "{port}", "--redis-url", "{redis}"]
    pythons = [("packplay", sys.executable)]
    if options.baseline is not None:
        pythons.append(("packplay before", str(options.baseline / ".venv" / "bin" / "python")))
    found = []
    for name, python in pythons:
        found.append(System(name, [python, *serve], "packplay", env=UNLIMITED))
        if options.deflate:
            found.append(System(f"{name} deflate", [python, *serve], "packplay", env=DEFLATE, deflate=True))
    return found


def _measure(system: System, count: int, options: argparse.Namespace, size: int) -> dict[str, float]:
    with EmbeddedRedis() as store:
        port = free_port()
        started = replace(system, command=[part.replace("{redis}", store.url) for part in system.command])
        if store.pid is not None and options.server_cpu is not None:
            os.sched_setaffinity(store.pid, {int(options.server_cpu)})
        with running(started, port, options.server_cpu) as server:
            if system.target == "relay":
                return asyncio.run(relay(port, count, options.moves, size, server.pid))
            return asyncio.run(packplay(port, count, options.moves, system.deflate, server.pid))


def _cost(system: System, count: int, options: argparse.Namespace, size: int) -> tuple[float, float]:
    """The CPU a move with no one watching, and each watcher's share of a move (seconds)."""
    alone = _measure(system, 0, options, size)
    watched = _measure(system, count, options, size)
    base = alone["cpu"] / alone["moves"]
    each = (watched["cpu"] / watched["moves"] - base) / count
    what = "listeners" if system.target == "relay" else "spectators"
    print(
        f"{system.name:>24} | {count:>5} {what:<10} | alone {base * 1e6:6.0f} us a move"
        f" | watched {watched['cpu'] / watched['moves'] * 1e3:6.2f} ms a move"
        f" | {each * 1e6:5.1f} us each a move | update {watched['update_bytes']:.0f} B",
        flush=True,
    )
    return each, watched["update_bytes"]


def main(options: argparse.Namespace) -> None:
    if options.driver_cpu is not None:
        os.sched_setaffinity(0, {int(options.driver_cpu)})
    print(f"server and Redis on CPU {options.server_cpu}, driver on CPU {options.driver_cpu}", flush=True)
    relay_system = System("relay", [sys.executable, str(LOAD / "relay.py"), "--port", "{port}"], "relay")
    for count in options.spectators:
        costs: dict[str, list[float]] = {}
        for _ in range(options.repeat):
            size = 0.0
            for system in _systems(options):
                each, update = _cost(system, count, options, 0)
                costs.setdefault(system.name, []).append(each)
                size = size or update
            costs.setdefault("relay", []).append(_cost(relay_system, count, options, int(size))[0])
        floor = statistics.median(costs["relay"])
        for name, found in costs.items():
            middle = statistics.median(found)
            print(
                f"{count} spectators, median of {len(found)}: {name}: {middle * 1e6:.1f} us each a move,"
                f" {middle / floor:.2f}x the relay's per listener",
                flush=True,
            )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--spectators", type=int, nargs="+", default=[100, 1000])
    parser.add_argument(
        "--moves", type=int, default=120, help="moves measured per run (whole games: a few more)"
    )
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--deflate", action="store_true")
    parser.add_argument("--baseline", type=Path, default=None, help="another checkout, with its own .venv")
    parser.add_argument("--server-cpu", default="0")
    parser.add_argument("--driver-cpu", default="1")
    main(parser.parse_args())
