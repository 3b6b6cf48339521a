"""The REST client against a real server: every call, and refusals as typed ApiErrors."""

from __future__ import annotations

import httpx
import pytest
from clients_tables import Connections, open_table
from support_servers import ServerProcess as Server

from packplay_clients import ApiError, ConnectionLost, RestClient, ServerError, connect
from packplay_protocol.errors import ErrorCode
from packplay_protocol.version import SUBPROTOCOLS


async def test_the_lobby_round_trip(server: Server) -> None:
    async with RestClient(server.url) as lobby:
        health, ready = await lobby.health(), await lobby.ready()
        created = await lobby.create_game("day_night", 2, seed=5)
        first = await lobby.join_seat(created.game_id, "ada", seat=1)
        listed = await lobby.list_games("day_night")
        open_one = await lobby.snapshot(created.game_id, first.token)
        await lobby.leave_seat(created.game_id, first.token)
        left = await lobby.snapshot(created.game_id)

    assert health.status == "ok" and set(health.protocols) == set(SUBPROTOCOLS) and ready.ready
    assert created.status == "open" and created.sandbox and first.seat == 1
    assert created.game_id in {game.game_id for game in listed.games}
    assert open_one.state is None and open_one.summary.seats[1].name == "ada"
    assert left.summary.seats[1].name is None


async def test_refusals_carry_the_problem_code(server: Server) -> None:
    game_id, tokens = await open_table(server.url, "wedding_planner", 2)
    async with RestClient(server.url) as lobby:
        refusals = {
            ErrorCode.NOT_FOUND: lobby.snapshot("no-such-game"),
            ErrorCode.BAD_CONFIG: lobby.create_game("day_night", 2, sets=("XXX",)),
            ErrorCode.VALIDATION_FAILED: lobby.create_game("day_night", 0),
            ErrorCode.GAME_STARTED: lobby.join_seat(game_id, "late"),
            ErrorCode.SEAT_TAKEN: _take_twice(lobby),
            ErrorCode.GAME_NOT_OVER: lobby.replay(game_id),
            ErrorCode.UNAUTHORIZED: lobby.leave_seat(game_id, "x" * 32),
        }
        for code, call in refusals.items():
            with pytest.raises(ApiError) as refused:
                await call
            assert refused.value.code is code, (code, refused.value)
            assert refused.value.status == refused.value.problem.status >= 400
        with pytest.raises(ApiError) as started:
            await lobby.leave_seat(game_id, tokens[0])
    assert started.value.code is ErrorCode.GAME_STARTED


async def test_game_types_and_a_refused_option(server: Server) -> None:
    async with RestClient(server.url) as lobby:
        listed = await lobby.game_types()
        wedding = await lobby.game_type("wedding_planner")
        with pytest.raises(ApiError) as unknown:
            await lobby.game_type("chess")
        with pytest.raises(ApiError) as refused:
            await lobby.create_game("wedding_planner", 2, options={"first_seat": 4})
        created = await lobby.create_game("wedding_planner", 2, options={"first_seat": 1, "shuffle": False})
    assert [t.game for t in listed.games] == ["day_night", "mishra_factory", "wedding_planner", "base_race"]
    assert wedding in listed.games
    assert [o.name for o in wedding.options] == ["shuffle", "first_seat", "themes"]
    assert unknown.value.code is ErrorCode.NOT_FOUND
    assert (refused.value.code, refused.value.pointer) == (ErrorCode.VALIDATION_FAILED, "/options/first_seat")
    assert created.players == 2 and created.status == "open"


async def _take_twice(lobby: RestClient) -> None:
    created = await lobby.create_game("base_race", 2)
    await lobby.join_seat(created.game_id, "one", seat=0)
    await lobby.join_seat(created.game_id, "two", seat=0)


async def test_answers_that_are_no_problem_documents_still_raise_api_errors() -> None:
    def gateway(request: httpx.Request) -> httpx.Response:
        return httpx.Response(502, text="<html>bad gateway</html>")

    async with RestClient("http://lobby.test", transport=httpx.MockTransport(gateway)) as lobby:
        with pytest.raises(ApiError) as bad_gateway:
            await lobby.health()
    async with RestClient("http://127.0.0.1:9") as unreachable:
        with pytest.raises(ApiError) as down:
            await unreachable.list_games()
    assert bad_gateway.value.code is ErrorCode.UNAVAILABLE and bad_gateway.value.status == 502
    assert down.value.code is ErrorCode.UNAVAILABLE


async def test_the_websocket_refuses_a_bad_token_and_a_foreign_game(
    server: Server, connections: Connections
) -> None:
    game_id, tokens = await open_table(server.url, "day_night", 2)
    other_game, _ = await open_table(server.url, "day_night", 2)
    with pytest.raises(ServerError) as unknown:
        await connections.connect(server.url, "not-a-token-of-any-seat")
    seated = await connections.connect(server.url, tokens[0], "msgpack")
    with pytest.raises(ServerError) as foreign:
        await seated.join(other_game)
    view = await seated.join()
    with pytest.raises(ConnectionLost) as unreachable:
        await connect("http://127.0.0.1:9", tokens[1])
    assert unknown.value.code is ErrorCode.UNAUTHORIZED and foreign.value.code is ErrorCode.UNAUTHORIZED
    assert view.game_id == game_id and seated.seat == 0 and unreachable.value.code == 1006
