"""A hostile client against a real server: every finding of an attack replayed, and held.

One server process with tight limits per client address. Each test speaks for addresses of
its own through ``X-Forwarded-For``, which the server believes from the loopback proxy (the
proxy's own part, setting that header, is tested behind HAProxy in ``tests/balancer``).
"""

from __future__ import annotations

import asyncio
import datetime
import itertools
import re
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import msgpack
import msgspec
import pytest
import redis.asyncio as aioredis
import websockets
from support_servers import ServerProcess, start_server

from packplay.server.storage import keys
from packplay.server.storage.embedded import EmbeddedRedis
from packplay.table.records import decode_entry
from packplay_clients import FirstBot, connect, play
from packplay_clients.legal import first_fill
from packplay_protocol.codec import decode_server, encode
from packplay_protocol.errors import CloseCode, DecodeError, ErrorCode, RejectReason
from packplay_protocol.from_client import Act, ClientMessage, Hello, Join
from packplay_protocol.games.mishra_factory import Take
from packplay_protocol.rest import CreatedGame
from packplay_protocol.to_client import Error, Events, Rejected, ServerMessage, ViewMessage, Welcome
from packplay_protocol.version import PROTOCOL_VERSION, Encoding, subprotocol

CONNECTIONS = 4
SPECTATED = 2
SPECTATORS = 3
REFUSALS_KEPT = 5
HOSTILE = {
    "PACKPLAY_CONNECTIONS_PER_ADDRESS": str(CONNECTIONS),
    "PACKPLAY_SPECTATORS_PER_ADDRESS": str(SPECTATED),
    "PACKPLAY_SPECTATORS_PER_GAME": str(SPECTATORS),
    "PACKPLAY_CATCH_UPS_PER_MINUTE": "0.5",
    "PACKPLAY_HOUSE_GAMES_PER_MINUTE": "1",
    "PACKPLAY_HOUSE_MOVES_PER_MINUTE": "30",
    "PACKPLAY_REFUSALS_PER_SEAT": str(REFUSALS_KEPT),
}
CATCH_UP_BURST = 20
_addresses = (f"192.0.2.{n}" for n in itertools.count(1))


@pytest.fixture(scope="module")
def hostile(redis_server: EmbeddedRedis, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    server = start_server(redis_server.url, tmp_path_factory.mktemp("hostile"), **HOSTILE)
    yield server
    server.stop()


@pytest.fixture
async def store(redis_server: EmbeddedRedis) -> AsyncIterator[aioredis.Redis]:
    client = aioredis.Redis.from_url(redis_server.url)
    yield client
    await client.aclose()


class Peer:
    """One WebSocket of one address, speaking JSON."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws

    @classmethod
    async def open(cls, server: ServerProcess, address: str, path: str = "/v2/ws") -> Peer:
        url = server.url.replace("http", "ws", 1) + path
        offer = [subprotocol(PROTOCOL_VERSION, Encoding.JSON)]
        ws = await websockets.connect(
            url, subprotocols=offer, additional_headers={"X-Forwarded-For": address}
        )  # type: ignore[list-item]
        return cls(ws)

    async def send(self, message: ClientMessage) -> None:
        await self.ws.send(encode(message, Encoding.JSON).decode())

    async def recv(self, timeout: float = 10.0) -> ServerMessage:
        raw = await asyncio.wait_for(self.ws.recv(), timeout)
        decoded = decode_server(raw, Encoding.JSON)
        assert not isinstance(decoded, DecodeError), decoded
        return decoded

    async def hello(self, token: str | None = None) -> Welcome:
        await self.send(Hello(client="hostile/1", token=token))
        welcome = await self.recv()
        assert isinstance(welcome, Welcome), welcome
        return welcome

    async def join(
        self, game_id: str, role: str = "spectator", since: int | None = None
    ) -> list[ServerMessage]:
        """Join; the messages up to the view or the error that answers it."""
        await self.send(Join(game_id=game_id, role=role, from_version=since))  # type: ignore[arg-type]
        got: list[ServerMessage] = []
        while not got or not isinstance(got[-1], ViewMessage | Error):
            got.append(await self.recv())
        return got

    async def close(self) -> None:
        await self.ws.close()


async def _seated(server: ServerProcess, game: str = "mishra_factory", **body: Any) -> CreatedGame:
    async with httpx.AsyncClient(base_url=server.url, headers={"X-Forwarded-For": next(_addresses)}) as http:
        created = await http.post("/v2/games", json={"game": game, "players": 2, "seats": ["a", "b"], **body})
    assert created.status_code == 201, created.text
    return msgspec.json.decode(created.content, type=CreatedGame)


def _limited(server: ServerProcess, limit: str) -> float:
    """The server's count of requests ``limit`` held back."""
    text = httpx.get(server.url + "/v2/metrics", timeout=5).text
    found = re.search(rf'^packplay_limited_total\{{limit="{limit}"\}} (\S+)$', text, flags=re.MULTILINE)
    return float(found.group(1)) if found else 0.0


# Connections and spectators


async def test_one_address_holds_only_so_many_connections(hostile: ServerProcess) -> None:
    address = next(_addresses)
    kept = [await Peer.open(hostile, address) for _ in range(CONNECTIONS)]
    one_more = await Peer.open(hostile, address)
    refusal = await one_more.recv()
    assert isinstance(refusal, Error) and refusal.code is ErrorCode.RATE_LIMITED and refusal.fatal
    with pytest.raises(websockets.ConnectionClosed) as closed:
        await one_more.recv()
    await one_more.close()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == CloseCode.RATE_LIMITED
    other = await Peer.open(hostile, next(_addresses))
    await other.hello()  # another address is not held back
    await kept[0].close()
    await asyncio.sleep(0.2)
    again = await Peer.open(hostile, address)
    await again.hello()  # one let go: one more may come
    for peer in (*kept[1:], other, again):
        await peer.close()
    assert _limited(hostile, "connections") >= 1


async def test_one_address_watches_only_so_many_games(hostile: ServerProcess) -> None:
    address = next(_addresses)
    games = [await _seated(hostile) for _ in range(SPECTATED + 1)]
    peers = [await Peer.open(hostile, address) for _ in games]
    for peer in peers:
        await peer.hello()
    for peer, game in zip(peers[:SPECTATED], games, strict=False):
        assert isinstance((await peer.join(game.game_id))[-1], ViewMessage)
    refused = (await peers[-1].join(games[-1].game_id))[-1]
    assert isinstance(refused, Error) and refused.code is ErrorCode.RATE_LIMITED and not refused.fatal
    await peers[0].close()
    await asyncio.sleep(0.2)
    assert isinstance((await peers[-1].join(games[-1].game_id))[-1], ViewMessage), "one let go, one more"
    for peer in peers[1:]:
        await peer.close()


async def test_a_game_has_only_so_many_spectators_on_a_process(hostile: ServerProcess) -> None:
    game = await _seated(hostile)
    peers = [await Peer.open(hostile, next(_addresses)) for _ in range(SPECTATORS + 1)]
    for peer in peers:
        await peer.hello()
    for peer in peers[:SPECTATORS]:
        assert isinstance((await peer.join(game.game_id))[-1], ViewMessage)
    refused = (await peers[-1].join(game.game_id))[-1]
    assert isinstance(refused, Error) and refused.code is ErrorCode.GAME_FULL
    player = await Peer.open(hostile, next(_addresses))
    await player.hello(game.grants[0].token)
    assert isinstance((await player.join(game.game_id, "player"))[-1], ViewMessage), (
        "seats are never held back"
    )
    for peer in (*peers, player):
        await peer.close()
    assert _limited(hostile, "spectators_per_game") >= 1


async def test_joins_that_replay_the_log_are_bounded_per_address(hostile: ServerProcess) -> None:
    """A join flood from version 0 replays the log with the rules each time: past the
    address's allowance, the view comes without the events."""
    game = await _seated(hostile, game="wedding_planner")
    async with httpx.AsyncClient(base_url=hostile.url) as http:
        pending = (await http.get(f"/v2/games/{game.game_id}")).json()["state"]["pending"][0]
    mover = await Peer.open(hostile, next(_addresses))
    await mover.hello(game.grants[pending].token)
    view = (await mover.join(game.game_id, "player"))[-1]
    assert isinstance(view, ViewMessage)
    action = view.legal.actions[0] if view.legal.actions else first_fill(view.legal.choices[0])
    await mover.send(Act(action_id="a1", version=view.version, action=action))
    await mover.recv()
    address = next(_addresses)
    flooder = await Peer.open(hostile, address)
    with_events = 0
    for _ in range(CATCH_UP_BURST + 3):
        await flooder.hello()
        answer = await flooder.join(game.game_id, since=0)
        with_events += isinstance(answer[0], Events)
    assert with_events == CATCH_UP_BURST
    for peer in (mover, flooder):
        await peer.close()
    assert _limited(hostile, "catch_ups") >= 3


# The house


async def test_new_games_against_the_house_are_limited_per_address(hostile: ServerProcess) -> None:
    headers = {"X-Forwarded-For": next(_addresses)}
    body = {"game": "day_night", "players": 2, "seats": ["ada"], "house": [{"seat": 1, "bot": "random"}]}
    async with httpx.AsyncClient(base_url=hostile.url, headers=headers) as http:
        first = await http.post("/v2/games", json=body)
        second = await http.post("/v2/games", json=body)
        plain = await http.post("/v2/games", json={"game": "day_night", "players": 2})
    assert first.status_code == 201 and second.status_code == 429
    assert second.json()["code"] == "rate_limited" and int(second.headers["retry-after"]) >= 1
    assert plain.status_code == 201, "games without the house are not held back by it"


async def test_the_house_takes_its_turn_among_its_creators_decisions(
    hostile: ServerProcess, store: aioredis.Redis
) -> None:
    """At 30 house decisions a minute (bursts of 3) for the address that created the game,
    the house's sixth decision comes no sooner than four seconds in: past the burst, one
    every two seconds."""
    headers = {"X-Forwarded-For": next(_addresses)}
    body = {"game": "mishra_factory", "players": 2, "seats": ["ada"], "house": [{"seat": 1, "bot": "first"}]}
    async with httpx.AsyncClient(base_url=hostile.url, headers=headers) as http:
        created = msgspec.json.decode((await http.post("/v2/games", json=body)).content, type=CreatedGame)
    started = time.monotonic()
    player = asyncio.create_task(_play(hostile.url, created.grants[0].token))
    decisions = 0
    while decisions < 6 and time.monotonic() - started < 60 and not player.done():
        await asyncio.sleep(0.1)
        decisions = await _house_decisions(store, created.game_id)
    elapsed = time.monotonic() - started
    player.cancel()
    await asyncio.gather(player, return_exceptions=True)
    assert decisions >= 6 and elapsed >= 4.0, (decisions, elapsed)
    assert _limited(hostile, "house_moves") >= 1


async def _play(url: str, token: str) -> None:
    async with await connect(url, token) as connection:
        await connection.join()
        await play(connection, FirstBot())


async def _house_decisions(store: aioredis.Redis, game_id: str) -> int:
    entries = [decode_entry(raw) for raw in await store.lrange(keys.log(game_id), 1, -1)]
    return sum(1 for entry in entries if (entry.action_id or "").startswith("house-"))


# The lesser findings


async def test_refusals_kept_per_seat_are_capped(hostile: ServerProcess, store: aioredis.Redis) -> None:
    game = await _seated(hostile)
    peer = await Peer.open(hostile, next(_addresses))
    await peer.hello(game.grants[0].token)
    await peer.join(game.game_id, "player")
    for index in range(3 * REFUSALS_KEPT):
        await peer.send(Act(action_id=f"x{index}", version=0, action=Take(belt_position=99, group="C")))
        answer = await peer.recv()
        assert isinstance(answer, Rejected) and answer.reason is not RejectReason.RATE_LIMITED
    await peer.close()
    kept = [field for field in await store.hkeys(keys.answers(game.game_id)) if field]
    assert len(kept) == REFUSALS_KEPT


async def test_a_msgpack_timestamp_is_refused_like_any_extension(hostile: ServerProcess) -> None:
    url = hostile.url.replace("http", "ws", 1) + "/v2/ws"
    offer = [subprotocol(PROTOCOL_VERSION, Encoding.MSGPACK)]
    async with websockets.connect(url, subprotocols=offer) as ws:  # type: ignore[list-item]
        stamped = {"type": "hello", "client": "hostile/1", "at": datetime.datetime.now(datetime.UTC)}
        await ws.send(msgpack.packb(stamped, datetime=True))
        error = decode_server(await asyncio.wait_for(ws.recv(), 10), Encoding.MSGPACK)
    assert isinstance(error, Error) and error.code is ErrorCode.BAD_MESSAGE
    assert "extension type -1" in error.message


async def test_another_versions_path_gets_the_versioned_refusal(hostile: ServerProcess) -> None:
    url = hostile.url.replace("http", "ws", 1) + "/v1/ws"
    async with websockets.connect(url, subprotocols=["packplay.v1.json"]) as ws:  # type: ignore[list-item]
        error = decode_server(await asyncio.wait_for(ws.recv(), 10), Encoding.JSON)
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await asyncio.wait_for(ws.recv(), 10)
    assert isinstance(error, Error) and error.code is ErrorCode.UNSUPPORTED_VERSION
    assert error.spoken == ("packplay.v2.json", "packplay.v2.msgpack")
    assert closed.value.rcvd is not None and closed.value.rcvd.code == CloseCode.UNSUPPORTED_VERSION


async def test_websocket_pings_count_against_the_frame_limit(hostile: ServerProcess) -> None:
    peer = await Peer.open(hostile, next(_addresses))
    await peer.hello()
    with pytest.raises(websockets.ConnectionClosed) as closed:
        for _ in range(2000):
            await peer.ws.ping()
            await asyncio.sleep(0)
        await peer.recv(timeout=10)
        await peer.recv(timeout=10)
    await peer.close()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == CloseCode.RATE_LIMITED


async def test_two_hellos_back_to_back_get_two_welcomes_in_order(hostile: ServerProcess) -> None:
    """As the protocol guide says: the second waits for the first's answer, then starts over."""
    first, second = await _seated(hostile), await _seated(hostile)
    peer = await Peer.open(hostile, next(_addresses))
    await peer.send(Hello(client="hostile/1", token=first.grants[0].token))
    await peer.send(Hello(client="hostile/1", token=second.grants[1].token))
    welcomes = [await peer.recv(), await peer.recv()]
    await peer.close()
    assert [(w.game_id, w.seat) for w in welcomes if isinstance(w, Welcome)] == [
        (first.game_id, 0),
        (second.game_id, 1),
    ]


async def test_a_create_sent_again_with_its_idempotency_key_creates_once(hostile: ServerProcess) -> None:
    headers = {"X-Forwarded-For": next(_addresses), "Idempotency-Key": "create-once-1"}
    body = {"game": "day_night", "players": 2, "seats": ["a", "b"]}
    async with httpx.AsyncClient(base_url=hostile.url, headers=headers) as http:
        first = await http.post("/v2/games", json=body)
        again = await http.post("/v2/games", json=body)
        other = await http.post("/v2/games", json={**body, "players": 3, "game": "mishra_factory"})
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json() and again.headers["idempotent-replayed"] == "true"
    assert other.status_code == 422 and other.json()["code"] == "validation_failed"
