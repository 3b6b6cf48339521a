"""The house: seats the server plays itself, on real server processes over a real Redis.

One client plays each game to the end against house seats; the house keeps playing
when the client is on another process than the one that made the game, when that
process is killed, and when the process that should have made a house decision never
does (the clock sweep of another process makes it); under a turn clock the house
never times out while its opponent does.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import signal
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import msgspec
import pytest
from support_servers import ServerProcess, start_server

from packplay.cards.catalog import load_catalog
from packplay.server.play.lobby import Lobby
from packplay.server.play.local_games import LocalGames
from packplay.server.play.moves import Moves
from packplay.server.settings import Settings
from packplay.server.storage.embedded import EmbeddedRedis
from packplay.server.storage.games import GameStore
from packplay_clients import RestClient, connect, play
from packplay_clients.bots import FirstBot, RandomBot
from packplay_protocol.rest import CreateGame, HouseBot, Replay

IDLE = 30.0
HOUSE_GAMES: list[tuple[str, int, dict[int, HouseBot]]] = [
    ("day_night", 2, {1: "hard"}),
    ("mishra_factory", 3, {0: "medium", 2: "random"}),
    ("wedding_planner", 2, {0: "easy"}),
    ("base_race", 2, {1: "hard"}),
    ("wedding_planner", 4, {1: "first", 2: "strong", 3: "hard"}),
]


def player_seat(players: int, house: dict[int, str]) -> int:
    return next(seat for seat in range(players) if seat not in house)


async def play_alone(url: str, token: str, seed: int = 1, think: float | None = None) -> int:
    """Play one seat with a random bot until the game is over; the final version."""
    thoughts = itertools.chain([think], itertools.repeat(0.0)) if think is not None else None
    async with await connect(url, token) as connection:
        await connection.join()
        over = await play(
            connection,
            RandomBot(seed),
            idle_timeout=IDLE,
            think=None if thoughts is None else lambda: next(thoughts) or 0.0,
        )
        assert over.result is not None
        return connection.version


def assert_house_played(replay: Replay, house: dict[int, str], timed_out_ok: bool = False) -> None:
    by_house = [action for action in replay.log if action.seat in house]
    assert {action.seat for action in by_house} == set(house), "every house seat played"
    for action in by_house:
        assert action.action_id is not None and action.action_id.startswith("house-")
        assert not action.timed_out or timed_out_ok


@pytest.mark.parametrize(("game", "players", "house"), HOUSE_GAMES)
async def test_one_client_plays_a_game_against_the_house_to_the_end(
    servers: list[ServerProcess], game: str, players: int, house: dict[int, str]
) -> None:
    url = servers[0].url
    async with RestClient(url) as lobby:
        created = await lobby.create_game(game, players, seats=("ada",), house=house, seed=11)
        mine = player_seat(players, house)
        assert [grant.seat for grant in created.grants] == [mine]
        assert created.status == "playing"
        assert {s.seat: s.house for s in created.seats if s.house} == house
        assert all(s.name == f"House ({house[s.seat]})" for s in created.seats if s.seat in house)
        final = await play_alone(url, created.grants[0].token)
        replay = await lobby.replay(created.game_id)
    assert replay.log[-1].version == final
    assert_house_played(replay, house)


async def test_a_player_joins_a_lobby_game_where_the_house_took_the_other_seat(
    servers: list[ServerProcess],
) -> None:
    url = servers[0].url
    async with RestClient(url) as lobby:
        created = await lobby.create_game("day_night", 2, house={0: "strong"})
        assert created.status == "open" and not created.grants
        assert [s.name for s in created.seats] == ["House (strong)", None]
        listed = await lobby.list_games("day_night")
        assert created.game_id in {g.game_id for g in listed.games}
        grant = await lobby.join_seat(created.game_id, "ada")
        assert grant.seat == 1
        await play_alone(url, grant.token)
        replay = await lobby.replay(created.game_id)
    assert_house_played(replay, {0: "strong"})


async def test_the_client_plays_on_the_other_process_than_the_one_that_made_the_game(
    servers: list[ServerProcess],
) -> None:
    house: dict[int, HouseBot] = {0: "strong"}
    async with RestClient(servers[0].url) as lobby:
        created = await lobby.create_game("mishra_factory", 2, seats=("ada",), house=house)
    await play_alone(servers[1].url, created.grants[0].token)
    async with RestClient(servers[1].url) as other:
        assert_house_played(await other.replay(created.game_id), house)


async def test_the_house_plays_on_when_the_process_that_made_the_game_is_killed(
    redis_server: EmbeddedRedis, servers: list[ServerProcess], tmp_path: Path
) -> None:
    doomed = start_server(redis_server.url, tmp_path, PACKPLAY_HOUSE_GRACE="1")
    house: dict[int, HouseBot] = {1: "strong"}
    try:
        async with RestClient(doomed.url) as lobby:
            created = await lobby.create_game("base_race", 2, seats=("ada",), house=house)
    finally:
        doomed.kill()
    await play_alone(servers[0].url, created.grants[0].token)
    async with RestClient(servers[1].url) as other:
        assert_house_played(await other.replay(created.game_id), house)


async def test_a_house_decision_its_process_never_made_is_made_by_another(
    redis_server: EmbeddedRedis, servers: list[ServerProcess]
) -> None:
    """A process commits the start, where the house is pending, and makes nothing of it (as
    if it died at once): after the grace, a server process's clock sweep makes the decision."""
    store = GameStore.from_url(redis_server.url, process_id="gone")
    settings = Settings(sandbox=True, house_grace=1.0)
    games = LocalGames(store, load_catalog)
    lobby = Lobby(store, games, Moves(store, games, settings, time.time), settings, load_catalog, time.time)
    try:
        body = {"game": "wedding_planner", "players": 2, "seats": ["ada"], "house": [{"seat": 1}], "seed": 3}
        request = msgspec.convert(body, CreateGame)
        created = await lobby.create(request)  # no house listens to its commits
    finally:
        await store.close()
    async with RestClient(servers[1].url) as lobby:
        first = await lobby.snapshot(created.game_id)
        assert first.state is not None and first.state.pending == (1,)
        await play_alone(servers[1].url, created.grants[0].token)
        replay = await lobby.replay(created.game_id)
    assert replay.log[0].seat == 1 and replay.log[0].action_id == "house-1-0"
    assert_house_played(replay, {1: "strong"})


async def test_under_a_turn_clock_the_house_moves_in_time_and_its_opponent_times_out(
    servers: list[ServerProcess],
) -> None:
    house: dict[int, HouseBot] = {1: "strong"}
    async with RestClient(servers[0].url) as lobby:
        created = await lobby.create_game("day_night", 2, seats=("ada",), house=house, turn_seconds=0.6)
        assert created.turn_seconds == 0.6
        await play_alone(servers[1].url, created.grants[0].token, think=1.5)
        replay = await lobby.replay(created.game_id)
    assert_house_played(replay, house)
    mine = [action for action in replay.log if action.seat == 0]
    assert mine[0].timed_out, "the player's first decision ran out of time: the clock played it"
    assert not any(action.timed_out for action in replay.log if action.seat == 1)


@pytest.mark.parametrize(
    ("body", "detail"),
    [
        ({"house": [{"seat": 0}, {"seat": 1}]}, "leave at least one seat for a player"),
        ({"house": [{"seat": 1}, {"seat": 1}]}, "a seat is listed twice"),
        ({"house": [{"seat": 2}]}, "seats 0 to 1"),
        (
            {"house": [{"seat": 1}], "seats": ["ada", "bob"]},
            "each of the 1 seats the house does not play",
        ),
    ],
)
async def test_house_seats_that_cannot_be_are_refused(
    servers: list[ServerProcess], body: dict[str, object], detail: str
) -> None:
    async with httpx.AsyncClient(base_url=servers[0].url) as http:
        response = await http.post("/v2/games", json={"game": "day_night", "players": 2, **body})
    assert response.status_code == 422
    assert response.json()["code"] == "validation_failed"
    assert detail in response.json()["detail"]
    assert response.json()["pointer"] == ("/seats" if "seats" in body else "/house")


async def test_an_unknown_house_bot_is_refused(servers: list[ServerProcess]) -> None:
    async with httpx.AsyncClient(base_url=servers[0].url) as http:
        response = await http.post(
            "/v2/games", json={"game": "day_night", "players": 2, "house": [{"seat": 1, "bot": "oracle"}]}
        )
    assert response.status_code == 422
    assert response.json()["code"] == "validation_failed"
    assert "'oracle'" in response.json()["detail"] and "house[0].bot" in response.json()["detail"]


async def test_two_clients_of_one_game_see_the_same_house_moves(servers: list[ServerProcess]) -> None:
    """Two players on two processes and the house in the third seat: both reach the end."""
    house: dict[int, HouseBot] = {2: "strong"}
    async with RestClient(servers[0].url) as lobby:
        created = await lobby.create_game("mishra_factory", 3, seats=("ada", "bob"), house=house)
        grants = sorted(created.grants, key=lambda grant: grant.seat)
        assert [grant.seat for grant in grants] == [0, 1]

        async def seat(url: str, token: str) -> int:
            async with await connect(url, token) as connection:
                await connection.join()
                await play(connection, FirstBot(), idle_timeout=IDLE)
                return connection.version

        ends = await asyncio.gather(
            seat(servers[0].url, grants[0].token), seat(servers[1].url, grants[1].token)
        )
        replay = await lobby.replay(created.game_id)
    assert ends[0] == ends[1] == replay.log[-1].version
    assert_house_played(replay, house)


def workers_of(server: ServerProcess) -> set[int]:
    """The process ids of a server process's house workers (its spawned children)."""
    pid = server.process.pid
    children: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(FileNotFoundError):
            children.update(int(child) for child in (task / "children").read_text().split())
    return {child for child in children if b"house_workers" in command_line(child)}


def command_line(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except FileNotFoundError:
        return b""


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}").exists() and "zombie" not in Path(f"/proc/{pid}/status").read_text()


async def wait_for(check: Callable[[], bool], seconds: float = 20.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        await asyncio.sleep(0.1)
    return check()


async def test_house_workers_start_with_the_server_and_a_dead_one_is_replaced(
    redis_server: EmbeddedRedis, tmp_path: Path
) -> None:
    """Two workers start with the server; one killed mid-game is replaced (the other goes on), the
    game goes on with the house's own actions (the decisions are made again), and stopping the
    server stops them."""
    server = start_server(redis_server.url, tmp_path, PACKPLAY_HOUSE_PROCESSES="2")
    house: dict[int, HouseBot] = {1: "hard"}
    try:
        assert await wait_for(lambda: len(workers_of(server)) == 2)
        first = workers_of(server)
        async with RestClient(server.url) as lobby:
            created = await lobby.create_game("base_race", 2, seats=("ada",), house=house)
            playing = asyncio.create_task(play_alone(server.url, created.grants[0].token))
            await asyncio.sleep(0.5)
            killed = min(first)
            os.kill(killed, signal.SIGKILL)
            await asyncio.wait_for(playing, 120)
            replay = await lobby.replay(created.game_id)
        assert await wait_for(lambda: len(workers_of(server)) == 2 and killed not in workers_of(server))
        replaced = workers_of(server)
        assert first - {killed} < replaced, "the other worker kept working"
    finally:
        server.stop()
    assert_house_played(replay, house)
    assert not any(a.action_id and a.action_id.endswith("-first") for a in replay.log), "no fallback action"
    log = server.log.read_text()
    assert "a house worker process died" in log
    assert "kept dying" not in log
    assert await wait_for(lambda: not any(alive(pid) for pid in first | replaced), 10)


async def test_house_workers_exit_when_their_server_is_killed(
    redis_server: EmbeddedRedis, tmp_path: Path
) -> None:
    server = start_server(redis_server.url, tmp_path, PACKPLAY_HOUSE_PROCESSES="2")
    assert await wait_for(lambda: len(workers_of(server)) == 2)
    workers = workers_of(server)
    server.kill()
    assert await wait_for(lambda: not any(alive(pid) for pid in workers), 10)
