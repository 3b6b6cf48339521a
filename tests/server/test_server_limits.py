"""Limits that hold across connections and processes, and private games, against real servers.

Two server processes share the session's Redis, with tight limits: a seat's actions are
counted over both, frames and resumes per connection, new and open games per client address
(each test speaks for an address of its own through ``X-Forwarded-For``, which the servers
believe from the loopback proxy). A third server trusts no proxy: there the forwarded
address is ignored and every request counts against the peer's own.
"""

from __future__ import annotations

import asyncio
import itertools
import random
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
import websockets
from server_client import Bot, Client, new_action_id
from support_servers import ServerProcess, start_server

from packplay.server.play.addresses import client_key
from packplay.server.storage.embedded import EmbeddedRedis
from packplay.server.ws.session import RESUME_BURST
from packplay_protocol.codec import encode
from packplay_protocol.errors import CloseCode, ErrorCode, RejectReason
from packplay_protocol.from_client import Act, Hello, Ping
from packplay_protocol.games.mishra_factory import Take
from packplay_protocol.rest import CreatedGame, GameList, SeatGrant
from packplay_protocol.to_client import Error, Events, Rejected, ViewMessage
from packplay_protocol.version import PROTOCOL_VERSION, Encoding, subprotocol

ACTION_BURST = 5
FRAME_BURST = 20
GAMES_BURST = 3
OPEN_LOBBIES = 2
CATCH_UP = 2
LIMITED = {
    # A seat may send ACTION_BURST actions, then one each 20 s: within a test, exactly the burst.
    "PACKPLAY_ACTIONS_PER_SECOND": "0.05",
    "PACKPLAY_ACTION_BURST": str(ACTION_BURST),
    "PACKPLAY_FRAMES_PER_SECOND": "2",
    "PACKPLAY_FRAME_BURST": str(FRAME_BURST),
    "PACKPLAY_RESUMES_PER_MINUTE": "0.5",
    "PACKPLAY_CATCH_UP_VERSIONS": str(CATCH_UP),
    "PACKPLAY_GAMES_PER_MINUTE": "0.5",
    "PACKPLAY_GAMES_BURST": str(GAMES_BURST),
    "PACKPLAY_OPEN_LOBBIES": str(OPEN_LOBBIES),
}
_addresses = itertools.count(1)


@pytest.fixture(scope="module")
def limited(
    redis_server: EmbeddedRedis, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[list[ServerProcess]]:
    """Two processes with tight limits on the session's Redis (they trust the loopback proxy)."""
    log_dir = tmp_path_factory.mktemp("limited")
    with ThreadPoolExecutor(2) as pool:
        started = list(pool.map(lambda _: start_server(redis_server.url, log_dir, **LIMITED), range(2)))
    yield started
    for server in started:
        server.stop()


@pytest.fixture
def trusting_none(redis_server: EmbeddedRedis, tmp_path: Path) -> Iterator[ServerProcess]:
    server = start_server(redis_server.url, tmp_path, **LIMITED, PACKPLAY_TRUSTED_PROXIES="")
    yield server
    server.stop()


def _address() -> str:
    """An address of this test's own, as the loopback proxy forwards it."""
    n = next(_addresses)
    return f"198.51.{random.randrange(256)}.{n % 250 + 1}"


def _http(server: ServerProcess, address: str | None = None) -> httpx.AsyncClient:
    headers = {} if address is None else {"X-Forwarded-For": address}
    return httpx.AsyncClient(base_url=server.url, headers=headers)


async def _create(http: httpx.AsyncClient, **body: Any) -> httpx.Response:
    return await http.post("/v2/games", json={"game": "day_night", "players": 2, **body})


async def _seated(server: ServerProcess) -> CreatedGame:
    async with _http(server, _address()) as http:
        created = await _create(http, seats=["a", "b"])
    assert created.status_code == 201, created.text
    return msgspec.json.decode(created.content, type=CreatedGame)


# a seat's actions


async def test_a_seats_actions_are_limited_over_two_connections_on_two_processes(
    limited: list[ServerProcess],
) -> None:
    game = await _seated(limited[0])
    token = game.grants[0].token
    first, second = Client(limited[0].url), Client(limited[1].url)
    for client in (first, second):
        await client.connect(token)
        await client.join(game.game_id)
    # An action of another game: each is refused by the rules (and counts), unless the
    # seat's limit holds it back first.
    acts = [
        Act(action_id=new_action_id(), version=0, action=Take(belt_position=0, group="C")) for _ in range(10)
    ]
    for index, act in enumerate(acts):
        await (first if index % 2 == 0 else second).send(act)
    reasons = []
    for index, act in enumerate(acts):
        client = first if index % 2 == 0 else second
        answer = await client.until(lambda m, a=act: isinstance(m, Rejected) and m.action_id == a.action_id)
        assert isinstance(answer, Rejected)
        reasons.append(answer.reason)
    assert reasons.count(RejectReason.BAD_MESSAGE) == ACTION_BURST, reasons
    assert reasons.count(RejectReason.RATE_LIMITED) == len(acts) - ACTION_BURST, reasons
    for client in (first, second):
        await client.close()


# frames and resumes of one connection


async def _raw(server: ServerProcess) -> websockets.ClientConnection:
    url = server.url.replace("http://", "ws://") + "/v2/ws"
    offer = [subprotocol(PROTOCOL_VERSION, Encoding.JSON)]
    return await websockets.connect(url, subprotocols=offer)  # type: ignore[list-item]


async def test_a_ping_flood_is_cut_off_with_4005(limited: list[ServerProcess]) -> None:
    ws = await _raw(limited[0])
    await ws.send(encode(Hello(client="flood"), Encoding.JSON).decode())
    for n in range(200):
        await ws.send(encode(Ping(nonce=str(n)), Encoding.JSON).decode())
    kinds: list[str] = []
    errors: list[str] = []
    with pytest.raises(websockets.ConnectionClosed):
        while True:
            message = msgspec.json.decode(await asyncio.wait_for(ws.recv(), 10))
            kinds.append(message["type"])
            if message["type"] == "error":
                errors.append(message["code"])
    assert ws.close_code == CloseCode.RATE_LIMITED
    assert kinds.count("pong") <= FRAME_BURST, "frames beyond the burst are not answered"
    assert errors and set(errors) == {ErrorCode.RATE_LIMITED.value}
    assert len(kinds) < FRAME_BURST + 5, f"the flood got {len(kinds)} frames back"


async def test_resumes_are_answered_at_a_bounded_rate_and_size(limited: list[ServerProcess]) -> None:
    game = await _seated(limited[0])
    players = [Client(limited[0].url), Client(limited[1].url)]
    for seat, client in enumerate(players):
        await client.connect(game.grants[seat].token)
        await client.join(game.game_id)
    await _play_until(players, CATCH_UP + 2)
    version = max(client.version for client in players)
    assert version > CATCH_UP + 1, "the game moved on far enough"

    watcher = Client(limited[1].url)
    await watcher.connect()
    await watcher.join(game.game_id, role="spectator")
    await watcher.resume(version - 1)  # close behind: the events, then the view
    near = [await watcher.recv(), await watcher.recv()]
    assert isinstance(near[0], Events) and isinstance(near[1], ViewMessage)
    await watcher.resume(0)  # far behind: the view alone
    far = await watcher.recv()
    assert isinstance(far, ViewMessage) and far.version == near[1].version
    for _ in range(int(RESUME_BURST) - 2):  # the rest of the burst
        await watcher.resume(0)
        assert isinstance(await watcher.recv(), ViewMessage)
    await watcher.resume(0)  # one beyond the burst
    refused = await watcher.recv()
    assert isinstance(refused, Error) and refused.code is ErrorCode.RATE_LIMITED
    for client in (*players, watcher):
        await client.close()


async def _play_until(players: list[Client], version: int) -> None:
    """Both seats play until one of them holds ``version``."""

    async def drive(bot: Bot) -> None:
        while bot.client.version < version and await bot.step():
            pass

    tasks = [asyncio.create_task(drive(Bot(c, random.Random(seat)))) for seat, c in enumerate(players)]
    _, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED, timeout=30)
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)


# new and open games of one client


async def test_new_games_are_limited_per_forwarded_address(limited: list[ServerProcess]) -> None:
    address = _address()
    answers = []
    for server in (limited[0], limited[1], limited[0], limited[1]):  # across both processes
        async with _http(server, address) as http:
            answers.append(await _create(http, seats=["a", "b"]))
    assert [a.status_code for a in answers] == [201] * GAMES_BURST + [429]
    refused = answers[-1]
    assert refused.json()["code"] == ErrorCode.RATE_LIMITED.value
    assert int(refused.headers["retry-after"]) > 0
    async with _http(limited[0], _address()) as other:
        assert (await _create(other, seats=["a", "b"])).status_code == 201, "another client is not held back"


async def test_without_trusted_proxies_the_forwarded_address_is_ignored(trusting_none: ServerProcess) -> None:
    answers = []
    for _ in range(GAMES_BURST + 1):
        async with _http(trusting_none, _address()) as http:  # a new address each time, not believed
            answers.append(await _create(http, seats=["a", "b"]))
    assert [a.status_code for a in answers] == [201] * GAMES_BURST + [429]


async def test_open_lobbies_are_limited_per_client(limited: list[ServerProcess]) -> None:
    async with _http(limited[0], _address()) as http:
        first = await _create(http)
        second = await _create(http)
        assert first.status_code == second.status_code == 201
        third = await _create(http)
        assert third.status_code == 429 and third.json()["code"] == ErrorCode.TOO_MANY_LOBBIES.value
        game_id = first.json()["game_id"]
        for name in ("a", "b"):  # the first lobby fills and starts: it no longer counts
            assert (await http.post(f"/v2/games/{game_id}/seats", json={"name": name})).status_code == 201
        assert (await _create(http)).status_code == 201


# private games


async def test_a_private_game_is_unlisted_and_its_seats_need_the_invite(limited: list[ServerProcess]) -> None:
    async with _http(limited[0], _address()) as http:
        answer = await _create(http, private=True)
        assert answer.status_code == 201, answer.text
        created = msgspec.json.decode(answer.content, type=CreatedGame)
        assert created.private and created.invite
        game_id, invite = created.game_id, created.invite

        listed = msgspec.json.decode((await http.get("/v2/games")).content, type=GameList)
        assert game_id not in {g.game_id for g in listed.games}

        seats = f"/v2/games/{game_id}/seats"
        for body in ({"name": "x"}, {"name": "x", "invite": "not-the-code"}):
            refused = await http.post(seats, json=body)
            assert refused.status_code == 403 and refused.json()["code"] == ErrorCode.INVITE_REQUIRED.value
        shown = (await http.get(f"/v2/games/{game_id}")).json()["summary"]
        assert all(seat.get("name") is None for seat in shown["seats"]), "the refused joins took nothing"

        grants = []
        for name in ("a", "b"):
            joined = await http.post(seats, json={"name": name, "invite": invite})
            assert joined.status_code == 201, joined.text
            grants.append(msgspec.json.decode(joined.content, type=SeatGrant))
        playing = msgspec.json.decode((await http.get("/v2/games?status=playing")).content, type=GameList)
        assert game_id not in {g.game_id for g in playing.games}, "unlisted once started too"

    spectator = Client(limited[1].url)  # whoever has the game's id may watch
    await spectator.connect()
    view = await spectator.join(game_id, role="spectator")
    assert view.game_id == game_id and view.seat is None
    await spectator.close()


def test_a_client_is_its_address_and_an_ipv6_client_its_64_network() -> None:
    assert client_key("198.51.100.7") == "198.51.100.7"
    assert client_key("2001:db8:1:2:aaaa::1") == client_key("2001:db8:1:2:bbbb::9") == "2001:db8:1:2::/64"
    assert client_key("2001:db8:1:3::1") != client_key("2001:db8:1:2::1")
    assert client_key("::ffff:198.51.100.7") == "198.51.100.7"
