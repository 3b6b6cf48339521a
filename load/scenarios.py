"""Run the locust scenarios headless against a private server: each stops by itself.

    python load/scenarios.py --quick                 # the short forms CI runs (zero failures or exit 1)
    python load/scenarios.py swiss --game mishra_factory --players-per-table 4
    python load/scenarios.py swiss casual reconnect --host http://127.0.0.1:8000

Without ``--host`` it starts ``packplay serve`` on a free loopback port (with its own
private Redis-compatible server) and stops it afterwards. Each scenario is one locust
command, printed before it runs; locust's own statistics follow, then the scenario's
measures (move to every seat, round turnover, resume). The full forms (without
``--quick``): a 256-player Swiss event watched by 8 spectators, 64 users playing a mix
of casual games, and a storm of 64 users. ``--think 0`` overrides the think time of
the chosen scenarios (zero: stress).
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

LOCUSTFILE = Path(__file__).with_name("locustfile.py")
FULL = {
    "swiss": [
        "-u",
        "264",
        "-r",
        "64",
        "-t",
        "30m",
        "--packplay-think",
        "0.5,2",
        "--packplay-spectators",
        "8",
    ],
    "casual": ["-u", "64", "-r", "16", "-t", "10m", "--packplay-tables", "8"],
    "reconnect": ["-u", "64", "-r", "64", "-t", "10m", "--packplay-storm-after", "10"],
}
QUICK = {
    "swiss": [
        "-u",
        "68",
        "-r",
        "68",
        "-t",
        "180s",
        "--packplay-rounds",
        "3",
        "--packplay-think",
        "0",
        "--packplay-spectators",
        "4",
    ],
    "casual": [
        "-u",
        "16",
        "-r",
        "16",
        "-t",
        "180s",
        "--packplay-tables",
        "2",
        "--packplay-think",
        "0.05,0.2",
    ],
    "reconnect": [
        "-u",
        "24",
        "-r",
        "24",
        "-t",
        "180s",
        "--packplay-storm-after",
        "1",
        "--packplay-think",
        "0.2,0.6",
    ],
}


LIFTED = (
    "GAMES_PER_MINUTE",
    "OPEN_LOBBIES",
    "CONNECTIONS_PER_ADDRESS",
    "SPECTATORS_PER_ADDRESS",
    "CATCH_UPS_PER_MINUTE",
    "HOUSE_GAMES_PER_MINUTE",
    "HOUSE_MOVES_PER_MINUTE",
)
"""The per-client limits these servers lift."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("scenarios", nargs="*", choices=[[], *FULL], default=[])
    parser.add_argument("--quick", action="store_true", help="the short forms (CI)")
    parser.add_argument("--host", help="a running server; default: start a private one")
    parser.add_argument("--game", help="the Swiss event's game (default day_night)")
    parser.add_argument("--players-per-table", type=int, help="the Swiss event's tables (default 2)")
    parser.add_argument("--think", help="MIN,MAX seconds before each decision, for every scenario chosen")
    args = parser.parse_args(argv)
    chosen = args.scenarios or list(FULL)
    server = None if args.host else _serve()
    host = args.host or server[1]  # type: ignore[index]
    try:
        failed = [name for name in chosen if _locust(name, host, args) != 0]
    finally:
        if server is not None:
            server[0].terminate()
            server[0].wait(timeout=30)
    if failed:
        print(f"scenarios with failures: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


def _locust(name: str, host: str, args: argparse.Namespace) -> int:
    options = (QUICK if args.quick else FULL)[name]
    extra = ["--packplay-wait", "1"] if name != "swiss" else []
    if name == "swiss" and args.game:
        extra += ["--packplay-game", args.game]
    if name == "swiss" and args.players_per_table:
        extra += ["--packplay-players", str(args.players_per_table)]
    if args.think is not None:
        extra += ["--packplay-think", args.think]
    command = [
        sys.executable, "-m", "locust", "-f", str(LOCUSTFILE), "--headless", "--only-summary",
        "--host", host, "--packplay-scenario", name, *options, *extra,
    ]  # fmt: skip
    print("$", " ".join(command[2:]), flush=True)
    started = time.monotonic()
    code = subprocess.call(command)
    print(f"{name}: exit {code} after {time.monotonic() - started:.0f} s", flush=True)
    return code


def _serve() -> tuple[subprocess.Popen[bytes], str]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if not k.startswith("PACKPLAY_") and k != "REDIS_URL"}
    env["PACKPLAY_LOG_LEVEL"] = "warning"
    # Every simulated player plays from this one address: the per-client limits (new and
    # open games, connections, spectators, catch-ups, the house) would hold them all back together.
    for name in LIFTED:
        env[f"PACKPLAY_{name}"] = "0"
    command = [sys.executable, "-m", "packplay.cli", "serve", "--port", str(port), "--in-memory"]
    process = subprocess.Popen(command, env=env)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{url}/v2/ready", timeout=1) as answer:
                if answer.status == 200:
                    return process, url
        except OSError:
            time.sleep(0.2)
    process.terminate()
    raise SystemExit("the server did not get ready")


if __name__ == "__main__":
    sys.exit(main())
