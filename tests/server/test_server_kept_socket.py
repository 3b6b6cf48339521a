"""A game on a kept socket, over real sockets: create, take_seat and rematch answered seated
with the view following (no REST call, no join), their refusals and limits, and a tournament
player playing its tables on the connection that follows the event."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator

import httpx
import pytest
from server_client import Bot, Client, new_action_id, pick
from support_servers import ServerProcess, start_server

from packplay.server.storage.embedded import EmbeddedRedis
from packplay_clients import RestClient
from packplay_protocol.errors import ErrorCode
from packplay_protocol.from_client import Act, Create, Follow, Ping, Rematch, TakeSeat
from packplay_protocol.rest import create_game
from packplay_protocol.to_client import Error, Pong, Rejected, Seated, TournamentTable

WAIT = 30.0


def _create(players: int = 2, **fields: object) -> Create:
    return Create(setup=create_game("day_night", players, **fields), name="ada")


async def _play_out(*clients: Client, seed: int = 1) -> None:
    """Play every seat to the end, each from what its connection holds."""
    await asyncio.gather(*(Bot(client, random.Random(seed + n)).play() for n, client in enumerate(clients)))


async def test_a_game_against_the_house_is_created_and_played_on_the_socket(
    servers: list[ServerProcess],
) -> None:
    client = Client(servers[0].url)
    await client.connect()
    try:
        seated = await client.sit(_create(house=({"seat": 1, "bot": "random"},)))
        assert isinstance(seated, Seated) and seated.started and seated.seat == 0
        view = await client.until_view()
        assert (view.game_id, view.seat, view.version) == (seated.game_id, 0, 0)
        await Bot(client, random.Random(3)).play()
        assert client.over is not None and client.over.game_id == seated.game_id
        assert not client.broken
        # The token granted is the seat's own: REST knows it.
        async with httpx.AsyncClient(base_url=servers[0].url) as http:
            answer = await http.get(
                f"/v2/games/{seated.game_id}", headers={"authorization": f"Bearer {seated.token}"}
            )
        assert answer.status_code == 200 and answer.json()["state"]["seat"] == 0
    finally:
        await client.close()


async def test_two_kept_sockets_create_take_play_and_rematch_without_rest(
    servers: list[ServerProcess],
) -> None:
    ada, bob = Client(servers[0].url), Client(servers[0].url)
    await ada.connect()
    await bob.connect()
    try:
        created = await ada.sit(_create())
        assert isinstance(created, Seated) and not created.started and created.seat == 0
        taken = await bob.sit(TakeSeat(game_id=created.game_id, name="bob"))
        assert isinstance(taken, Seated) and taken.started and taken.seat == 1
        views = [await ada.until_view(), await bob.until_view()]
        assert [(v.game_id, v.seat, v.version) for v in views] == [
            (created.game_id, 0, 0),
            (created.game_id, 1, 0),
        ]
        await _play_out(ada, bob)
        first = created.game_id

        # One rematch each: the same players in the same seats, a new game on the same sockets.
        again = [await ada.sit(Rematch()), await bob.sit(Rematch())]
        assert all(isinstance(s, Seated) for s in again)
        assert again[0].game_id == again[1].game_id != first  # type: ignore[union-attr]
        assert [s.seat for s in again] == [0, 1] and [s.started for s in again] == [False, True]  # type: ignore[union-attr]
        views = [await ada.until_view(), await bob.until_view()]
        assert {v.game_id for v in views} == {again[0].game_id} and [v.version for v in views] == [0, 0]  # type: ignore[union-attr]
        await _play_out(ada, bob, seed=7)
        assert not ada.broken and not bob.broken
        # The rematch is private to its players: not listed.
        async with httpx.AsyncClient(base_url=servers[0].url) as http:
            listed = (await http.get("/v2/games", params={"status": "over"})).json()["games"]
        assert again[0].game_id not in {g["game_id"] for g in listed}  # type: ignore[union-attr]
    finally:
        await ada.close()
        await bob.close()


async def test_nothing_of_the_game_left_reaches_the_next_one(servers: list[ServerProcess]) -> None:
    """A player leaves a game in play for a new one: its opponent's moves in the old game are
    not sent on the connection any more, and its actions act on the new game."""
    ada, bob = Client(servers[0].url), Client(servers[0].url)
    await ada.connect()
    await bob.connect()
    try:
        created = await ada.sit(_create())
        assert isinstance(created, Seated)
        assert isinstance(await bob.sit(TakeSeat(game_id=created.game_id, name="bob")), Seated)
        await ada.until_view()
        await bob.until_view()
        moved = await ada.sit(_create(house=({"seat": 1, "bot": "random"},)))
        assert isinstance(moved, Seated) and moved.started
        view = await ada.until_view()
        assert view.game_id == moved.game_id
        # Bob plays on in the old game; Ada hears only of her new one.
        bob_view = bob.view
        assert bob_view is not None
        if bob_view.seat in bob_view.pending:
            await Bot(bob, random.Random(2)).step()
        await ada.send(Ping(nonce="after"))
        seen = []
        while True:
            message = await ada.recv()
            if isinstance(message, Pong):
                break
            seen.append(message)
        assert all(getattr(m, "game_id", moved.game_id) == moved.game_id for m in seen)
        assert not ada.broken
    finally:
        await ada.close()
        await bob.close()


async def test_refusals_are_typed_and_harm_nothing(servers: list[ServerProcess]) -> None:
    client = Client(servers[0].url)
    other = Client(servers[0].url)
    await client.connect()
    await other.connect()
    try:
        # A rematch before any game, then before the game is over.
        refused = await client.sit(Rematch())
        assert isinstance(refused, Error) and refused.code is ErrorCode.OUT_OF_ORDER
        # Every seat named is REST's way: over the socket the sender takes one.
        named = await client.sit(_create(seats=("a", "b")))
        assert isinstance(named, Error) and named.code is ErrorCode.VALIDATION_FAILED
        house_seat = await client.sit(
            Create(setup=create_game("day_night", 2, house=({"seat": 1},)), name="ada", seat=1)
        )
        assert isinstance(house_seat, Error) and house_seat.code is ErrorCode.VALIDATION_FAILED
        sandboxed = await client.sit(_create(sets=("zzz",)))
        assert isinstance(sandboxed, Error) and sandboxed.code is ErrorCode.BAD_CONFIG
        missing = await client.sit(TakeSeat(game_id="nothere1", name="bob"))
        assert isinstance(missing, Error) and missing.code is ErrorCode.NOT_FOUND
        private = await client.sit(_create(private=True))
        assert isinstance(private, Seated) and private.invite is not None
        no_invite = await other.sit(TakeSeat(game_id=private.game_id, name="bob"))
        assert isinstance(no_invite, Error) and no_invite.code is ErrorCode.INVITE_REQUIRED
        taken = await other.sit(TakeSeat(game_id=private.game_id, name="bob", seat=0, invite=private.invite))
        assert isinstance(taken, Error) and taken.code is ErrorCode.SEAT_TAKEN
        seated = await other.sit(TakeSeat(game_id=private.game_id, name="bob", invite=private.invite))
        assert isinstance(seated, Seated) and seated.started
        views = [await client.until_view(), await other.until_view()]
        early = await client.sit(Rematch())
        assert isinstance(early, Error) and early.code is ErrorCode.GAME_NOT_OVER
        # The game goes on as before: an action still plays on these connections.
        holder = client if 0 in views[0].pending else other
        view = holder.view
        assert view is not None and view.seat in view.pending
        act = Act(action_id=new_action_id(), version=view.version, action=pick(view.legal, random.Random(1)))
        await holder.send(act)
        answer = await holder.until(lambda m: getattr(m, "action_id", None) == act.action_id)
        assert not isinstance(answer, Rejected | Error)
    finally:
        await client.close()
        await other.close()


@pytest.fixture(scope="module")
def limited(redis_server: EmbeddedRedis, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server that lets one address hold one game waiting for players, and make 3 games a minute."""
    env = {"PACKPLAY_OPEN_LOBBIES": "1", "PACKPLAY_GAMES_PER_MINUTE": "3", "PACKPLAY_GAMES_BURST": "3"}
    server = start_server(redis_server.url, tmp_path_factory.mktemp("limited"), **env)
    yield server
    server.stop()


async def test_the_limits_per_address_count_socket_and_rest_games_together(limited: ServerProcess) -> None:
    client = Client(limited.url)
    await client.connect()
    try:
        waiting = await client.sit(_create())
        assert isinstance(waiting, Seated) and not waiting.started
        lobbies = await client.sit(_create())
        assert isinstance(lobbies, Error) and lobbies.code is ErrorCode.TOO_MANY_LOBBIES
        async with httpx.AsyncClient(base_url=limited.url) as http:
            rest = await http.post("/v2/games", json={"game": "day_night", "players": 2})
        assert rest.status_code == 429 and rest.json()["code"] == "too_many_lobbies"
        # Games that start at once are not open, but count against the games a minute.
        house = _create(house=({"seat": 1, "bot": "random"},))
        answers = [await client.sit(house) for _ in range(3)]
        assert isinstance(answers[0], Seated)
        last = answers[-1]
        assert isinstance(last, Error) and last.code is ErrorCode.RATE_LIMITED
        # The connection is still fine.
        await client.send(Ping(nonce="still"))
        assert isinstance(await client.until(lambda m: isinstance(m, Pong)), Pong)
    finally:
        await client.close()


async def test_a_tournament_player_plays_its_tables_on_the_connection_that_follows(
    servers: list[ServerProcess],
) -> None:
    async with RestClient(servers[1].url) as rest:
        created = await rest.create_tournament("Kept", "day_night", rounds=2, turn_seconds=30.0)  # type: ignore[arg-type]
        tournament_id = created.tournament.tournament_id
        entries = [await rest.register(tournament_id, f"p{i}") for i in range(2)]
        clients = [Client(servers[0].url) for _ in entries]
        try:
            for client, entry in zip(clients, entries, strict=True):
                await client.connect()
                await client.send(Follow(tournament_id=tournament_id, secret=entry.secret))
            await rest.start_tournament(tournament_id, created.organizer_token)
            for round_ in (1, 2):
                views = [await c.until_view(WAIT) for c in clients]
                tables = [
                    m
                    for c in clients
                    for m in c.received
                    if isinstance(m, TournamentTable) and m.round == round_
                ]
                assert {v.game_id for v in views} == {t.game_id for t in tables if t.status == "playing"}
                assert len({v.game_id for v in views}) == 1 and sorted(v.seat for v in views) == [0, 1]
                await _play_out(*clients, seed=round_)
            assert all(not c.broken for c in clients)
            standings = await rest.standings(tournament_id)
            assert standings.complete_rounds >= 1
        finally:
            for client in clients:
                await client.close()
            await rest.finish_tournament(tournament_id, created.organizer_token)


async def test_a_seat_waiting_on_one_process_follows_a_game_another_process_started(
    servers: list[ServerProcess],
) -> None:
    """The start is told at once to the connections of the process that started the game, and
    within a moment to those of another process (it checks the game's version)."""
    ada, bob = Client(servers[0].url), Client(servers[1].url)
    await ada.connect()
    await bob.connect()
    try:
        created = await ada.sit(_create())
        assert isinstance(created, Seated) and not created.started
        taken = await bob.sit(TakeSeat(game_id=created.game_id, name="bob"))
        assert isinstance(taken, Seated) and taken.started
        await bob.until_view()
        view = await ada.until_view()
        assert (view.game_id, view.seat, view.version) == (created.game_id, 0, 0)
        await _play_out(ada, bob)
        assert not ada.broken and not bob.broken
    finally:
        await ada.close()
        await bob.close()
