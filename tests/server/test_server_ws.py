"""The WebSocket endpoint over real sockets: handshake, order of messages, bad input, slow readers."""

from __future__ import annotations

import asyncio
import random
import socket
from pathlib import Path

import pytest
import websockets
from server_client import Bot, Client, new_action_id, pick
from server_lobby import open_game
from support_servers import ServerProcess, start_server
from websockets.exceptions import ConnectionClosed

from packplay.server.storage.embedded import EmbeddedRedis
from packplay_protocol.codec import decode_server
from packplay_protocol.errors import CloseCode, ErrorCode, RejectReason
from packplay_protocol.from_client import Act, Hello, Join, Ping
from packplay_protocol.to_client import Error, Pong, Rejected, ViewMessage, Welcome
from packplay_protocol.version import SUBPROTOCOLS, Encoding


def _ws_url(server: ServerProcess) -> str:
    return server.url.replace("http://", "ws://") + "/v2/ws"


async def test_an_unknown_version_is_refused_with_what_the_server_speaks(
    servers: list[ServerProcess],
) -> None:
    async with websockets.connect(_ws_url(servers[0]), subprotocols=["packplay.v9.json"]) as ws:  # type: ignore[list-item]
        error = decode_server(await ws.recv(), Encoding.JSON)
        with pytest.raises(ConnectionClosed) as closed:
            await ws.recv()
    assert isinstance(error, Error) and error.code is ErrorCode.UNSUPPORTED_VERSION
    assert set(error.spoken) == set(SUBPROTOCOLS) and error.fatal
    assert closed.value.rcvd is not None and closed.value.rcvd.code == CloseCode.UNSUPPORTED_VERSION
    assert closed.value.rcvd.reason == "speaks packplay.v2.json, packplay.v2.msgpack"


async def test_a_client_of_the_retired_v1_is_answered_in_its_own_subprotocol(
    servers: list[ServerProcess],
) -> None:
    """A strict client (a browser) fails a handshake that names none of its offers: it gets its own."""
    async with websockets.connect(_ws_url(servers[0]), subprotocols=["packplay.v1.json"]) as ws:  # type: ignore[list-item]
        assert ws.subprotocol == "packplay.v1.json"
        error = decode_server(await ws.recv(), Encoding.JSON)
        with pytest.raises(ConnectionClosed) as closed:
            await ws.recv()
    assert isinstance(error, Error) and error.message.startswith("protocol v1 is retired")
    assert closed.value.rcvd is not None and closed.value.rcvd.code == CloseCode.UNSUPPORTED_VERSION


async def test_the_first_message_is_hello_and_answers_welcome(servers: list[ServerProcess]) -> None:
    client = Client(servers[1].url, Encoding.MSGPACK)
    assert client.ws is None
    client.ws = await websockets.connect(client.url, subprotocols=["packplay.v2.msgpack"])  # type: ignore[list-item]
    await client.send(Join(game_id="g7Hk2pQx"))
    out_of_order = await client.recv()
    await client.send(Hello())
    welcome = await client.recv()
    await client.send(Ping(nonce="n1"))
    pong = await client.recv()
    assert isinstance(out_of_order, Error) and out_of_order.code is ErrorCode.OUT_OF_ORDER
    assert isinstance(welcome, Welcome) and welcome.protocol == "packplay.v2.msgpack" and welcome.seat is None
    assert pong == Pong(nonce="n1")
    await client.close()


async def test_one_connection_plays_game_after_game(servers: list[ServerProcess]) -> None:
    """A new hello with the next game's token: nothing of the game before follows its welcome."""
    seats = [Client(servers[0].url), Client(servers[1].url, Encoding.MSGPACK)]
    played: list[str] = []
    for round_ in range(3):
        game_id, tokens = await open_game(servers[round_ % 2].url, "mishra_factory", 2)
        for seat, (client, token) in enumerate(zip(seats, tokens, strict=True)):
            if round_ == 0:
                await client.connect(token)
            else:
                welcome = await client.hello_again(token)
                assert (welcome.game_id, welcome.seat) == (game_id, seat)
            client.received.clear()
            view = await client.join(game_id)
            assert view.game_id == game_id and view.seat == seat
        await asyncio.gather(*(Bot(c, random.Random(round_ * 2 + i)).play() for i, c in enumerate(seats)))
        for client in seats:
            assert client.over is not None and client.over.game_id == game_id and not client.broken
            assert {m.game_id for m in client.received if hasattr(m, "game_id")} == {game_id}
        played.append(game_id)
    assert len(set(played)) == 3
    for client in seats:
        await client.close()


async def test_a_hello_mid_game_leaves_the_game_and_keeps_the_seat(servers: list[ServerProcess]) -> None:
    game_id, tokens = await open_game(servers[0].url, "mishra_factory", 2)
    seats = [Client(servers[0].url), Client(servers[1].url)]
    for client, token in zip(seats, tokens, strict=True):
        await client.connect(token)
        await client.join(game_id)
    await asyncio.gather(*(Bot(c, random.Random(i)).play(stop_after=1) for i, c in enumerate(seats)))
    left = seats[0]
    welcome = await left.hello_again()
    assert welcome.seat is None and welcome.game_id is None
    left.received.clear()
    # The seat was not given up: its token joins again from another connection and plays on,
    # and none of the game's moves reach the connection that left it.
    other = seats[1]
    back = Client(servers[1].url)
    await back.connect(tokens[0])
    view = await back.join(game_id)
    assert view.seat == 0 and view.result is None
    await asyncio.gather(*(Bot(c, random.Random(5 + i)).play() for i, c in enumerate((back, other))))
    assert back.over is not None and other.over is not None and not back.broken
    await left.send(Ping(nonce="after"))
    assert await left.until(lambda m: isinstance(m, Pong)) == Pong(nonce="after")
    assert left.received == [Pong(nonce="after")]
    for client in (left, back, other):
        await client.close()


async def test_an_unknown_token_is_closed_with_4001(servers: list[ServerProcess]) -> None:
    async with websockets.connect(_ws_url(servers[0]), subprotocols=["packplay.v2.json"]) as ws:  # type: ignore[list-item]
        await ws.send('{"type": "hello", "token": "not-a-real-token-at-all"}')
        error = decode_server(await ws.recv(), Encoding.JSON)
        with pytest.raises(ConnectionClosed) as closed:
            await ws.recv()
    assert isinstance(error, Error) and error.code is ErrorCode.UNAUTHORIZED
    assert closed.value.rcvd is not None and closed.value.rcvd.code == CloseCode.UNAUTHORIZED


async def test_who_may_act_where(servers: list[ServerProcess]) -> None:
    game_id, tokens = await open_game(servers[0].url, "mishra_factory", 2)
    other_game, _ = await open_game(servers[0].url, "mishra_factory", 2)
    player = Client(servers[0].url)
    await player.connect(tokens[0])
    act = Act(
        action_id="early", version=0, action={"type": "mishra_factory.take", "belt_position": 0, "group": "C"}
    )
    await player.send(act)
    early = await player.recv()
    await player.send(Join(game_id=other_game))
    foreign = await player.recv()
    assert isinstance(early, Rejected) and early.reason is RejectReason.NOT_FOUND
    assert isinstance(foreign, Error) and foreign.code is ErrorCode.UNAUTHORIZED

    spectator = Client(servers[1].url)
    await spectator.connect()
    await spectator.join(game_id, role="spectator")
    await spectator.send(act)
    refused = await spectator.until(lambda m: isinstance(m, Rejected))
    assert isinstance(refused, Rejected) and refused.reason is RejectReason.UNAUTHORIZED
    for client in (player, spectator):
        await client.close()


async def test_bad_frames_get_typed_errors_then_a_close(servers: list[ServerProcess]) -> None:
    game_id, tokens = await open_game(servers[0].url, "mishra_factory", 2)
    client = Client(servers[0].url)
    await client.connect(tokens[0])
    await client.join(game_id)
    assert client.ws is not None
    await client.ws.send("{nope")
    garbage = await client.recv()
    await client.ws.send('{"type": "teleport"}')
    unknown = await client.recv()
    await client.ws.send('{"type": "act", "action_id": "x1", "version": 0, "action": {"type": "chess.move"}}')
    bad_action = await client.recv()
    assert isinstance(garbage, Error) and garbage.code is ErrorCode.BAD_MESSAGE
    assert isinstance(unknown, Error) and unknown.code is ErrorCode.UNKNOWN_TYPE
    assert isinstance(bad_action, Rejected) and bad_action.reason is RejectReason.BAD_MESSAGE
    with pytest.raises(ConnectionClosed) as closed:
        for _ in range(20):
            await client.ws.send(b"\xff")
            await client.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == CloseCode.BAD_MESSAGES


async def test_an_action_of_another_game_is_a_bad_message(servers: list[ServerProcess]) -> None:
    game_id, tokens = await open_game(servers[0].url, "mishra_factory", 2)
    client = Client(servers[0].url)
    await client.connect(tokens[0])
    view = await client.join(game_id)
    wrong = {"type": "wedding_planner.draw"}
    await client.send(Act(action_id="w1", version=view.version, action=wrong))
    answer = await client.until(lambda m: isinstance(m, Rejected))
    assert isinstance(answer, Rejected) and answer.reason is RejectReason.BAD_MESSAGE
    await client.close()


async def test_a_stale_action_is_rejected_with_the_version_the_client_holds(
    servers: list[ServerProcess],
) -> None:
    game_id, tokens = await open_game(servers[0].url, "mishra_factory", 2)
    seats = [Client(servers[i].url) for i in range(2)]
    for client, token in zip(seats, tokens, strict=True):
        await client.connect(token)
        await client.join(game_id)
    await asyncio.gather(*(Bot(c, random.Random(i)).play(stop_after=2) for i, c in enumerate(seats)))
    mover = next(c for c in seats if c.view is not None and c.view.legal.choices + c.view.legal.actions)
    assert mover.view is not None and mover.view.version > 0
    late = Act(action_id=new_action_id(), version=0, action=pick(mover.view.legal, random.Random(0)))
    await mover.send(late)
    answer = await mover.until(lambda m: isinstance(m, Rejected))
    assert isinstance(answer, Rejected) and answer.reason is RejectReason.STALE_VERSION
    assert answer.version == mover.version == mover.view.version, "every update came before the refusal"
    for client in seats:
        await client.close()


async def test_messages_sent_while_an_action_is_answered_are_answered_after_it_in_order(
    servers: list[ServerProcess],
) -> None:
    """An action, then more pings than the connection holds back at once, all in one burst:
    the action's answer comes first, then every pong, in the order sent."""
    game_id, tokens = await open_game(servers[0].url, "mishra_factory", 2)
    client = Client(servers[0].url)
    await client.connect(tokens[0])
    view = await client.join(game_id)
    actor = Client(servers[0].url)
    await actor.connect(tokens[view.pending[0]])
    actor_view = await actor.join(game_id)
    assert client.ws is not None and actor.ws is not None
    burst = [Act(action_id="b1", version=actor_view.version, action=pick(actor_view.legal, random.Random(1)))]
    burst += [Ping(nonce=f"n{i}") for i in range(40)]
    for message in burst:  # each is written at once: the server reads them back to back
        await actor.send(message)
    answered, nonces = False, []
    while len(nonces) < 40:
        message = await actor.recv()
        if isinstance(message, Pong):
            assert answered, "the action is answered before the pings that came after it"
            nonces.append(message.nonce)
        elif getattr(message, "action_id", None) == "b1":
            answered = True
    assert nonces == [f"n{i}" for i in range(40)]
    await client.close()
    await actor.close()


async def test_a_frame_over_the_limit_closes_with_1009(servers: list[ServerProcess]) -> None:
    client = Client(servers[0].url)
    await client.connect()
    assert client.ws is not None
    with pytest.raises(ConnectionClosed) as closed:
        await client.ws.send("x" * (65 * 1024))
        await client.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == CloseCode.MESSAGE_TOO_BIG


async def test_a_client_that_stops_reading_is_told_to_resume_and_slows_nobody(
    redis_server: EmbeddedRedis, tmp_path: Path
) -> None:
    # The sleeper asks for the whole view thousands of times (the limits of resumes and frames,
    # which would stop it, are lifted here and tested in test_server_limits).
    unlimited = {
        "PACKPLAY_RESUMES_PER_MINUTE": "1000000",
        "PACKPLAY_FRAMES_PER_SECOND": "1000000",
        "PACKPLAY_FRAME_BURST": "1000000",
    }
    server = start_server(redis_server.url, tmp_path, PACKPLAY_SEND_QUEUE="4", **unlimited)
    try:
        game_id, tokens = await open_game(server.url, "mishra_factory", 4)
        seats = [Client(server.url) for _ in tokens]
        for client, token in zip(seats, tokens, strict=True):
            await client.connect(token)
            await client.join(game_id)
        sleeper = await _sleepy_spectator(server, game_id)
        for sent in range(3000):  # far more than the kernel's socket buffers hold
            await sleeper.send('{"type": "resume", "from_version": 0}')
            if sent % 8 == 7:
                await asyncio.sleep(0.001)  # within the burst of resumes the session takes at once

        await asyncio.wait_for(
            asyncio.gather(*(Bot(c, random.Random(i)).play() for i, c in enumerate(seats))), timeout=30
        )
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                await asyncio.wait_for(sleeper.recv(), 10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == CloseCode.RESUME_REQUIRED
        assert all(client.over is not None for client in seats)
    finally:
        server.stop()


async def _sleepy_spectator(server: ServerProcess, game_id: str) -> websockets.ClientConnection:
    """A spectator with a tiny receive window that reads nothing after joining.

    It asks for the whole view again and again (``resume``), so the server has far
    more to send it than the kernel buffers hold.
    """
    host, port = server.url.removeprefix("http://").split(":")
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
    sock.connect((host, int(port)))
    ws = await websockets.connect(
        _ws_url(server),
        sock=sock,
        subprotocols=["packplay.v2.json"],  # type: ignore[list-item]
        max_queue=1,
        compression=None,  # deflate would shrink the backlog ~10x
    )
    await ws.send('{"type": "hello"}')
    assert isinstance(decode_server(await ws.recv(), Encoding.JSON), Welcome)
    await ws.send(f'{{"type": "join", "game_id": "{game_id}", "role": "spectator"}}')
    assert isinstance(decode_server(await ws.recv(), Encoding.JSON), ViewMessage)
    return ws


async def test_a_silent_connection_is_closed_and_one_that_pings_is_kept(
    redis_server: EmbeddedRedis, tmp_path: Path
) -> None:
    """The protocol's ping is the only liveness check: a connection that sends nothing for
    three ping intervals is closed (1000), one that pings at the interval stays open."""
    server = start_server(redis_server.url, tmp_path, PACKPLAY_PING_INTERVAL="1")
    try:
        silent, pinging = Client(server.url), Client(server.url)
        assert (await silent.connect()).limits.ping_interval_seconds == 1
        await pinging.connect()
        for index in range(18):  # 4.5 s: more than the three intervals a connection may be silent
            await pinging.send(Ping(nonce=f"p{index}"))
            assert await pinging.recv() == Pong(nonce=f"p{index}")
            await asyncio.sleep(0.25)
        assert silent.ws is not None and pinging.ws is not None
        with pytest.raises(ConnectionClosed) as closed:
            await asyncio.wait_for(silent.ws.recv(), 5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == CloseCode.NORMAL
        assert "idle" in closed.value.rcvd.reason
        await pinging.send(Ping(nonce="last"))
        assert await pinging.recv() == Pong(nonce="last")
        await pinging.close()
    finally:
        server.stop()
