"""Full games through the SDK over real sockets: RandomBot in every seat, spectators, FirstBot."""

from __future__ import annotations

import asyncio

import pytest
from clients_tables import (
    IDLE_TIMEOUT,
    Connections,
    chain_breaks,
    collect,
    fetch_replay,
    open_table,
    play_all,
)
from support_servers import ServerProcess as Server

from packplay.games.audit import verify
from packplay_clients import FirstBot, RandomBot, pending, play
from packplay_protocol.errors import RejectReason
from packplay_protocol.to_client import GameOver, Rejected, Update, ViewMessage

GAMES = [("day_night", 2), ("mishra_factory", 3), ("wedding_planner", 2), ("base_race", 2)]


@pytest.mark.parametrize("encoding", ["json", "msgpack"])
@pytest.mark.parametrize(("game", "players"), GAMES)
async def test_random_bots_play_every_game_to_the_end(
    server: Server, connections: Connections, game: str, players: int, encoding: str
) -> None:
    game_id, tokens = await open_table(server.url, game, players)
    table = await connections.seat_all(server.url, game_id, tokens, encoding)
    overs = await play_all(table, [RandomBot(seed) for seed in range(players)])

    replay = await fetch_replay(server.url, game_id)
    assert {over.result for over in overs} == {replay.result}
    assert (replay.format, type(replay.deal).__struct_config__.tag) == ("packplay.replay.1", f"{game}.deal")
    verdict = verify(replay)  # from the explicit set-up and card table alone
    assert verdict.ok and verdict.steps == len(replay.log) and verdict.result == replay.result
    for seat, received in enumerate(table.received):
        assert chain_breaks(received) == [], seat
        assert table.seats[seat].version == len(replay.log)
        assert table.seats[seat].gaps == 0 and table.seats[seat].decode_errors == []
        assert sum(isinstance(m, GameOver) for m in received) == 1
    played = [entry.action_id for entry in replay.log if entry.seat == 0]
    assert all(action_id is not None and action_id.startswith(table.seats[0]._prefix) for action_id in played)


async def test_a_spectator_follows_the_game_and_cannot_act(server: Server, connections: Connections) -> None:
    game_id, tokens = await open_table(server.url, "wedding_planner", 2)
    table = await connections.seat_all(server.url, game_id, tokens)
    spectator = await connections.connect(server.url)
    first = await spectator.join(game_id, role="spectator")
    seat_view = next(c.view for c in table.seats if c.view is not None and pending(c.view))
    refused = await spectator.act(FirstBot().choose(seat_view), version=first.version)
    watched = asyncio.create_task(collect(spectator))
    await play_all(table, [RandomBot(1), RandomBot(2)])
    await spectator.wait_until(lambda: spectator.game_over is not None, 10)
    await spectator.close()
    received = await watched

    assert spectator.seat is None and first.seat is None
    assert isinstance(refused, Rejected) and refused.reason is RejectReason.UNAUTHORIZED
    views = [m for m in received if isinstance(m, ViewMessage)] + [spectator.view]
    assert all(v is not None and v.legal.empty and v.seat is None and not pending(v) for v in views)
    updates = [m for m in received if isinstance(m, Update)]
    assert updates and all(u.action_id is None for u in updates), "no acceptance is a spectator's"
    assert chain_breaks([first, *received]) == []
    assert any(u.events for u in updates) and isinstance(received[-1], GameOver)


async def test_first_bots_replay_the_same_seeded_game(server: Server, connections: Connections) -> None:
    logs = []
    for _ in range(2):
        game_id, tokens = await open_table(server.url, "mishra_factory", 2, seed=42)
        table = await connections.seat_all(server.url, game_id, tokens, "msgpack")
        await play_all(table, [FirstBot(), FirstBot()])
        logs.append([(e.seat, e.action) for e in (await fetch_replay(server.url, game_id)).log])
    assert logs[0] == logs[1] and len(logs[0]) > 10


async def test_one_connection_per_seat_plays_one_game_after_another(
    server: Server, connections: Connections
) -> None:
    seats = [await connections.connect(server.url, encoding=encoding) for encoding in ("json", "msgpack")]
    for round_, (game, seed) in enumerate([("day_night", 1), ("base_race", 2), ("day_night", 3)]):
        game_id, tokens = await open_table(server.url, game, 2)
        for seat, (connection, token) in enumerate(zip(seats, tokens, strict=True)):
            welcome = await connection.switch(token)
            assert (welcome.game_id, welcome.seat) == (game_id, seat)
            assert connection.view is None and connection.version == -1 and connection.game_over is None
            view = await connection.join()
            assert view.game_id == game_id and view.seat == seat
        games = [play(c, RandomBot(seed + i), idle_timeout=IDLE_TIMEOUT) for i, c in enumerate(seats)]
        overs = await asyncio.gather(*games)
        replay = await fetch_replay(server.url, game_id)
        assert {over.game_id for over in overs} == {game_id}, round_
        assert {over.result for over in overs} == {replay.result}
        for connection in seats:
            assert connection.version == len(replay.log) and connection.gaps == 0
            assert connection.view is not None and connection.view.game_id == game_id
            # The view kept from updates is the server's whole view at the end.
            assert (await connection.refresh()).view == connection.view.view
