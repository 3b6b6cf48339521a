"""The hot-path benchmark: Packplay against a bare WebSocket relay, in one run, same driver.

    python load/bench_hot_path.py                      # 50, 500 and 5,000 games
    python load/bench_hot_path.py --games 50 --seconds 10
    python load/bench_hot_path.py --games 50 500 --repeat 3  # three rounds: median ratios to the relay
    python load/bench_hot_path.py --baseline ../old    # also an older checkout (with its own .venv)
    python load/bench_hot_path.py --processes 2 --redis cluster --games 500

Scale-out runs: ``--processes N`` starts N server processes on one Redis (the seats of
each game on different processes, so every move crosses them through Redis pub/sub);
``--redis cluster`` puts the games on a Redis Cluster of 3 masters and 3 replicas on
loopback (the tests' own, ``tests/redis_topologies.py``), ``--redis-url`` on a Redis
of your own (a ``redis+cluster://`` URL included). Those runs measure Packplay alone.

Closed loop: N concurrent Day vs Night games, both seats connected, one move in flight
per game; a move counts when both seats have their update; games that end are replaced,
on the same two connections (each seat asks for a rematch on its socket, as a player going
from game to game does; '--fresh-connections' also runs Packplay with a REST create and
two new connections per game, as browsers arrive). Frames go uncompressed, as the relay's do; '--deflate' also
runs Packplay as it is configured by default, with permessage-deflate (each message
compressed on its own), its seats offering it as browsers do. The driver is one Node
process ('load/bench_moves.mjs', on the 'ws' package and the JavaScript SDK's helpers).
The server is pinned to one core with its Redis, the driver to the other ('taskset');
the relay ('load/relay.py') runs under the same uvicorn settings as the server. Printed
per system and N: moves/s, p50/p99 move-to-every-seat latency, server and Redis CPU per
move (and the share of the server's CPU its garbage collector took), the core's time a
move (one second over the moves a second: the server's core runs its Redis too) split into
the server in game, the set-up of the games that replaced those that ended, Redis and the
rest, Redis round trips and bytes per move, frames and bytes per move to each seat (the
median size of an update frame, and the bytes its sockets read off the wire: frame
headers, compression and the frames of the games set up while measuring included),
failed actions and dropped connections; the set-up per game in both shapes (a REST create
and two new connections; create and take_seat on two kept connections) as server CPU and
as a multiple of the relay's move in the same round; then server RSS per idle connection, and Redis
memory per active game (weighed as the measured window opens, the games at every stage)
and per finished game (as it closes), each with those games' mean version. Compare
figures as ratios within one run: absolute figures drift.

Needs Node 20+ ('npm ci --prefix load' is run when 'load/node_modules' is missing).
"""

from __future__ import annotations

import argparse
import bisect
import contextlib
import dataclasses
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import httpx
import psutil
import redis

from packplay.server.storage.embedded import EmbeddedRedis, free_port

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from redis_topologies import LocalCluster

LOAD = Path(__file__).resolve().parent
ROOT = LOAD.parent
START_TIMEOUT = 30.0
SERVER_ENV = {
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
    "PACKPLAY_WS_DEFLATE": "0",
    "PACKPLAY_SEND_QUEUE": "1024",
}


@dataclass
class System:
    """A server under test: how to start it, where its driver connects, which protocol it speaks."""

    name: str
    command: list[str]
    target: str
    protocol: int = 2
    env: dict[str, str] = field(default_factory=dict)
    encoding: str = "json"
    """What the driver's seats speak (the relay echoes small JSON frames either way)."""
    fresh: bool = False
    """Two new connections per game, instead of a new hello on the two kept."""
    deflate: bool = False
    """The seats offer permessage-deflate and the server accepts it (its default setting)."""
    setup: str = "messages"
    """How kept connections get their next game: by messages on the socket, or "rest" (a REST
    create, then hello and join: an older checkout without those messages)."""


@dataclass
class Counters:
    """What is read at each phase boundary."""

    server_cpu: float
    """The server processes' CPU time before their metrics were asked for..."""
    server_cpu_after: float
    """...and after: a span from one phase to the next leaves out what answering cost them."""
    redis_cpu: float
    redis: dict[str, int]
    batches: float
    gc_seconds: float
    """The server processes' CPU time in garbage collection (NaN for a server that does not time it)."""

    def minus(self, earlier: Counters) -> Counters:
        return Counters(
            self.server_cpu - earlier.server_cpu_after,
            self.server_cpu_after - earlier.server_cpu_after,
            self.redis_cpu - earlier.redis_cpu,
            {k: v - earlier.redis.get(k, 0) for k, v in self.redis.items()},
            self.batches - earlier.batches,
            self.gc_seconds - earlier.gc_seconds,
        )


def taskset(cpu: str | None, command: list[str]) -> list[str]:
    return command if cpu is None else ["taskset", "-c", cpu, *command]


@contextlib.contextmanager
def running(system: System, port: int, cpu: str | None) -> Iterator[psutil.Process]:
    """The system's server on ``port``, pinned; stopped on exit."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PACKPLAY_")} | SERVER_ENV | system.env
    command = [part.replace("{port}", str(port)) for part in system.command]
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(taskset(cpu, command), env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            _wait_listening(port, process, log)
            yield psutil.Process(process.pid)
        except BaseException:
            log.seek(0)
            tail = log.read()[-3000:].decode(errors="replace")
            sys.stderr.write(f"the end of {system.name}'s log on port {port}:\n{tail}\n")
            raise
        finally:
            process.terminate()
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def _wait_listening(port: int, process: subprocess.Popen[bytes], log: IO[bytes]) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline and process.poll() is None:
        with contextlib.suppress(httpx.TransportError):
            httpx.get(f"http://127.0.0.1:{port}/", timeout=1)
            return
        time.sleep(0.1)
    log.seek(0)
    raise RuntimeError(f"the server did not start:\n{log.read().decode(errors='replace')}")


@dataclass
class Deployment:
    """What one run measures: the server processes (and their ports) and the Redis nodes."""

    servers: list[psutil.Process]
    ports: list[int]
    stores: list[redis.Redis]
    """A client per Redis node (a cluster's masters and replicas)."""
    redis_processes: list[psutil.Process]


def counters(deployment: Deployment, protocol: int) -> Counters:
    wanted = ("total_net_input_bytes", "total_net_output_bytes", "total_commands_processed")
    totals = dict.fromkeys(wanted, 0)
    for store in deployment.stores:
        info: Any = store.info("stats")
        for key in wanted:
            totals[key] += int(info[key])
    server_cpu = sum(_cpu(server) for server in deployment.servers)
    metrics = [_metrics(port, protocol) for port in deployment.ports]
    return Counters(
        server_cpu=server_cpu,
        server_cpu_after=sum(_cpu(server) for server in deployment.servers),
        redis_cpu=sum(_cpu(process) for process in deployment.redis_processes),
        redis=totals,
        batches=sum(_sample(text, "packplay_redis_batches_total") for text in metrics),
        gc_seconds=sum(_sample(text, "packplay_gc_cpu_seconds_total") for text in metrics),
    )


def _cpu(process: psutil.Process) -> float:
    """Seconds of CPU of a process and its children, to the nanosecond where Linux tells it."""
    total = _own_cpu(process)
    for child in process.children(recursive=True):
        with contextlib.suppress(psutil.Error):
            total += _own_cpu(child)
    return total


def _own_cpu(process: psutil.Process) -> float:
    """The scheduler's own count of every thread's time on a CPU (``/proc/<pid>/task/*/schedstat``,
    in nanoseconds): the clock ticks of ``cpu_times`` are 10 ms, too coarse for the set-up of a
    few dozen games."""
    tasks = Path(f"/proc/{process.pid}/task")
    if not (tasks / str(process.pid) / "schedstat").exists():  # not Linux
        times = process.cpu_times()
        return float(times.user + times.system)
    nanoseconds = 0
    for task in tasks.iterdir():
        with contextlib.suppress(OSError):  # a thread that ended meanwhile
            nanoseconds += int((task / "schedstat").read_text().split()[0])
    return nanoseconds / 1e9


def _metrics(port: int, protocol: int) -> str:
    """The server's metrics, '' when it did not answer (a busy one is given time)."""
    for _ in range(3):
        try:
            return httpx.get(f"http://127.0.0.1:{port}/v{protocol}/metrics", timeout=30).text
        except httpx.HTTPError:
            time.sleep(1)
    return ""


def _sample(text: str, name: str) -> float:
    """A metric's value summed over its labels; NaN for a server that does not report it, or
    that did not answer (a wrong count would print a wrong figure)."""
    found = re.findall(rf"^{name}(?:{{[^}}]*}})? ([0-9.e+-]+)$", text, re.MULTILINE)
    return sum(map(float, found)) if found else float("nan")


@dataclass
class Drive:
    """One run of the driver, with the counters read at each of its phases."""

    result: dict[str, Any]
    phases: dict[str, Counters]
    rss: dict[str, int]


def drive(
    system: System,
    deployment: Deployment,
    games: int,
    seconds: float,
    cpu: str | None,
    idle: bool = False,
    on_phase: Callable[[str], None] | None = None,
) -> Drive:
    """One run of the driver; at each phase, once its counters are read (before Redis is
    weighed as the window closes), ``on_phase`` is told its name."""
    port = deployment.ports[0]
    url = (
        f"ws://127.0.0.1:{port}/ws"
        if system.target == "relay"
        else ",".join(f"http://127.0.0.1:{p}" for p in deployment.ports)
    )
    command = [
        "node", str(LOAD / "bench_moves.mjs"), "--coordinated", "--target", system.target, "--url", url,
        "--games", str(games), "--seconds", str(seconds), "--protocol", str(system.protocol),
        "--game", GAME, "--encoding", system.encoding,
    ]  # fmt: skip
    if idle:
        command.append("--idle")
    if system.fresh:
        command.append("--fresh-connections")
    if system.deflate:
        command.append("--deflate")
    command += ["--setup", system.setup]
    driver = subprocess.Popen(
        taskset(cpu, command), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=LOAD
    )
    assert driver.stdin is not None and driver.stdout is not None
    phases: dict[str, Counters] = {}
    rss: dict[str, int] = {}
    result: dict[str, Any] = {}
    for line in driver.stdout:
        if line.startswith("@phase "):
            name = line.split()[1]
            if name in ("idle", "setup"):
                time.sleep(1.0 if name == "idle" else 0.2)  # let the server settle before reading its memory
            weighed = system.target != "relay" and len(deployment.stores) == 1
            if name == "play" and weighed:
                # Before the window's counters: the games keep playing while they are weighed.
                # Weighed as the window opens, the active games are at every stage of their
                # games; when it closes, fewer are active, and mostly late in their games.
                result["redis_memory"] = redis_memory(deployment.stores[0], "active")
            phases[name] = counters(deployment, system.protocol)
            rss[name] = sum(server.memory_info().rss for server in deployment.servers)
            if on_phase is not None:
                on_phase(name)
            if name == "end" and weighed:
                result["redis_memory"] |= redis_memory(deployment.stores[0], "finished")
            driver.stdin.write("go\n")
            driver.stdin.flush()
        elif line.startswith("{"):
            result |= json.loads(line)
    if driver.wait() != 0:
        raise RuntimeError(f"the driver failed against {system.name}")
    return Drive(result, phases, rss)


def redis_memory(store: redis.Redis, status: str, sample: int = 200) -> dict[str, tuple[float, float]]:
    """Bytes Redis holds per game of a status, ``active`` or ``finished`` (``MEMORY USAGE`` of
    each of its keys), with those games' mean version: a game's log and answers grow with its
    moves, so the figure for active games depends on how far into their games they are."""
    names = sorted(store.scan_iter(match="pp:game:*", count=5000))
    # A game's hash holds its status; its other keys extend its name (in this layout and in
    # older ones, so that a baseline checkout is measured the same way).
    with store.pipeline(transaction=False) as pipe:
        for name in names:
            pipe.type(name)
        kinds = pipe.execute()
    hashes = [name for name, kind in zip(names, kinds, strict=True) if kind == b"hash"]
    with store.pipeline(transaction=False) as pipe:
        for name in hashes:
            pipe.hmget(name, "status", "version")
        fields = pipe.execute()
    games: list[tuple[int, int]] = []
    for name, (raw_status, raw_version) in zip(hashes, fields, strict=True):
        if (raw_status or b"").decode() != status:
            continue
        first = bisect.bisect_left(names, name + b":")
        last = bisect.bisect_left(names, name + b";")  # ';' follows ':'
        parts = [name, *names[first:last]]
        size = sum(int(store.memory_usage(k, samples=0) or 0) for k in parts)
        games.append((size, int(raw_version or 0)))
        if len(games) == sample:
            break
    if not games:
        return {}
    return {status: (statistics.mean(s for s, _ in games), statistics.mean(v for _, v in games))}


def systems(
    baseline: Path | None,
    encodings: list[str],
    fresh: bool = False,
    deflate: bool = False,
    baseline_protocol: int = 2,
    baseline_setup: str = "rest",
) -> list[System]:
    python = sys.executable
    serve = ["serve", "--port", "{port}"]
    packplay = [python, "-m", "packplay.cli", *serve, "--redis-url", "{redis}"]
    found = [System("relay", [python, str(LOAD / "relay.py"), "--port", "{port}"], "relay")]
    for encoding in encodings:
        name = "packplay" if encoding == "json" else f"packplay {encoding}"
        found.append(System(name, packplay, "packplay", encoding=encoding))
    if fresh:
        found.append(System("packplay fresh", packplay, "packplay", fresh=True))
    if deflate:
        on = {"PACKPLAY_WS_DEFLATE": "1"}
        found.append(System("packplay deflate", packplay, "packplay", env=on, deflate=True))
    if baseline is not None:
        old_python = str(baseline / ".venv" / "bin" / "python")
        command = [old_python, "-m", "packplay.cli", *serve, "--redis-url", "{redis}"]
        # Its own tree first, should its .venv be installed editable from another checkout.
        tree = os.pathsep.join(str(baseline / part) for part in ("server", "protocol", "clients"))
        path = {"PYTHONPATH": tree}
        found.append(
            System(
                "packplay before",
                command,
                "packplay",
                protocol=baseline_protocol,
                env=path,
                setup=baseline_setup,
            )
        )
    return found


def report(name: str, games: int, drive_: Drive, relay_move: float | None = None) -> list[str]:
    """The lines of one run; ``relay_move``: the relay's server CPU a move in the same round
    (seconds), which the set-up per game is also given as a multiple of."""
    result = drive_.result
    moves = max(1, result["moves"])
    play = drive_.phases["end"].minus(drive_.phases["play"])
    bytes_per_move = (play.redis["total_net_input_bytes"] + play.redis["total_net_output_bytes"]) / moves
    redis_part = "" if name == "relay" else (
        f" | Redis {play.redis_cpu / moves * 1e6:5.0f} us/move, {play.batches / moves:4.2f} round trips/move,"
        f" {bytes_per_move / 1024:5.1f} KiB/move"
    )  # fmt: skip
    setup = drive_.phases["warmup"].minus(drive_.phases["setup"])
    setup_cpu = setup.server_cpu / games
    replace_cpu = setup_cpu
    if "replaced" in drive_.phases:
        replaced_games = result.get("replacedGames") or games
        replace_cpu = drive_.phases["replaced"].minus(drive_.phases["replace"]).server_cpu / replaced_games
    replaced = result.get("setups", 0)
    setup_share = replaced * replace_cpu
    in_game_cpu = play.server_cpu - setup_share
    result["serverPerMove"] = in_game_cpu / moves
    result["setupFresh"] = setup_cpu
    result["setupKept"] = replace_cpu if "replaced" in drive_.phases else None
    head = (
        f"{name:16} {games:>5} games: {result['movesPerSecond']:8.0f} moves/s,"
        f" p50 {result['p50']:6.2f} ms, p99 {result['p99']:7.2f} ms"
    )
    frames, sent = result["framesPerMovePerSeat"], result["bytesPerMovePerSeat"]
    seats = f"to each seat {frames:.2f} frames, {sent:6.0f} B/move"
    if result.get("updateBytesP50") is not None:
        seats += f" (an update's median {result['updateBytesP50']} B)"
    if result.get("wireBytesPerMovePerSeat") is not None:
        seats += f", {result['wireBytesPerMovePerSeat']:6.0f} B/move read off the wire"
    health = f"failed {result['failed']}, dropped {result['dropped']}"
    server = f"server {in_game_cpu / moves * 1e6:5.0f} us/move"
    if name != "relay":
        server += f" (garbage collection {play.gc_seconds / play.server_cpu:4.0%} of it)"
    lines = [
        f"{head} | {server}{redis_part} | {seats} | {health} | driver CPU {result['driverCpuShare']:.0%}"
    ]
    redis_cpu = 0.0 if name == "relay" else play.redis_cpu
    lines.append(f"{'':16} {core_line(result['movesPerSecond'], in_game_cpu, setup_share, redis_cpu, moves)}")
    if name != "relay":

        def times(cpu: float) -> str:
            return f" ({cpu / relay_move:.1f}x a relay move)" if relay_move else ""

        how = (
            "create and take_seat"
            if drive_.result.get("keptSetup", "messages") == "messages"
            else "create, hello, join"
        )
        kept = (
            f" {replace_cpu * 1e3:.2f} ms on the connections kept ({how}){times(replace_cpu)};"
            if "replaced" in drive_.phases
            else ""
        )
        length = f" (one every {moves / replaced:.1f} moves)" if replaced else ""
        lines.append(
            f"{'':16} set-up: {setup_cpu * 1e3:.2f} ms of server CPU per game with a REST create and"
            f" 2 new connections{times(setup_cpu)};{kept}"
            f" {replaced} games replaced while measuring{length},"
            " their set-up left out of the move figures but for the core's"
        )
    if "redis_memory" in result:
        memory = ", ".join(
            f"{status} {size / 1024:.1f} KiB (version {version:.1f} on average)"
            for status, (size, version) in result["redis_memory"].items()
        )
        lines.append(f"{'':16} Redis per game: {memory}")
    if result.get("failures"):
        lines.append(f"{'':16} failures: {result['failures']}")
    return lines


GAME = "day_night"


def main(options: argparse.Namespace) -> None:
    global GAME
    GAME = options.game
    if not (LOAD / "node_modules").is_dir():
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=LOAD, check=True)
    print(f"server and Redis on CPU {options.server_cpu}, driver on CPU {options.driver_cpu}", flush=True)
    scaled = options.processes > 1 or options.redis != "single" or options.redis_url
    everything = systems(
        options.baseline,
        options.encoding,
        options.fresh_connections,
        options.deflate,
        options.baseline_protocol,
        options.baseline_setup,
    )
    # Scale-out runs measure today's Packplay alone.
    chosen = [s for s in everything if s.target == "packplay" and s.protocol == 2] if scaled else everything
    if scaled:
        where = options.redis_url or options.redis
        print(f"{options.processes} server process(es) on Redis: {where}", flush=True)
    for games in options.games:
        rounds: list[dict[str, dict[str, Any]]] = []
        for _ in range(options.repeat):
            results: dict[str, dict[str, Any]] = {}
            for system in chosen:
                relay_move = results["relay"]["serverPerMove"] if "relay" in results else None
                lines, results[system.name] = run_one(system, games, options, relay_move)
                print(lines, flush=True)
            rounds.append(results)
        if len(rounds) > 1 and not scaled:
            for line in against_relay(games, rounds):
                print(line, flush=True)
        if not scaled:
            for line in setup_against_relay(games, rounds):
                print(line, flush=True)
    if options.idle and not scaled:
        for system in chosen:
            if system.encoding == options.encoding[0]:  # the memory an idle connection holds is the same
                print(idle_one(system, options.idle, options), flush=True)


def _started(system: System, url: str) -> System:
    return dataclasses.replace(system, command=[part.replace("{redis}", url) for part in system.command])


@contextlib.contextmanager
def deployed(system: System, options: argparse.Namespace) -> Iterator[Deployment]:
    """The Redis of the run and the system's server processes on it, pinned as asked."""
    with contextlib.ExitStack() as stack:
        stores: list[redis.Redis] = []
        processes: list[psutil.Process] = []
        if options.redis_url:
            url = options.redis_url
        elif options.redis == "cluster":
            cluster = stack.enter_context(LocalCluster())
            url = cluster.url
            for node in cluster.nodes:
                stores.append(stack.enter_context(contextlib.closing(node.client())))
                processes.append(psutil.Process(node.process.pid))
        else:
            private = stack.enter_context(EmbeddedRedis())
            url = private.url
            stores.append(stack.enter_context(contextlib.closing(redis.Redis.from_url(private.url))))
            assert private.pid is not None
            processes.append(psutil.Process(private.pid))
        if options.server_cpu is not None:
            for process in processes:
                process.cpu_affinity([int(options.server_cpu)])
        count = options.processes if system.name == "packplay" else 1
        ports = [free_port() for _ in range(count)]
        servers = [
            stack.enter_context(running(_started(system, url), port, options.server_cpu)) for port in ports
        ]
        yield Deployment(servers, ports, stores, processes)


def core_line(moves_per_second: float, in_game: float, setup: float, redis_cpu: float, moves: int) -> str:
    """What one move took of the core the server and its Redis share (one second over the moves a
    second; CPU seconds in, microseconds a move out): the server in game, the set-up of the games
    that replaced those that ended, Redis, and the rest (the core idle or the kernel's)."""
    core = 1e6 / moves_per_second if moves_per_second else float("nan")
    server, setup_part, redis_part = (seconds / moves * 1e6 for seconds in (in_game, setup, redis_cpu))
    parts = f"the server in game {server:.0f}"
    if setup:
        parts += f", set-up {setup_part:.0f}"
    if redis_cpu:
        parts += f", Redis {redis_part:.0f}"
    rest = core - server - setup_part - redis_part
    return f"the core a move: {core:.0f} us ({parts}, the rest {rest:.0f})"


def run_one(
    system: System, games: int, options: argparse.Namespace, relay_move: float | None = None
) -> tuple[str, dict[str, Any]]:
    """The system's report at ``games`` games, and the driver's result."""
    with deployed(system, options) as deployment:
        drive_ = drive(system, deployment, games, options.seconds, options.driver_cpu)
    drive_.result["keptSetup"] = system.setup
    return "\n".join(report(system.name, games, drive_, relay_move)), drive_.result


def against_relay(games: int, rounds: list[dict[str, dict[str, Any]]]) -> list[str]:
    """Per system, its moves/s and p99 as ratios to the relay's of the same round, and their medians."""
    lines = []
    for name in rounds[0]:
        if name == "relay":
            continue
        shares = [r[name]["movesPerSecond"] / r["relay"]["movesPerSecond"] for r in rounds]
        p99s = [r[name]["p99"] / r["relay"]["p99"] for r in rounds]
        lines.append(
            f"{name:16} {games:>5} games, {len(rounds)} rounds: {statistics.median(shares):.1%} of the"
            f" relay's moves/s (each: {', '.join(f'{share:.1%}' for share in shares)}), p99"
            f" {statistics.median(p99s):.1f}x the relay's (each: {', '.join(f'{x:.1f}x' for x in p99s)})"
        )
    return lines


def setup_against_relay(games: int, rounds: list[dict[str, dict[str, Any]]]) -> list[str]:
    """Per system, the set-up per game in both shapes as multiples of the relay's move in the
    same round (the median over rounds, and each round's)."""
    lines = []
    for name in rounds[0]:
        if name == "relay":
            continue
        parts = []
        for key, shape in (("setupKept", "kept connections"), ("setupFresh", "REST and new connections")):
            ratios = [
                r[name][key] / r["relay"]["serverPerMove"]
                for r in rounds
                if r[name].get(key) is not None and r["relay"]["serverPerMove"] > 0
            ]
            if ratios:
                each = ", ".join(f"{x:.1f}x" for x in ratios)
                parts.append(f"{shape} {statistics.median(ratios):.1f}x (each: {each})")
        if parts:
            lines.append(f"{name:16} {games:>5} games: set-up per game / a relay move: {'; '.join(parts)}")
    return lines


def idle_one(system: System, games: int, options: argparse.Namespace) -> str:
    with deployed(system, options) as deployment:
        drive_ = drive(system, deployment, games, 0, options.driver_cpu, idle=True)
    per_connection = (drive_.rss["idle"] - drive_.rss["setup"]) / (2 * games)
    per_kib = per_connection / 1024
    return f"{system.name:16} {2 * games} idle connections: {per_kib:.1f} KiB of server RSS each"


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, nargs="+", default=[50, 500, 5000], help="concurrent games")
    parser.add_argument("--seconds", type=float, default=10.0, help="measured seconds per run")
    parser.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="rounds of every system at each size, in turn; with more than one, the median of"
        " each system's ratios to the relay's moves/s and p99 in the same round is printed",
    )
    parser.add_argument(
        "--idle", type=int, default=5000, help="games held idle for the memory figure (0: skip)"
    )
    parser.add_argument("--server-cpu", default="0", help="the CPU of the server and its Redis")
    parser.add_argument("--driver-cpu", default="1", help="the CPU of the driver")
    parser.add_argument("--baseline", type=Path, help="an older checkout (with its .venv) to run as well")
    parser.add_argument(
        "--baseline-protocol", type=int, default=2, help="the protocol version the older checkout speaks"
    )
    parser.add_argument(
        "--baseline-setup",
        choices=["rest", "messages"],
        default="rest",
        help="how the older checkout's kept connections get their next game: a REST create, then"
        " hello and join (checkouts from before the create and take_seat messages), or by messages",
    )
    parser.add_argument("--game", default="day_night", help="the game played (two seats)")
    parser.add_argument(
        "--encoding",
        nargs="+",
        choices=["json", "msgpack"],
        default=["json"],
        help="the encodings Packplay's seats speak, one run each",
    )
    parser.add_argument(
        "--processes", type=int, default=1, help="server processes sharing the Redis (seats spread over them)"
    )
    parser.add_argument(
        "--redis",
        choices=["single", "cluster"],
        default="single",
        help="one private Redis, or a private cluster of 3 masters and 3 replicas on loopback",
    )
    parser.add_argument("--redis-url", help="a Redis of your own instead (a redis+cluster URL included)")
    parser.add_argument(
        "--fresh-connections",
        action="store_true",
        help="also run Packplay with two new connections per game (by default a game's seats say hello"
        " again on the connections of the game they finished)",
    )
    parser.add_argument(
        "--deflate",
        action="store_true",
        help="also run Packplay as it is configured by default, with permessage-deflate, the seats"
        " offering it as browsers do (the other runs compress nothing, as the relay does not)",
    )
    main(parser.parse_args())
