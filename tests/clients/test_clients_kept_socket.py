"""The SDK's kept connection: a game created, taken, played and played again (rematch) on
the same two sockets, without REST calls or joins."""

from __future__ import annotations

import asyncio

import pytest
from support_servers import ServerProcess as Server

from packplay_clients import RandomBot, connect, play
from packplay_clients.errors import ServerError
from packplay_protocol.errors import ErrorCode
from packplay_protocol.rest import create_game

WAIT = 30.0


@pytest.mark.parametrize("encoding", ["json", "msgpack"])
async def test_two_kept_connections_play_a_game_then_a_rematch(server: Server, encoding: str) -> None:
    ada = await connect(server.url, encoding=encoding)
    bob = await connect(server.url, encoding=encoding)
    try:
        created = await ada.create(create_game("day_night", 2), "ada")
        assert not created.started and ada.seat == 0 and ada.game_id == created.game_id
        taken = await bob.take_seat(created.game_id, "bob")
        assert taken.started and bob.seat == 1
        views = await asyncio.gather(ada.wait_for_start(WAIT), bob.wait_for_start(WAIT))
        assert [(v.game_id, v.seat) for v in views] == [(created.game_id, 0), (created.game_id, 1)]
        overs = await asyncio.gather(play(ada, RandomBot(1)), play(bob, RandomBot(2)))
        assert overs[0].result == overs[1].result

        with pytest.raises(ServerError) as refused:
            await ada.take_seat(created.game_id, "ada")
        assert refused.value.code is ErrorCode.GAME_STARTED
        again = await asyncio.gather(ada.rematch(), bob.rematch())
        assert again[0].game_id == again[1].game_id != created.game_id
        views = await asyncio.gather(ada.wait_for_start(WAIT), bob.wait_for_start(WAIT))
        assert {v.game_id for v in views} == {again[0].game_id} and [v.version for v in views] == [0, 0]
        await asyncio.gather(play(ada, RandomBot(3)), play(bob, RandomBot(4)))
        assert ada.gaps == bob.gaps == 0 and ada.decode_errors == bob.decode_errors == []
    finally:
        await ada.close()
        await bob.close()


async def test_a_game_against_the_house_starts_at_once(server: Server) -> None:
    async with await connect(server.url) as connection:
        seated = await connection.create(
            create_game("day_night", 2, house=({"seat": 0, "bot": "random"},)), "solo"
        )
        assert seated.started and seated.seat == 1
        view = await connection.wait_for_start(WAIT)
        assert view.game_id == seated.game_id and view.seat == 1
        over = await play(connection, RandomBot(5))
        assert over.game_id == seated.game_id
        # Alone against the house, a rematch starts at once, the house in its seat again.
        again = await connection.rematch()
        assert again.started and again.seat == 1 and again.game_id != seated.game_id
        view = await connection.wait_for_start(WAIT)
        assert view.game_id == again.game_id and view.version == 0 and connection.game_over is None
