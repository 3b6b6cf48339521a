"""What one abusive address costs an innocent game: spectators, idle connections, house games.

    python load/bench_abuse.py                  # the default limits per address
    python load/bench_abuse.py --unlimited      # those limits lifted: what they hold back
    python load/bench_abuse.py --seconds 10 --abuse spectators

Starts a private Redis and one ``packplay serve`` with the default limits (the innocent's
own games come from the loopback address, which creates a game every few seconds). First
the innocent game alone: two SDK bots thinking ``--think`` seconds, one game after another.
Then, for each abuse, the same while another process abuses the server from one address of
its own (``X-Forwarded-For``, which the server believes from the loopback proxy):

- spectators: up to ``--spectators`` WebSockets that join every game being played as
  spectators (the innocent's among them), each one a connection;
- connections: up to ``--connections`` WebSockets that say ``hello`` and stay idle;
- house: games of four with three hard house seats and a one-second turn clock, the
  fourth seat never played, created as fast as the server lets the address.

Prints, per phase, the innocent moves' p50 and p95 (from the action sent to the update
that acknowledges it) and their ratio to the phase alone, the server's CPU share, its
memory, and what the abuser got (accepted and refused). Compare ratios within one run.
Not a test: run it by hand.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import statistics
import subprocess
import sys
import time
from collections import Counter
from typing import Any

import httpx
import psutil
import websockets
from bench_flood import innocent
from bench_server import serve

from packplay.server.storage.embedded import EmbeddedRedis
from packplay_protocol.codec import decode_server, encode
from packplay_protocol.from_client import Hello, Join
from packplay_protocol.to_client import Error, ViewMessage
from packplay_protocol.version import PROTOCOL_VERSION, Encoding, subprotocol

ABUSER = "198.51.100.66"
ABUSES = ("spectators", "connections", "house")
INNOCENT = {"PACKPLAY_GAMES_PER_MINUTE": "0", "PACKPLAY_OPEN_LOBBIES": "0", "PACKPLAY_LOG_LEVEL": "warning"}
UNLIMITED = {
    "PACKPLAY_CONNECTIONS_PER_ADDRESS": "0",
    "PACKPLAY_SPECTATORS_PER_ADDRESS": "0",
    "PACKPLAY_SPECTATORS_PER_GAME": "0",
    "PACKPLAY_HOUSE_GAMES_PER_MINUTE": "0",
    "PACKPLAY_HOUSE_MOVES_PER_MINUTE": "0",
}


# the abuser (a process of its own, so that its CPU is not the measuring loop's)


async def abuse(kind: str, base: str, seconds: float, count: int) -> dict[str, Any]:
    tally: Counter[str] = Counter()
    deadline = time.monotonic() + seconds
    held: list[websockets.ClientConnection] = []
    try:
        if kind == "house":
            await _house_games(base, deadline, tally)
        elif kind == "connections":
            await _connections(base, deadline, count, held, tally, watch=False)
        else:
            await _connections(base, deadline, count, held, tally, watch=True)
    finally:
        for ws in held:
            with contextlib.suppress(Exception):
                await ws.close()
    return dict(tally)


async def _open(base: str) -> websockets.ClientConnection:
    url = base.replace("http://", "ws://") + "/v2/ws"
    offer = [subprotocol(PROTOCOL_VERSION, Encoding.JSON)]
    headers = {"X-Forwarded-For": ABUSER}
    return await websockets.connect(url, subprotocols=offer, additional_headers=headers, max_size=2**24)  # type: ignore[list-item]


async def _answer(ws: websockets.ClientConnection) -> Any:
    return decode_server(await asyncio.wait_for(ws.recv(), 10), Encoding.JSON)


async def _connections(
    base: str, deadline: float, count: int, held: list[Any], tally: Counter[str], watch: bool
) -> None:
    """Open up to ``count`` connections (spectating the games being played, with ``watch``),
    as fast as the server takes them, and keep them until the deadline."""
    async with httpx.AsyncClient(base_url=base, headers={"X-Forwarded-For": ABUSER}) as http:
        while time.monotonic() < deadline:
            games = [""]
            if watch:
                listed = (await http.get("/v2/games", params={"status": "playing"})).json()["games"]
                games = [game["game_id"] for game in listed] or [""]
            for game_id in games:
                if len(held) >= count or time.monotonic() >= deadline:
                    break
                await _one(base, game_id if watch else None, held, tally)
            if len(held) >= count:
                await asyncio.sleep(0.5)
                held[:] = [ws for ws in held if ws.close_code is None]


async def _one(base: str, game_id: str | None, held: list[Any], tally: Counter[str]) -> None:
    try:
        ws = await _open(base)
        await ws.send(encode(Hello(client="abuse"), Encoding.JSON).decode())
        answer = await _answer(ws)
        if isinstance(answer, Error):
            tally[f"refused {answer.code.value}"] += 1
            await ws.close()
            return
        if game_id:
            await ws.send(encode(Join(game_id=game_id, role="spectator"), Encoding.JSON).decode())
            joined = await _answer(ws)
            if not isinstance(joined, ViewMessage):
                tally[f"join refused {getattr(joined, 'code', joined)}"] += 1
                await ws.close()
                return
        tally["accepted"] += 1
        held.append(ws)
    except (OSError, websockets.WebSocketException, TimeoutError) as error:
        tally[f"failed {type(error).__name__}"] += 1


async def _house_games(base: str, deadline: float, tally: Counter[str]) -> None:
    house = [{"seat": seat, "bot": "hard"} for seat in (1, 2, 3)]
    body = {"game": "wedding_planner", "players": 4, "seats": ["idle"], "house": house, "turn_seconds": 1}
    async with httpx.AsyncClient(base_url=base, headers={"X-Forwarded-For": ABUSER}) as http:
        while time.monotonic() < deadline:
            answer = await http.post("/v2/games", json=body)
            tally["accepted" if answer.status_code == 201 else f"refused {answer.status_code}"] += 1
            await asyncio.sleep(0.5)


# the measuring side


def _percentiles(latencies: list[float]) -> tuple[float, float]:
    if len(latencies) < 2:
        return float("nan"), float("nan")
    cuts = statistics.quantiles([value * 1000 for value in latencies], n=100)
    return cuts[49], cuts[94]


async def _phase(base: str, server: psutil.Process, options: argparse.Namespace, kind: str | None) -> str:
    abuser = None
    if kind is not None:
        command = [sys.executable, __file__, "--abuser", kind, base, "--seconds", str(options.seconds + 2)]
        command += ["--count", str(options.spectators if kind == "spectators" else options.connections)]
        abuser = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
        await asyncio.sleep(1.0)  # the abuse is under way
    server.cpu_percent()
    moves = await innocent(base, options.seconds, options.think)
    cpu, rss = server.cpu_percent(), server.memory_info().rss / 2**20
    got = json.loads(abuser.communicate()[0]) if abuser is not None else {}
    p50, p95 = _percentiles(moves)
    return json.dumps(
        {
            "phase": kind or "alone",
            "p50": p50,
            "p95": p95,
            "moves": len(moves),
            "cpu": cpu,
            "rss_mib": rss,
            "abuser": got,
        }
    )


async def main(options: argparse.Namespace) -> None:
    settings = INNOCENT | (UNLIMITED if options.unlimited else {})
    rows = []
    with EmbeddedRedis() as redis_server:
        async with serve(redis_server.url, settings) as (base, server):
            for kind in (None, *options.abuse):
                rows.append(json.loads(await _phase(base, server, options, kind)))
    limits = "limits per address lifted" if options.unlimited else "default limits per address"
    print(f"{limits}, {options.seconds:g} s a phase, innocent bots thinking {options.think} s")
    alone = rows[0]
    heading = (
        "| phase | moves | p50 ms | p95 ms | p50 / alone | p95 / alone | server CPU | RSS MiB | abuser got |"
    )
    print(heading)
    print("|---|---|---|---|---|---|---|---|---|")
    for row in rows:
        ratio50, ratio95 = row["p50"] / alone["p50"], row["p95"] / alone["p95"]
        print(
            f"| {row['phase']} | {row['moves']} | {row['p50']:.1f} | {row['p95']:.1f} | {ratio50:.2f}x |"
            f" {ratio95:.2f}x | {row['cpu']:.0f}% | {row['rss_mib']:.0f} | {row['abuser'] or '-'} |"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=15.0, help="length of each phase")
    parser.add_argument("--think", type=float, default=0.1, help="mean seconds an innocent bot thinks")
    parser.add_argument("--abuse", nargs="+", choices=ABUSES, default=list(ABUSES))
    parser.add_argument("--spectators", type=int, default=3000, help="spectator connections the abuser tries")
    parser.add_argument("--connections", type=int, default=3000, help="idle connections the abuser tries")
    parser.add_argument("--unlimited", action="store_true", help="lift the limits per address")
    parser.add_argument("--abuser", nargs=2, metavar=("KIND", "URL"), help=argparse.SUPPRESS)
    parser.add_argument("--count", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.abuser:
        kind, url = args.abuser
        print(json.dumps(asyncio.run(abuse(kind, url, args.seconds, args.count))))
    else:
        asyncio.run(main(args))
