"""The tournament benchmark: a Swiss event of bots against a real server, beside casual games.

    python load/bench_tournament.py                            # 64, 256 and 1,024 players
    python load/bench_tournament.py --players 64 256 --rounds 3 --repeat 3
    python load/bench_tournament.py --baseline ../before       # also an older checkout's sources
    python load/bench_tournament.py --players 256 --profile /tmp/spy  # py-spy over each event

For each size N and each system (this checkout, and ``--baseline``'s: its ``server``,
``protocol`` and ``clients`` folders on this interpreter, so a plain git worktree will
do), one server process is started on a private Redis, pinned with it to one core (the
driver, this process, on the other), as ``load/bench_hot_path.py`` does. Then, against
that one server, ``--repeat`` times in turn:

1. **casual**: N/2 Day vs Night games (at most ``--casual-games``), each pair of bots
   playing ``--rounds`` games in a row, each created through REST with its seats taken
   and played on the two kept WebSockets (a new hello per game), as tournament players do;
2. **tournament**: N bots register for a Swiss event of ``--rounds`` rounds, each follows
   it over a WebSocket of its own (``follow`` with its secret) and plays each table it is
   told of on a kept game socket (:func:`packplay_clients.play_tournament`);
   ``--watchers`` more sockets follow the event as watchers (pairings and standings).

Printed per size and system: server CPU per action of each phase and their ratio (all the
server's CPU from the start to the last game's end over the actions played: set-up of the
games, recording results, pairing, pushes to followers included); what the event cost
beyond its actions at the casual rate, per recorded result (recording, feeds, pairing,
the runner's passes); the standings messages the watchers received; and, from a server
that counts them (``packplay_tournament_push*`` metrics), its pushes of the round and
standings to the watchers and the CPU each took. Redis CPU per action beside. With
``--repeat``, the medians of the ratios. Compare ratios within one run: the casual figure
itself moves by a third between runs on a shared machine.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import os
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

LOAD = Path(__file__).resolve().parent
sys.path.insert(0, str(LOAD))
from bench_hot_path import Deployment, _cpu, _metrics, _sample, deployed, systems  # noqa: E402

from packplay_clients import (  # noqa: E402
    Answer,
    GameConnection,
    RandomBot,
    RestClient,
    Servers,
    TournamentFeed,
    connect,
    play,
    play_tournament,
)
from packplay_protocol.to_client import TournamentStandings  # noqa: E402

GAME = "day_night"
TURN_SECONDS = 600.0
"""Long turns: no clock runs out while a busy driver gets round to a seat."""
CONCURRENCY = 64
"""REST calls in flight at once while registering and creating."""


@dataclass
class Phase:
    cpu: float
    redis_cpu: float
    actions: int
    games: int
    seconds: float
    watchers: int = 0
    pushes: int = 0
    """Standings messages received by the watchers."""
    server_pushes: float = float("nan")
    """Pushes of the round and standings the server made (each to every watcher), NaN for a
    server that does not count them..."""
    push_cpu: float = float("nan")
    """...and the CPU time they took."""


class Counter:
    def __init__(self) -> None:
        self.actions = 0

    def observe(self, answer: Answer, seconds: float) -> None:
        self.actions += 1


def cpu_of(deployment: Deployment) -> tuple[float, float]:
    server = sum(_cpu(process) for process in deployment.servers)
    redis_cpu = sum(_cpu(process) for process in deployment.redis_processes)
    return server, redis_cpu


def pushes_of(deployment: Deployment) -> tuple[float, float]:
    """The server's count of pushes to watchers and their CPU seconds (NaN when not counted)."""
    text = _metrics(deployment.ports[0], 2)
    return (
        _sample(text, "packplay_tournament_pushes_total"),
        _sample(text, "packplay_tournament_push_cpu_seconds_total"),
    )


async def measured(deployment: Deployment, body: Callable[[], Awaitable[tuple[int, int, int]]]) -> Phase:
    """Server and Redis CPU over ``body``, which returns (actions, games, pushes)."""
    await asyncio.sleep(1.0)  # what came before settles
    counted = await asyncio.to_thread(pushes_of, deployment)
    server, redis_cpu = cpu_of(deployment)
    started = time.perf_counter()
    actions, games, pushes = await body()
    seconds = time.perf_counter() - started
    server_after, redis_after = cpu_of(deployment)
    counted_after = await asyncio.to_thread(pushes_of, deployment)
    return Phase(
        cpu=server_after - server,
        redis_cpu=redis_after - redis_cpu,
        actions=actions,
        games=games,
        seconds=seconds,
        pushes=pushes,
        server_pushes=counted_after[0] - counted[0],
        push_cpu=counted_after[1] - counted[1],
    )


async def gated(calls: list[Callable[[], Awaitable[Any]]]) -> list[Any]:
    gate = asyncio.Semaphore(CONCURRENCY)

    async def one(call: Callable[[], Awaitable[Any]]) -> Any:
        async with gate:
            return await call()

    return await asyncio.gather(*(one(call) for call in calls))


async def casual(url: str, deployment: Deployment, games: int, rounds: int) -> Phase:
    counter = Counter()
    rest = RestClient(url)

    async def pair(index: int) -> None:
        sockets: list[GameConnection | None] = [None, None]
        try:
            for number in range(rounds):
                created = await rest.create_game(
                    GAME, 2, seats=(f"a{index}", f"b{index}"), turn_seconds=TURN_SECONDS
                )

                async def seat(i: int, number: int = number, created: Any = created) -> None:
                    token = created.grants[i].token
                    if sockets[i] is None:
                        sockets[i] = await connect(url, token)
                    else:
                        await sockets[i].switch(token)  # type: ignore[union-attr]
                    connection = sockets[i]
                    assert connection is not None
                    await connection.join(created.game_id)
                    await play(
                        connection, RandomBot(seed=index * 1000 + number * 2 + i), observe=counter.observe
                    )

                await asyncio.gather(seat(0), seat(1))
        finally:
            for connection in sockets:
                if connection is not None:
                    await connection.close()

    async def body() -> tuple[int, int, int]:
        await asyncio.gather(*(pair(i) for i in range(games)))
        return counter.actions, games * rounds, 0

    try:
        return await measured(deployment, body)
    finally:
        await rest.aclose()


@contextlib.contextmanager
def profiled(deployment: Deployment, output: Path | None) -> Iterator[None]:
    """py-spy recording the server while the block runs (raw stacks in ``output``), if asked."""
    if output is None:
        yield
        return
    spy = Path(sys.executable).parent / "py-spy"
    command = [str(spy), "record", "-p", str(deployment.servers[0].pid), "-r", "200", "--format", "raw"]
    recorder = subprocess.Popen([*command, "-o", str(output)], stdout=subprocess.DEVNULL)
    try:
        yield
    finally:
        recorder.send_signal(signal.SIGINT)
        recorder.wait(timeout=60)


async def tournament(
    url: str, deployment: Deployment, players: int, rounds: int, watchers: int, profile: Path | None = None
) -> Phase:
    counter = Counter()
    rest = RestClient(url)
    try:
        created = await rest.create_tournament("bench", GAME, rounds=rounds, turn_seconds=TURN_SECONDS)
        tournament_id, organizer = created.tournament.tournament_id, created.organizer_token
        entries = await gated(
            [lambda i=i: rest.register(tournament_id, f"p{i}") for i in range(players)]  # type: ignore[misc]
        )
        pool = Servers(url)
        feeds = [TournamentFeed(pool, tournament_id, watch=True) for _ in range(watchers)]
        await asyncio.gather(*(feed.open() for feed in feeds))
        games: list[int] = []

        async def player(index: int, secret: str) -> None:
            played = await play_tournament(
                url, tournament_id, secret, RandomBot(seed=index), observe=counter.observe, idle_timeout=None
            )
            games.append(len(played))

        registered = [asyncio.create_task(player(i, e.secret)) for i, e in enumerate(entries)]
        await asyncio.sleep(2.0)  # every player follows the event before it starts

        async def body() -> tuple[int, int, int]:
            pushes = [0]

            def heard(message: Any) -> None:
                if isinstance(message, TournamentStandings):
                    pushes[0] += 1

            for feed in feeds:
                feed.listen(heard)
            await rest.start_tournament(tournament_id, organizer)
            await asyncio.gather(*registered)
            final = await rest.standings(tournament_id)
            await asyncio.sleep(1.5)  # the last standings reach the watchers
            assert final.final, "the event did not finish"
            return counter.actions, sum(games) // 2, pushes[0]

        try:
            with profiled(deployment, profile):
                phase = await measured(deployment, body)
            phase.watchers = watchers
            return phase
        finally:
            for feed in feeds:
                await feed.aclose()
            await pool.aclose()
    finally:
        await rest.aclose()


def report(name: str, players: int, casual_: Phase, event: Phase) -> list[str]:
    per_casual = casual_.cpu / max(1, casual_.actions)
    per_action = event.cpu / max(1, event.actions)
    beyond = event.cpu - event.actions * per_casual
    per_result = beyond / max(1, event.games)
    casual_redis = casual_.redis_cpu / max(1, casual_.actions)
    lines = [
        f"{name:16} {players:>5} players: casual {per_casual * 1e6:6.0f} us/action"
        f" ({casual_.actions} actions, {casual_.games} games, Redis {casual_redis * 1e6:4.0f} us),"
        f" tournament {per_action * 1e6:6.0f} us/action ({event.actions} actions, {event.games} games,"
        f" Redis {event.redis_cpu / max(1, event.actions) * 1e6:4.0f} us, {event.seconds:.0f} s)"
        f" -> ratio {per_action / per_casual:4.2f}x",
        f"{'':16} beyond the actions at the casual rate: {per_result * 1e3:6.2f} ms per recorded result"
        f" ({beyond:.2f} s over {event.games} results); {event.pushes} standings pushes to watchers"
        f" ({event.pushes / max(1, event.games):.2f} per result)",
    ]
    if event.server_pushes == event.server_pushes:  # counted by the server
        per_push = event.push_cpu / max(1, event.server_pushes)
        lines.append(
            f"{'':16} the server pushed the round and standings {event.server_pushes:.0f} times,"
            f" {per_push * 1e3:.2f} ms of CPU each (to {event.watchers} watchers)"
        )
    return lines


async def run_size(
    url: str, deployment: Deployment, options: argparse.Namespace, players: int, name: str
) -> list[tuple[Phase, Phase]]:
    """``--repeat`` rounds of the casual games then the event, on one server."""
    games = min(players // 2, options.casual_games)
    rounds = []
    for _ in range(options.repeat):
        casual_ = await casual(url, deployment, games, options.rounds)
        profile = None
        if options.profile is not None:
            options.profile.mkdir(parents=True, exist_ok=True)
            profile = options.profile / f"{name.replace(' ', '-')}-{players}.txt"
        rounds.append(
            (casual_, await tournament(url, deployment, players, options.rounds, options.watchers, profile))
        )
    return rounds


def medians(name: str, players: int, rounds: list[tuple[Phase, Phase]]) -> str:
    ratios, results = [], []
    for casual_, event in rounds:
        per_casual = casual_.cpu / max(1, casual_.actions)
        ratios.append(event.cpu / max(1, event.actions) / per_casual)
        results.append((event.cpu - event.actions * per_casual) / max(1, event.games))
    return (
        f"{name:16} {players:>5} players, {len(rounds)} rounds: tournament action / casual action"
        f" {statistics.median(ratios):4.2f}x (each: {', '.join(f'{r:.2f}x' for r in ratios)}),"
        f" beyond the casual rate {statistics.median(results) * 1e3:.2f} ms per result"
        f" (each: {', '.join(f'{r * 1e3:.2f}' for r in results)})"
    )


def main(options: argparse.Namespace) -> None:
    if options.driver_cpu is not None:
        os.sched_setaffinity(0, {int(options.driver_cpu)})
    hot = argparse.Namespace(redis="single", redis_url=None, server_cpu=options.server_cpu, processes=1)
    chosen = [s for s in systems(None, ["json"]) if s.target == "packplay"]
    if options.baseline is not None:
        # The older checkout's sources on this interpreter (a worktree has no .venv of its own).
        tree = options.baseline.resolve()
        path = os.pathsep.join(str(tree / part) for part in ("server", "protocol", "clients"))
        before = dataclasses.replace(chosen[0], name="packplay before", env={"PYTHONPATH": path})
        chosen.append(before)
    env = {"PACKPLAY_TOURNAMENT_INTERVAL": str(options.interval)}
    print(
        f"server and Redis on CPU {options.server_cpu}, driver on CPU {options.driver_cpu};"
        f" Swiss, {options.rounds} rounds of {GAME}, {options.watchers} watchers",
        flush=True,
    )
    for players in options.players:
        for system in chosen:
            system.env = system.env | env
            with deployed(system, hot) as deployment:
                url = f"http://127.0.0.1:{deployment.ports[0]}"
                rounds = asyncio.run(run_size(url, deployment, options, players, system.name))
            for casual_, event in rounds:
                print("\n".join(report(system.name, players, casual_, event)), flush=True)
            if len(rounds) > 1:
                print(medians(system.name, players, rounds), flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--players", type=int, nargs="+", default=[64, 256, 1024], help="players of the event"
    )
    parser.add_argument(
        "--rounds", type=int, default=4, help="rounds of the event (and games per casual pair)"
    )
    parser.add_argument(
        "--repeat", type=int, default=1, help="rounds of both phases per server; medians printed"
    )
    parser.add_argument("--watchers", type=int, default=8, help="sockets following the event as watchers")
    parser.add_argument("--casual-games", type=int, default=64, help="casual pairs at most")
    parser.add_argument("--interval", type=float, default=0.5, help="the runner's tournament_interval")
    parser.add_argument("--server-cpu", default="0", help="the CPU of the server and its Redis")
    parser.add_argument("--driver-cpu", default="1", help="the CPU of this driver")
    parser.add_argument("--baseline", type=Path, help="an older checkout (with its .venv) to run as well")
    parser.add_argument(
        "--profile", type=Path, help="record the server with py-spy during each event (raw stacks here)"
    )
    with contextlib.suppress(KeyboardInterrupt):
        main(parser.parse_args())
