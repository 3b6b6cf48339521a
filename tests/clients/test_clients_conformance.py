"""The SDK keeps the exact view from updates: at every version of many real games, the view each
seat's connection rebuilt from the server's patches equals a whole view the server sends fresh.

Every game and player count, in both encodings, every seat and a spectator. The players act
one at a time (a seeded RandomBot and FirstBot in turn), so each version can be checked before
the next one exists. The whole view comes from a second connection of the same audience
(``refresh``); the connection under test never asks for one, so its view is made of the
updates alone.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest
from clients_tables import Connections
from support_servers import ServerProcess as Server
from support_servers import start_server

from packplay.server.storage.embedded import EmbeddedRedis
from packplay_clients import Answer, Bot, FirstBot, GameConnection, RandomBot, RestClient
from packplay_protocol.errors import RejectReason
from packplay_protocol.to_client import Rejected

CASES = [
    ("day_night", 2),
    ("mishra_factory", 2),
    ("mishra_factory", 4),
    ("wedding_planner", 2),
    ("wedding_planner", 3),
    ("wedding_planner", 6),
    ("base_race", 2),
]
STEP = 10.0


@pytest.fixture(scope="module")
def server(redis_server: EmbeddedRedis, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server of this module's own: each checker resumes once per version, far more often than a
    client would, so the limit of resumes is lifted (it is tested in tests/server)."""
    started = start_server(
        redis_server.url, tmp_path_factory.mktemp("conformance"), PACKPLAY_RESUMES_PER_MINUTE="1000000"
    )
    yield started
    started.stop()


def as_json(document: Any) -> bytes:
    return msgspec.json.encode(document, order="sorted")


@pytest.mark.parametrize("encoding", ["json", "msgpack"])
@pytest.mark.parametrize(("game", "players"), CASES)
async def test_the_view_rebuilt_from_updates_is_the_servers_at_every_version(
    server: Server, connections: Connections, game: str, players: int, encoding: str
) -> None:
    async with RestClient(server.url) as lobby:
        created = await lobby.create_game(game, players, seats=tuple(f"p{n}" for n in range(players)))
    audiences: list[str | None] = [*(grant.token for grant in created.grants), None]
    played = [await _joined(connections, server.url, created.game_id, t, encoding) for t in audiences]
    checkers = [await _joined(connections, server.url, created.game_id, t, encoding) for t in audiences]
    rng = random.Random(f"{game}-{players}-{encoding}")
    bots: list[Bot] = [RandomBot(rng.randrange(2**32)) if n % 2 else FirstBot() for n in range(players)]
    version = 0
    while True:
        for connection, checker in zip(played, checkers, strict=True):
            await connection.wait_for_version(version, STEP)
            await checker.wait_for_version(version, STEP)
            fresh = await checker.refresh()
            assert fresh.version == connection.version == version
            assert as_json(connection.document) == as_json(checker.document), f"{game} at version {version}"
        view = played[0].view
        assert view is not None
        if view.result is not None:
            break
        actor = min(view.pending)
        acting = played[actor].view
        assert acting is not None
        answer = await _act(played[actor], bots[actor].choose(acting), version)
        assert answer.version == version + 1, answer
        version += 1
    assert version > 0 and all(c.gaps == 0 for c in played), "no update was missed or refused"


async def _act(connection: GameConnection, action: Any, version: int) -> Answer:
    """Act, waiting out the per-connection rate limit as a client should (same action id)."""
    action_id = connection.new_action_id()
    while True:
        answer = await connection.act(action, version=version, action_id=action_id)
        if not (isinstance(answer, Rejected) and answer.reason is RejectReason.RATE_LIMITED):
            return answer
        await asyncio.sleep(0.1)


async def _joined(
    connections: Connections, url: str, game_id: str, token: str | None, encoding: str
) -> GameConnection:
    connection = await connections.connect(url, token, encoding)
    await connection.join(game_id, role="player" if token else "spectator")
    return connection
