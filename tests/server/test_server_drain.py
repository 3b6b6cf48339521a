"""The drain on SIGTERM, on one real process: readiness fails first while play goes on,
then every WebSocket closes with 1012 once the move it has under way is committed and
answered; every answer names the process that gave it."""

from __future__ import annotations

import asyncio
import random
import signal
from pathlib import Path

import httpx
import msgspec
import pytest
import redis
from server_client import Bot, Client, answered, new_action_id, pick
from server_lobby import open_game
from support_servers import ServerProcess, start_server
from websockets.exceptions import ConnectionClosed

from packplay.server.runtime import DRAIN_REASON, PROCESS_HEADER
from packplay.server.storage.embedded import EmbeddedRedis
from packplay_protocol.errors import CloseCode
from packplay_protocol.from_client import Act
from packplay_protocol.rest import GameSnapshot
from packplay_protocol.to_client import Update

DRAIN_DELAY = 3.0


async def _close_code(client: Client) -> tuple[int, str]:
    """Read until the server closes the connection: its close code and reason."""
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            await client.recv(timeout=15)
    assert closed.value.rcvd is not None
    return closed.value.rcvd.code, closed.value.rcvd.reason


async def _seat_both(server: ServerProcess, game: str) -> tuple[str, list[Client]]:
    game_id, tokens = await open_game(server.url, game, 2)
    seats = [Client(server.url) for _ in tokens]
    for client, token in zip(seats, tokens, strict=True):
        await client.connect(token)
        await client.join(game_id)
    return game_id, seats


def _mover(seats: list[Client]) -> Client:
    return next(c for c in seats if c.view is not None and c.view.seat in c.view.pending)


async def test_readiness_fails_first_and_play_goes_on_until_the_close_with_1012(
    redis_server: EmbeddedRedis, tmp_path: Path
) -> None:
    server = start_server(redis_server.url, tmp_path, PACKPLAY_DRAIN_DELAY=str(DRAIN_DELAY))
    try:
        game_id, seats = await _seat_both(server, "mishra_factory")
        async with httpx.AsyncClient(base_url=server.url) as http:
            name = (await http.get("/v2/ready")).headers[PROCESS_HEADER]
            assert all(c.ws is not None and c.ws.response.headers[PROCESS_HEADER] == name for c in seats)

            server.process.send_signal(signal.SIGTERM)
            for _ in range(100):
                ready = await http.get("/v2/ready")
                if ready.status_code == 503:
                    break
                await asyncio.sleep(0.02)
            assert ready.status_code == 503 and ready.json()["checks"]["accepting"] is False
            assert (await http.get("/v2/health")).status_code == 200

        # Not ready, but still serving the connections it has: a move is played and answered.
        mover = _mover(seats)
        before = mover.version
        bot = Bot(mover, random.Random(1))
        await bot.step()
        assert bot.answers and bot.answers[-1].version == before + 1
        assert server.process.poll() is None

        for client in seats:
            assert await _close_code(client) == (CloseCode.SERVICE_RESTART, DRAIN_REASON)
        assert await asyncio.to_thread(server.process.wait, 15) == 128 + signal.SIGTERM
    finally:
        server.stop()


async def test_a_move_being_committed_when_the_drain_closes_is_committed_and_answered_first(
    redis_server: EmbeddedRedis, servers: list[ServerProcess], tmp_path: Path
) -> None:
    server = start_server(redis_server.url, tmp_path, PACKPLAY_DRAIN_DELAY="0")
    store = redis.Redis.from_url(redis_server.url)
    try:
        game_id, seats = await _seat_both(server, "base_race")
        mover = _mover(seats)
        assert mover.view is not None
        act = Act(
            action_id=new_action_id(),
            version=mover.view.version,
            action=pick(mover.view.legal, random.Random(2)),
        )
        # Writes wait while Redis is paused: the commit is under way when the drain begins.
        store.execute_command("CLIENT", "PAUSE", "1500", "WRITE")
        await mover.send(act)
        await asyncio.sleep(0.3)
        server.process.send_signal(signal.SIGTERM)

        # The answer comes first (the close frame follows it), and only once Redis took the write.
        answer = await mover.until(answered(act.action_id), timeout=15)
        assert isinstance(answer, Update) and answer.version == act.version + 1
        assert await _close_code(mover) == (CloseCode.SERVICE_RESTART, DRAIN_REASON)
        assert await asyncio.to_thread(server.process.wait, 15) == 128 + signal.SIGTERM

        async with httpx.AsyncClient(base_url=servers[0].url) as http:
            snapshot = await http.get(f"/v2/games/{game_id}")
        assert msgspec.json.decode(snapshot.content, type=GameSnapshot).summary.version == answer.version
    finally:
        store.execute_command("CLIENT", "UNPAUSE")
        store.close()
        server.stop()
