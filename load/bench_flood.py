"""Move latency of an innocent game while other clients flood the server with pings.

    python load/bench_flood.py                      # the default limits
    python load/bench_flood.py --unlimited          # no frame limit: how it was before it

Starts a private Redis and one ``packplay serve`` with the default limits (only the
per-client limits of new games are lifted: every game here comes from one address). Then
two phases of ``--seconds`` each: an innocent game (two SDK bots thinking ``--think``
seconds, one game after another) played alone, then again while ``--flooders`` processes
each open a WebSocket, say ``hello`` and send ``ping`` as fast as the socket takes them,
reading what comes back, and connect again whenever the server closes them. Prints the
p50/p95/p99 latency of the innocent moves (sent to every seat holding the version) in both
phases, and what the flooders sent, got back, and how often they were closed with which
code. Not a test: run it by hand.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import json
import statistics
import subprocess
import sys
import time
from collections import Counter
from typing import Any

import websockets
from bench_server import Seat, _moved_on, close_tables, open_tables, serve

from packplay.server.storage.embedded import EmbeddedRedis
from packplay_clients import RestClient, pending
from packplay_protocol.codec import encode
from packplay_protocol.from_client import Hello, Ping
from packplay_protocol.to_client import Accepted
from packplay_protocol.version import PROTOCOL_VERSION, Encoding, subprotocol

LIFTED = {
    "PACKPLAY_GAMES_PER_MINUTE": "0",
    "PACKPLAY_OPEN_LOBBIES": "0",
    "PACKPLAY_CONNECTIONS_PER_ADDRESS": "0",
    "PACKPLAY_LOG_LEVEL": "warning",
}
UNLIMITED = {"PACKPLAY_FRAMES_PER_SECOND": "1000000000", "PACKPLAY_FRAME_BURST": "1000000000"}


# the flooder (a process of its own, so that its CPU is not the measuring loop's)


async def flood(base: str, seconds: float) -> dict[str, Any]:
    url = base.replace("http://", "ws://") + "/v2/ws"
    offer = [subprotocol(PROTOCOL_VERSION, Encoding.JSON)]
    hello = encode(Hello(client="flood"), Encoding.JSON).decode()
    ping = encode(Ping(nonce="x"), Encoding.JSON).decode()
    sent, received, closes = 0, Counter[str](), Counter[int]()
    deadline = time.monotonic() + seconds

    async def read(ws: websockets.ClientConnection) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            async for frame in ws:
                received[json.loads(frame)["type"]] += 1

    while time.monotonic() < deadline:
        try:
            ws = await websockets.connect(url, subprotocols=offer)  # type: ignore[list-item]
        except OSError:
            await asyncio.sleep(0.05)
            continue
        reader = asyncio.create_task(read(ws))
        try:
            await ws.send(hello)
            while time.monotonic() < deadline:
                await ws.send(ping)
                sent += 1
                if sent % 64 == 0:
                    await asyncio.sleep(0)  # let the reader see what comes back
        except websockets.ConnectionClosed:
            pass
        await ws.close()
        await reader
        closes[ws.close_code or 0] += 1
    return {"pings_sent": sent, "received": dict(received), "closes": dict(closes)}


# the innocent game


async def innocent(base: str, seconds: float, think: float) -> list[float]:
    """Play one game after another for ``seconds``: the round trip of every applied move
    (from sending the action to the update that acknowledges it)."""
    found: list[float] = []
    deadline = time.monotonic() + seconds
    async with RestClient(base) as lobby:
        while time.monotonic() < deadline:
            tables = await open_tables(lobby, 1, Encoding.JSON)
            seats = tables[0].seats
            try:
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(max(deadline - time.monotonic(), 0.1)):
                        await asyncio.gather(*(_play(seat, think, found) for seat in seats))
            finally:
                await close_tables(tables)
    return found


async def _play(seat: Seat, think: float, found: list[float]) -> None:
    connection = seat.connection
    while connection.game_over is None:
        view = connection.view
        assert view is not None
        if pending(view):
            await asyncio.sleep(think * seat.rng.uniform(0.5, 1.5))
            sent = time.perf_counter()
            answer = await connection.act(seat.bot.choose(view), version=view.version)
            if isinstance(answer, Accepted):
                found.append(time.perf_counter() - sent)
        await connection.wait_until(functools.partial(_moved_on, connection, view))


def _figures(label: str, latencies: list[float]) -> str:
    if len(latencies) < 2:
        return f"{label}: too few moves ({len(latencies)})"
    ms = sorted(value * 1000 for value in latencies)
    cuts = statistics.quantiles(ms, n=100)
    return f"{label}: {len(ms)} moves, p50 {cuts[49]:.1f} ms, p95 {cuts[94]:.1f} ms, p99 {cuts[98]:.1f} ms"


async def main(options: argparse.Namespace) -> None:
    settings = LIFTED | (UNLIMITED if options.unlimited else {})
    with EmbeddedRedis() as redis_server:
        async with serve(redis_server.url, settings) as (base, _process):
            quiet = await innocent(base, options.seconds, options.think)
            command = [sys.executable, __file__, "--flood", base, "--seconds", str(options.seconds + 2)]
            flooders = [
                subprocess.Popen(command, stdout=subprocess.PIPE, text=True) for _ in range(options.flooders)
            ]
            await asyncio.sleep(1.0)  # the flood is under way
            flooded = await innocent(base, options.seconds, options.think)
            reports = [json.loads(f.communicate()[0]) for f in flooders]
    limits = "no frame limit" if options.unlimited else "default limits"
    print(f"{limits}, {options.flooders} flooder(s), innocent bots thinking {options.think} s")
    print(_figures("alone       ", quiet))
    print(_figures("during flood", flooded))
    for number, report in enumerate(reports):
        print(f"flooder {number}: {json.dumps(report)}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="length of each phase")
    parser.add_argument("--flooders", type=int, default=1)
    parser.add_argument("--think", type=float, default=0.2, help="mean seconds an innocent bot thinks")
    parser.add_argument("--unlimited", action="store_true", help="lift the frame limit (the old server)")
    parser.add_argument("--flood", metavar="URL", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.flood:
        print(json.dumps(asyncio.run(flood(args.flood, args.seconds))))
    else:
        asyncio.run(main(args))
