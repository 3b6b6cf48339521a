"""``packplay serve`` with its private Redis: games survive a restart, the private server dies
with ``packplay serve`` however it ends, and a Redis that goes away mid-game costs a retry, no move."""

from __future__ import annotations

import asyncio
import os
import random
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import msgspec
import pytest
from server_client import Bot, Client, new_action_id, pick
from server_lobby import fetch_replay, replayed_result
from support_servers import ServerProcess, start_server

from packplay.server.storage.embedded import EmbeddedRedis, free_port
from packplay_protocol.errors import RejectReason
from packplay_protocol.from_client import Act
from packplay_protocol.rest import CreatedGame
from packplay_protocol.to_client import Rejected, Update

PATIENCE = 60.0
"""Seconds to wait for a process to start or to go: a bound with room for a busy 2-core machine,
not a figure (a start takes a second or two on an idle one)."""


def _serve(log: Path, *args: str) -> tuple[subprocess.Popen[bytes], str]:
    """``packplay serve`` without a Redis URL, as a person runs it: (process, base URL)."""
    port = free_port()
    environ = {k: v for k, v in os.environ.items() if not k.startswith("PACKPLAY_") and k != "REDIS_URL"}
    environ["PACKPLAY_LOG_LEVEL"] = "warning"
    command = [sys.executable, "-m", "packplay.cli", "serve", "--port", str(port), *args]
    with log.open("ab") as sink:
        process = subprocess.Popen(command, env=environ, stdout=sink, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        assert process.poll() is None, log.read_text()
        try:
            if httpx.get(base + "/v2/ready", timeout=1).status_code == 200:
                return process, base
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    process.kill()
    raise AssertionError(f"not ready: {log.read_text()}")


def _private_redis_pid(log: Path) -> int:
    """The pid of the private server the last start announced in its log."""
    port = re.findall(r"private Redis at redis://127\.0\.0\.1:(\d+)/0", log.read_text())[-1]
    wanted = f"127.0.0.1:{port}".encode()  # Valkey shows "valkey-server HOST:PORT" as its command line
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if b"valkey" in cmdline and (wanted in cmdline or f"--port\0{port}\0".encode() in cmdline):
            return int(entry.name)
    raise AssertionError(f"no private server on port {port}")


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def _gone(pid: int) -> bool:
    deadline = time.monotonic() + PATIENCE
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    return not _alive(pid)


async def _seated(base: str, game: str, players: int) -> CreatedGame:
    async with httpx.AsyncClient(base_url=base) as http:
        body = {"game": game, "players": players, "seats": [f"p{i}" for i in range(players)]}
        response = await http.post("/v2/games", json=body)
    assert response.status_code == 201, response.text
    return msgspec.json.decode(response.content, type=CreatedGame)


async def _seat_clients(base: str, created: CreatedGame) -> list[Client]:
    clients = []
    for grant in created.grants or ():
        client = Client(base, keep=False)
        await client.connect(grant.token)
        await client.join(created.game_id)
        clients.append(client)
    return clients


async def test_a_restart_of_packplay_serve_keeps_a_game_that_then_finishes(tmp_path: Path) -> None:
    log, data = tmp_path / "serve.log", tmp_path / "redis"
    process, base = _serve(log, "--redis-dir", str(data))
    created = await _seated(base, "mishra_factory", 2)
    clients = await _seat_clients(base, created)
    bots = [Bot(client, random.Random(i)) for i, client in enumerate(clients)]
    await asyncio.gather(*(bot.play(stop_after=3) for bot in bots))
    before = max(client.version for client in clients)
    assert before > 0
    for client in clients:
        await client.close()
    first_redis = _private_redis_pid(log)
    process.send_signal(signal.SIGTERM)
    assert process.wait(PATIENCE) == 128 + signal.SIGTERM
    assert _gone(first_redis)
    assert (data / "appendonlydir").is_dir(), "the append-only file is where it was asked to be"

    process, base = _serve(log, "--redis-dir", str(data))
    try:
        clients = await _seat_clients(base, created)
        assert [client.version for client in clients] == [before, before], "every move is still there"
        await asyncio.gather(*(Bot(client, random.Random(9 + i)).play() for i, client in enumerate(clients)))
        assert all(client.over is not None for client in clients)
        replay = await fetch_replay(base, created.game_id)
        assert replayed_result(replay) == replay.result
        for client in clients:
            await client.close()
    finally:
        process.terminate()
        process.wait(PATIENCE)


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGHUP, signal.SIGTERM, signal.SIGINT])
def test_the_private_redis_dies_with_packplay_serve(tmp_path: Path, how: signal.Signals) -> None:
    log = tmp_path / "serve.log"
    process, _ = _serve(log, "--redis-dir", str(tmp_path / "redis"))
    private = _private_redis_pid(log)
    process.send_signal(how)
    process.wait(PATIENCE)
    assert _gone(private), f"the private server outlived packplay serve ({how.name})"


def test_the_in_memory_mode_writes_nothing(tmp_path: Path) -> None:
    log = tmp_path / "serve.log"
    environ_home = tmp_path / "data"
    os.environ["XDG_DATA_HOME"] = str(environ_home)
    try:
        process, base = _serve(log, "--in-memory")
        assert httpx.post(base + "/v2/games", json={"game": "day_night", "players": 2}).status_code == 201
        process.terminate()
        process.wait(PATIENCE)
    finally:
        del os.environ["XDG_DATA_HOME"]
    assert "in memory only" in log.read_text()
    assert not environ_home.exists()


@pytest.fixture
def durable_redis(tmp_path: Path) -> Iterator[EmbeddedRedis]:
    server = EmbeddedRedis(data_dir=tmp_path / "redis", port=free_port()).start()
    yield server
    server.stop()


async def test_redis_stopped_mid_game_is_503_then_the_game_goes_on(
    durable_redis: EmbeddedRedis, tmp_path: Path
) -> None:
    server: ServerProcess = start_server(durable_redis.url, tmp_path, PACKPLAY_REDIS_TIMEOUT="1")
    try:
        created = await _seated(server.url, "mishra_factory", 2)
        clients = await _seat_clients(server.url, created)
        bots = [Bot(client, random.Random(i)) for i, client in enumerate(clients)]
        await asyncio.gather(*(bot.play(stop_after=2) for bot in bots))
        before = max(client.version for client in clients)

        durable_redis.stop()
        async with httpx.AsyncClient(base_url=server.url) as http:
            snapshot = await http.get(f"/v2/games/{created.game_id}")
            lobby = await http.post("/v2/games", json={"game": "day_night", "players": 2})
        for refused in (snapshot, lobby):
            assert refused.status_code == 503, refused.text
            assert refused.headers["retry-after"].isdigit()
            assert refused.json()["code"] == "unavailable"
        mover = next(c for c in clients if c.view and (c.view.legal.actions or c.view.legal.choices))
        assert mover.view is not None
        action = pick(mover.view.legal, random.Random(1))
        act = Act(action_id=new_action_id(), version=mover.view.version, action=action)
        await mover.send(act)
        answer = await mover.until(lambda m: isinstance(m, Rejected) and m.action_id == act.action_id)
        assert isinstance(answer, Rejected) and answer.reason is RejectReason.UNAVAILABLE

        durable_redis.start()
        await mover.send(act)  # the same action, retried with its id
        accepted = await mover.until(lambda m: isinstance(m, Update) and m.action_id == act.action_id)
        assert isinstance(accepted, Update) and accepted.version == before + 1, "nothing was lost"
        await asyncio.gather(*(Bot(client, random.Random(5 + i)).play() for i, client in enumerate(clients)))
        replay = await fetch_replay(server.url, created.game_id)
        assert len(replay.log) == max(client.version for client in clients)
        assert replayed_result(replay) == replay.result
        for client in clients:
            await client.close()
    finally:
        server.stop()
