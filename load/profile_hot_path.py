"""Where a move's time goes: the hot-path run, its server sampled by py-spy.

    python load/profile_hot_path.py                      # 50 games, 15 s
    python load/profile_hot_path.py --games 500 --seconds 20 --raw samples.txt

The closed loop of 'bench_hot_path.py' (its Node driver, its private Redis, the server and
Redis pinned to one core and the driver to the other), Packplay alone, JSON, frames
uncompressed. Through the measured window py-spy samples the server, and for one second
in the middle of it Redis logs every command it runs. Printed:

- moves/s, and the core's time a move: the server's core is saturated, so a move costs
  it the server's work, its Redis's and the kernel's for both;
- the server's and Redis's CPU a move (their schedulers' counts);
- the server's main thread by part of the move path, in microseconds a move and as a
  share of its samples. A sample is taken while the thread runs or waits for the core:
  a write to Redis counts the time Redis, woken on the same core, ran before the write
  returned. The set-up of the games that replace those that end is among the parts;
- Redis's scripts and commands a move, with each script's mean time a call (Redis's own
  timing, which also counts the time the server ran on the core in the middle of a script).

py-spy stops the server for each sample: the run is slower than the benchmark's, and a
part's share is what to compare. '--raw FILE' keeps the samples in py-spy's raw format
(a stack and its count per line, for flame graph tools). Needs py-spy (in the 'load'
extra) and the right to read another process's memory (root, or ptrace allowed).
"""

from __future__ import annotations

import argparse
import contextlib
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import redis
from bench_hot_path import LOAD, Deployment, System, deployed, drive, systems, taskset

from packplay.server.storage import games as store
from packplay.server.storage.pipeline import Script

PARTS: tuple[tuple[str, frozenset[str]], ...] = tuple(
    (part, frozenset(functions))
    for part, functions in (
        ("rules: the action applied to the game's copy", ["GameCopy.step"]),
        ("views: the parts that changed, each seat's patch", ["HeldViews.change", "HeldViews.update"]),
        ("frames to this process's seats", ["Connection.deliver"]),
        ("the commit's arguments and reply", ["GameStore.commit"]),
        ("writes to Redis (and Redis running meanwhile)", ["Pipeline._flush", "Link.exchange"]),
        (
            "set-up: games created (REST)",
            ["RequestResponseCycle.run_asgi", "HttpToolsProtocol.data_received"],
        ),
        ("set-up: hello, join, leave", ["Connection._watch", "Connection._leave", "Lobby.seat_of"]),
        ("WebSocket in: frames read, messages decoded", ["WebSocketsSansIOProtocol.data_received"]),
        ("WebSocket out: the turn's frames written", ["WriteBatch._flush"]),
        ("the rest of an action's handling", ["Moves.act", "Connection._answer"]),
    )
)
"""Each part of the move path and the functions it is made of: a sample counts in the first
part that has one of them on the sample's stack."""
LOOP = "the event loop itself"
OTHER = "other"
MAIN = "_run_module_as_main"
"""The outermost function of the main thread's stacks (the server runs with ``-m``); the
other threads are the executors', waiting."""


def part_of(stack: Sequence[str]) -> str:
    """The part of the move path of a stack of functions (qualified names, outermost first)."""
    found = set(stack)
    for part, functions in PARTS:
        if not found.isdisjoint(functions):
            return part
    return LOOP if stack and stack[-1] == "Runner.run" else OTHER


def main_thread_parts(raw: str) -> Counter[str]:
    """The main thread's samples per part, from py-spy's raw output: per line, a stack (frames
    ``Moves.act (packplay/server/play/moves.py:86)`` joined by ``;``), a space, a count."""
    parts: Counter[str] = Counter()
    for line in raw.splitlines():
        stack, _, count = line.rpartition(" ")
        functions = [frame.split(" (", 1)[0] for frame in stack.split(";")]
        if functions[0] == MAIN and count.isdigit():
            parts[part_of(functions)] += int(count)
    return parts


def script_names() -> dict[str, str]:
    """The store's scripts by SHA1, named as in the store (``_COMMIT``: commit)."""
    return {
        value.sha: name.strip("_").lower() for name, value in vars(store).items() if isinstance(value, Script)
    }


def command_calls(client: redis.Redis) -> Counter[str]:
    stats: dict[str, Any] = client.info("commandstats")
    return Counter({name.removeprefix("cmdstat_"): int(entry["calls"]) for name, entry in stats.items()})


@dataclass
class Window:
    """What the measured window read."""

    moves: int
    seconds: float
    server_cpu: float
    redis_cpu: float
    calls: Counter[str]
    """Calls per command through the window (Redis's counts; EVALSHA is every script)."""
    parts: Counter[str]
    rate: int
    sampled: float
    """Seconds from py-spy's start to its stop (a little more than the window: a part's
    microseconds a move are its samples' time over the moves of that span)."""
    scripts: dict[str, list[int]]
    """Each script's durations (us) in the second Redis logged."""


class ScriptLog(threading.Thread):
    """From ``after`` seconds on, one second of Redis's log of every command: each script's
    durations, by name."""

    def __init__(self, client: redis.Redis, after: float) -> None:
        super().__init__(daemon=True)
        self.client, self.after = client, after
        self.durations: dict[str, list[int]] = {}

    def run(self) -> None:
        client = self.client
        threshold = client.config_get("slowlog-log-slower-than")["slowlog-log-slower-than"]
        time.sleep(self.after)
        client.slowlog_reset()
        client.config_set("slowlog-max-len", 100_000)
        client.config_set("slowlog-log-slower-than", 0)
        time.sleep(1.0)
        client.config_set("slowlog-log-slower-than", threshold)
        names = script_names()
        for entry in client.slowlog_get(100_000):
            command = entry["command"].split()
            if command and command[0].upper() == b"EVALSHA":
                sha = command[1].decode()
                self.durations.setdefault(names.get(sha, sha[:8]), []).append(int(entry["duration"]))
        client.slowlog_reset()


def py_spy() -> str:
    """py-spy beside this Python (its virtual environment's), else from PATH."""
    found = shutil.which("py-spy", path=str(Path(sys.executable).parent)) or shutil.which("py-spy")
    if found is None:
        raise SystemExit("py-spy is not installed: pip install -e '.[load]'")
    return found


def sample(pid: int, rate: int, output: Path, cpu: str) -> subprocess.Popen[bytes]:
    """py-spy recording ``pid`` until interrupted, on the driver's CPU (off the server's core)."""
    command = [py_spy(), "record", "--pid", str(pid), "--rate", str(rate), "--format", "raw"]
    command += ["--output", str(output)]
    return subprocess.Popen(taskset(cpu, command), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


class Sampling:
    """What runs beside the driver through the measured window: py-spy on the server from the
    phase that opens it to the one that closes it, Redis's command counts at both, and one
    second of Redis's log in the middle."""

    def __init__(self, deployment: Deployment, options: argparse.Namespace, raw: Path) -> None:
        self.server, self.client = deployment.servers[0], deployment.stores[0]
        self.options, self.raw = options, raw
        self.scripts = ScriptLog(self.client, max(0.0, options.seconds / 2 - 0.5))
        self.sampler: subprocess.Popen[bytes] | None = None
        self.calls: dict[str, Counter[str]] = {}
        self.began = self.sampled = 0.0

    def __call__(self, phase: str) -> None:
        if phase == "play":
            self.calls[phase] = command_calls(self.client)
            self.sampler = sample(self.server.pid, self.options.rate, self.raw, self.options.driver_cpu)
            self.began = time.monotonic()
            self.scripts.start()
        elif phase == "end" and self.sampler is not None:
            self.sampler.send_signal(signal.SIGINT)  # py-spy writes its samples, then stops
            self.sampled = time.monotonic() - self.began
            self.calls[phase] = command_calls(self.client)

    def parts(self) -> Counter[str]:
        """The main thread's samples per part, once py-spy has written them."""
        if self.sampler is None or "end" not in self.calls:
            raise RuntimeError("the driver never opened and closed its measured window")
        _, errors = self.sampler.communicate()
        if self.sampler.returncode != 0:
            raise RuntimeError(f"py-spy failed: {errors.decode(errors='replace')[-2000:]}")
        self.scripts.join()
        return main_thread_parts(self.raw.read_text())


def profile(deployment: Deployment, options: argparse.Namespace, raw: Path) -> tuple[Window, dict[str, Any]]:
    """One run of the driver, the server sampled through its measured window."""
    sampling = Sampling(deployment, options, raw)
    run = drive(packplay(), deployment, options.games, options.seconds, options.driver_cpu, on_phase=sampling)
    parts = sampling.parts()
    counted = run.phases["end"].minus(run.phases["play"])
    window = Window(
        moves=max(1, int(run.result["moves"])),
        seconds=run.result["seconds"],
        server_cpu=counted.server_cpu,
        redis_cpu=counted.redis_cpu,
        calls=sampling.calls["end"] - sampling.calls["play"],
        parts=parts,
        rate=options.rate,
        sampled=sampling.sampled,
        scripts=sampling.scripts.durations,
    )
    return window, run.result


def report(window: Window, games: int) -> list[str]:
    moves, total = window.moves, sum(window.parts.values())
    per_second = moves / window.seconds
    lines = [
        f"{games} games: {per_second:,.0f} moves/s, {1e6 / per_second:.0f} us of the server's core a move"
        f" | server CPU {window.server_cpu / moves * 1e6:.0f} us a move,"
        f" Redis CPU {window.redis_cpu / moves * 1e6:.0f} us",
        f"the server's main thread, {total:,} samples ({window.rate} a second):",
    ]
    sampled_moves = per_second * window.sampled
    for part in [part for part, _ in PARTS] + [LOOP, OTHER]:
        count = window.parts.get(part, 0)
        us = count / window.rate / sampled_moves * 1e6
        lines.append(f"  {part:50} {us:6.1f} us a move {count / max(1, total):6.1%}")
    lines.append(f"  {'in all':50} {total / window.rate / sampled_moves * 1e6:6.1f} us a move")
    unseen = [part for part, _ in PARTS if not window.parts.get(part)]
    if unseen:  # a function renamed, or a part that no longer runs at this load
        lines.append(f"  no samples in: {'; '.join(unseen)} (see PARTS in {Path(__file__).name})")
    lines.extend(redis_report(window))
    return lines


def redis_report(window: Window) -> list[str]:
    calls = window.calls
    scripts = calls.get("evalsha", 0) / window.moves
    logged = sum(map(len, window.scripts.values()))
    split = ", ".join(
        f"{name} {scripts * len(durations) / logged:.2f} ({sum(durations) / len(durations):.0f} us a call)"
        for name, durations in sorted(window.scripts.items(), key=lambda item: -len(item[1]))
    )
    # The commands this run sent itself (INFO, SLOWLOG, CONFIG) are left out, and the rarest.
    commands = ", ".join(
        f"{name.upper()} {count / window.moves:.2f}"
        for name, count in calls.most_common()
        if name != "evalsha" and "|" not in name and name != "info" and count >= window.moves / 100
    )
    return [
        f"Redis a move: {scripts:.2f} scripts{': ' + split if split else ''}",
        f"  commands a move, the scripts' own included: {commands}",
    ]


def packplay() -> System:
    return next(system for system in systems(None, ["json"]) if system.name == "packplay")


def main(options: argparse.Namespace) -> None:
    if not (LOAD / "node_modules").is_dir():
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=LOAD, check=True)
    one_process = argparse.Namespace(
        redis_url=None, redis="single", server_cpu=options.server_cpu, processes=1
    )
    with contextlib.ExitStack() as stack:
        raw = options.raw or Path(stack.enter_context(tempfile.TemporaryDirectory())) / "samples.txt"
        deployment = stack.enter_context(deployed(packplay(), one_process))
        window, result = profile(deployment, options, raw)
    print("\n".join(report(window, options.games)))
    if result.get("failed") or result.get("dropped"):
        print(f"failed {result['failed']}, dropped {result['dropped']}: {result.get('failures')}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=50, help="concurrent games")
    parser.add_argument("--seconds", type=float, default=15.0, help="the measured (and sampled) window")
    parser.add_argument("--rate", type=int, default=50, help="samples a second")
    parser.add_argument("--server-cpu", default="0", help="the CPU of the server and its Redis")
    parser.add_argument("--driver-cpu", default="1", help="the CPU of the driver (and of py-spy)")
    parser.add_argument("--raw", type=Path, help="keep the samples in this file (py-spy's raw format)")
    main(parser.parse_args())
