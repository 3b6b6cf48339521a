"""The connection's promises, against a scripted server on the in-memory transport."""

from __future__ import annotations

import asyncio

import pytest
from clients_memory import GAME_ID, Peer, ScriptedServer, an_action, view_at, welcome

from packplay_clients import ConnectionLost, GameConnection, ServerError
from packplay_protocol.errors import ErrorCode
from packplay_protocol.from_client import Act, Hello, Join, Resume
from packplay_protocol.patch import PatchOp
from packplay_protocol.to_client import Accepted, Error, Events, Update

TOKEN = "t" * 32


async def joined(server: ScriptedServer, version: int = 3) -> tuple[GameConnection, Peer]:
    """A connection that said hello and joined, holding ``version``."""
    connection = GameConnection("ws://scripted", token=TOKEN, connector=server.connector, keepalive=False)
    opening = asyncio.create_task(connection.open())
    peer = await server.accept()
    assert await peer.receive() == Hello(client=connection.client, token=TOKEN)
    await peer.send(welcome())
    await opening
    joining = asyncio.create_task(connection.join())
    assert await peer.receive() == Join(game_id=GAME_ID, role="player")
    await peer.send(view_at(version))
    await joining
    return connection, peer


async def test_a_4000_close_resumes_from_the_last_version_and_resends_pending_actions() -> None:
    server = ScriptedServer()
    connection, peer = await joined(server)
    acting = asyncio.create_task(connection.act(an_action(), action_id="a-1"))
    sent = await peer.receive()
    await peer.close(4000)

    again = await server.accept()
    assert await again.receive() == Hello(client=connection.client, token=TOKEN)
    await again.send(welcome())
    assert await again.receive() == Join(game_id=GAME_ID, role="player", from_version=3)
    assert await again.receive() == sent
    await again.send(Accepted(action_id="a-1", version=4))
    assert await acting == Accepted(action_id="a-1", version=4)
    assert isinstance(sent, Act) and sent.version == 3
    assert connection.resumed_after == [4000]
    await connection.close()


async def test_an_action_played_while_reconnecting_waits_for_the_welcome_and_the_join() -> None:
    server = ScriptedServer()
    connection, peer = await joined(server)
    await peer.close(4000)
    again = await server.accept()
    assert await again.receive() == Hello(client=connection.client, token=TOKEN)
    # Played now, before the welcome: the server knows no game for this socket yet.
    acting = asyncio.create_task(connection.act(an_action(), action_id="a-2"))
    await asyncio.sleep(0.05)
    await again.send(welcome())
    assert await again.receive() == Join(game_id=GAME_ID, role="player", from_version=3)
    sent = await again.receive()
    assert isinstance(sent, Act) and sent.action_id == "a-2"
    await again.send(Accepted(action_id="a-2", version=4))
    assert await acting == Accepted(action_id="a-2", version=4)
    await connection.close()


async def test_an_update_patches_the_view_and_acknowledges_the_action() -> None:
    server = ScriptedServer()
    connection, peer = await joined(server, version=3)
    acting = asyncio.create_task(connection.act(an_action(), action_id="a-9"))
    await peer.receive()
    ops = (PatchOp(op="replace", path="/pending", value=[1]), PatchOp(op="remove", path="/legal/choices/0"))
    await peer.send(Update(game_id=GAME_ID, version=4, patch=ops, action_id="a-9"))
    assert await acting == Accepted(action_id="a-9", version=4)
    view = connection.view
    assert view is not None and (view.version, view.pending, view.legal.choices) == (4, (1,), ())
    assert connection.document is not None and connection.document["pending"] == [1]
    await connection.close()


async def test_a_gap_in_updates_is_resumed_with_a_whole_view() -> None:
    server = ScriptedServer()
    connection, peer = await joined(server, version=3)
    await peer.send(Update(game_id=GAME_ID, version=5))
    assert await peer.receive() == Resume(from_version=3)
    await peer.send(Update(game_id=GAME_ID, version=6))  # still waiting for the whole view: dropped
    await peer.send(Events(game_id=GAME_ID, from_version=3, to_version=6, events=()), view_at(6))
    await connection.wait_for_version(6, timeout=5)
    await peer.send(
        Update(game_id=GAME_ID, version=7, patch=(PatchOp(op="replace", path="/pending", value=[]),))
    )
    await connection.wait_for_version(7, timeout=5)
    await connection.close()

    received = [m async for m in connection.messages()]
    kinds = [type(m).__name__ for m in received]
    assert kinds == ["Welcome", "ViewMessage", "Events", "ViewMessage", "Update"], (
        "the two that did not follow are dropped"
    )
    assert connection.gaps == 1 and connection.view is not None and connection.view.pending == ()


async def test_an_update_that_does_not_fit_the_view_asks_for_a_whole_view() -> None:
    server = ScriptedServer()
    connection, peer = await joined(server, version=3)
    await peer.send(Update(game_id=GAME_ID, version=4, patch=(PatchOp(op="remove", path="/view/nowhere"),)))
    assert await peer.receive() == Resume(from_version=3)
    assert connection.gaps == 1 and connection.version == 3
    await connection.close()


@pytest.mark.parametrize("code", [1000, 4001, 4003, 4004])
async def test_other_close_codes_end_the_connection_for_good(code: int) -> None:
    server = ScriptedServer()
    connection, peer = await joined(server)
    acting = asyncio.create_task(connection.act(an_action()))
    await peer.receive()
    await peer.close(code)
    with pytest.raises(ConnectionLost) as lost:
        await acting
    assert lost.value.code == code and server.attempts == 1
    with pytest.raises(ConnectionLost):
        await connection.wait_until(lambda: False)


async def test_a_1012_before_the_welcome_says_hello_again_on_a_new_connection() -> None:
    server = ScriptedServer()
    connection = GameConnection("ws://scripted", token=TOKEN, connector=server.connector, keepalive=False)
    opening = asyncio.create_task(connection.open())
    draining = await server.accept()
    assert await draining.receive() == Hello(client=connection.client, token=TOKEN)
    await draining.close(1012)

    again = await server.accept()
    assert await again.receive() == Hello(client=connection.client, token=TOKEN)
    await again.send(welcome())
    assert (await opening).seat == 0 and connection.resumed_after == [1012]
    joining = asyncio.create_task(connection.join())
    assert await again.receive() == Join(game_id=GAME_ID, role="player")
    await again.send(view_at(1))
    assert (await joining).version == 1
    await connection.close()


async def test_resuming_gives_up_after_its_attempts() -> None:
    server = ScriptedServer(refuse=10)
    connection, peer = await joined(server)
    connection.reconnect_attempts, connection.reconnect_delay = 3, 0.001
    await peer.close(1012)
    with pytest.raises(ConnectionLost) as lost:
        await connection.wait_until(lambda: False, timeout=5)
    assert lost.value.code == 1012 and "could not resume" in lost.value.reason and server.attempts == 4


async def test_a_refused_hello_and_join_raise_server_errors() -> None:
    server = ScriptedServer()
    connection = GameConnection("ws://scripted", token=TOKEN, connector=server.connector, keepalive=False)
    opening = asyncio.create_task(connection.open())
    peer = await server.accept()
    await peer.receive()
    await peer.send(Error(code=ErrorCode.UNAUTHORIZED, message="unknown token", fatal=True))
    with pytest.raises(ServerError) as refused:
        await opening
    assert refused.value.code is ErrorCode.UNAUTHORIZED

    connection, peer = await joined(ScriptedServer())
    await connection.close()
    server = ScriptedServer()
    spectator = GameConnection("ws://scripted", connector=server.connector, keepalive=False)
    opening = asyncio.create_task(spectator.open())
    peer = await server.accept()
    await peer.receive()
    await peer.send(welcome(seat=None))
    await opening
    with pytest.raises(ValueError, match="pass game_id"):
        await spectator.join()
    joining = asyncio.create_task(spectator.join("gone"))
    await peer.receive()
    await peer.send(Error(code=ErrorCode.NOT_FOUND, message="no game gone"))
    with pytest.raises(ServerError) as missing:
        await joining
    assert missing.value.code is ErrorCode.NOT_FOUND and spectator.game_id is None
    await spectator.close()


async def test_a_switch_drops_the_game_left_until_the_welcome_and_its_acknowledgements_still_answer() -> None:
    server = ScriptedServer()
    connection, peer = await joined(server)
    acting = asyncio.create_task(connection.act(an_action(), action_id="a-3"))
    await peer.receive()
    switching = asyncio.create_task(connection.switch("u" * 32))
    assert await peer.receive() == Hello(client=connection.client, token="u" * 32)
    # Still on its way from the game left: the update that answers the action, then more of it.
    patch = (PatchOp(op="replace", path="/version", value=4),)
    await peer.send(Update(game_id=GAME_ID, version=4, events=(), patch=patch, action_id="a-3"))
    await peer.send(Update(game_id=GAME_ID, version=5, events=(), patch=patch, action_id=None))
    assert await acting == Accepted(action_id="a-3", version=4)
    assert connection.version == 3, "nothing of the game left is applied"
    await peer.send(welcome(seat=1))
    answer = await switching
    assert answer.seat == 1
    assert (connection.view, connection.version, connection.game_id) == (None, -1, None)
    joining = asyncio.create_task(connection.join())
    assert await peer.receive() == Join(game_id=GAME_ID, role="player")
    await peer.send(view_at(0))
    assert (await joining).version == 0 and connection.version == 0 and connection.gaps == 0
    await connection.close()


async def test_a_drop_during_a_switch_says_hello_again_with_the_new_token() -> None:
    server = ScriptedServer()
    connection, peer = await joined(server)
    switching = asyncio.create_task(connection.switch("w" * 32))
    assert await peer.receive() == Hello(client=connection.client, token="w" * 32)
    await peer.close(1012)
    again = await server.accept()
    assert await again.receive() == Hello(client=connection.client, token="w" * 32)
    await again.send(welcome(seat=1))
    assert (await switching).seat == 1
    assert connection.game_id is None and connection.view is None, "the game left is not resumed"
    await connection.close()
