"""Tournaments followed over the WebSocket, with two server processes: one only carries
the event forward (pairs, seats, records), the other only serves the followers and the
games. What a follower hears crosses from one to the other through Redis."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
from server_client import Client
from support_servers import ServerProcess, start_server

from packplay.server.storage.embedded import EmbeddedRedis
from packplay_clients import RandomBot, RestClient, Servers, TournamentFeed, play_tournament
from packplay_clients.errors import ServerError
from packplay_protocol.errors import ErrorCode
from packplay_protocol.from_client import Follow, Join, Ping
from packplay_protocol.to_client import (
    Error,
    Pong,
    TournamentRound,
    TournamentStandings,
    TournamentTable,
    ViewMessage,
)
from packplay_protocol.tournaments import CreatedTournament, Registration

WAIT = 30.0


@pytest.fixture(scope="module")
def pair(
    redis_server: EmbeddedRedis, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[list[ServerProcess]]:
    """[the server that follows, the one that runs tournaments]: the first never carries an
    event forward by itself (its runner's first tick is an hour away)."""
    log_dir = tmp_path_factory.mktemp("feed")
    envs = [
        {"PACKPLAY_TOURNAMENT_INTERVAL": "3600", "PACKPLAY_CLOCK_INTERVAL": "0.2"},
        {"PACKPLAY_TOURNAMENT_INTERVAL": "0.1", "PACKPLAY_CLOCK_INTERVAL": "0.2"},
    ]
    with ThreadPoolExecutor(2) as pool:
        started = list(pool.map(lambda env: start_server(redis_server.url, log_dir, **env), envs))
    yield started
    for server in started:
        server.stop()


@pytest.fixture
async def runner(pair: list[ServerProcess]) -> AsyncIterator[RestClient]:
    """REST on the process that runs tournaments: the start, and so round 1, happen there."""
    async with RestClient(pair[1].url) as rest:
        yield rest


async def _event(
    rest: RestClient, players: int, **options: object
) -> tuple[CreatedTournament, list[Registration]]:
    created = await rest.create_tournament("Feed", "day_night", turn_seconds=5.0, **options)  # type: ignore[arg-type]
    tournament_id = created.tournament.tournament_id
    return created, [await rest.register(tournament_id, f"p{i}") for i in range(players)]


async def test_a_player_is_told_its_table_paired_by_the_other_process(
    pair: list[ServerProcess], runner: RestClient
) -> None:
    follower_url = pair[0].url
    created, entries = await _event(runner, 3)
    tournament_id = created.tournament.tournament_id
    feeds = [TournamentFeed(follower_url, tournament_id, e.secret) for e in entries]
    watcher = TournamentFeed(follower_url, tournament_id)
    try:
        for feed in (*feeds, watcher):
            await feed.open()
        # Catch-up on follow: the state before the start.
        assert [f.table.status if f.table else None for f in feeds] == ["registered"] * 3
        assert watcher.standings is not None and len(watcher.standings.lines) == 3
        assert watcher.round is None and watcher.table is None

        await runner.start_tournament(tournament_id, created.organizer_token)
        for feed in feeds:
            assert await feed.wait_until(
                lambda f=feed: f.table is not None and f.table.status in ("playing", "bye"), WAIT
            )  # type: ignore[misc]
        assert await watcher.wait_until(
            lambda: watcher.round is not None and all(t.game_id for t in watcher.round.tables), WAIT
        )

        paired = await runner.pairings(tournament_id, 1)
        assert watcher.round is not None
        assert (
            watcher.round.round == 1
            and watcher.round.tables == paired.tables
            and watcher.round.byes == paired.byes
        )
        by_player = {e.player_id: f for e, f in zip(entries, feeds, strict=True)}
        (bye,) = paired.byes
        assert by_player[bye.player_id].table is not None and by_player[bye.player_id].table.status == "bye"  # type: ignore[union-attr]
        (table,) = paired.tables
        for seat in table.seats:
            told = by_player[seat.player_id].table
            assert told is not None and told.status == "playing"
            assert (told.game_id, told.seat, told.table) == (table.game_id, seat.seat, 1)
            # The token told is the seat's own: it joins the game as that seat.
            client = Client(follower_url)
            welcome = await client.connect(told.token)
            assert (welcome.game_id, welcome.seat) == (table.game_id, seat.seat)
            await client.close()
        # The same as the REST answer, field for field.
        mine = await runner.my_table(tournament_id, entries[0].secret)
        assert feeds[0].table is not None and mine.game_id == feeds[0].table.game_id
    finally:
        for feed in (*feeds, watcher):
            await feed.aclose()
        await runner.finish_tournament(tournament_id, created.organizer_token)


async def test_bots_play_a_whole_event_from_the_feed_alone(
    pair: list[ServerProcess], runner: RestClient
) -> None:
    """Players and their games on one process, every step of the event on the other: no
    player asks the REST API for its table, and a watcher sees every round and the final standings."""
    created, entries = await _event(runner, 5, rounds=3)
    tournament_id = created.tournament.tournament_id
    follower_url = pair[0].url
    rounds: list[TournamentRound] = []
    standings: list[TournamentStandings] = []
    watcher = TournamentFeed(follower_url, tournament_id)
    await watcher.open()
    watcher.listen(
        lambda m: (
            rounds.append(m)
            if isinstance(m, TournamentRound)
            else standings.append(m)
            if isinstance(m, TournamentStandings)
            else None
        )
    )
    pools = [Servers(follower_url) for _ in entries]
    try:
        await runner.start_tournament(tournament_id, created.organizer_token)
        async with asyncio.timeout(120):
            played = await asyncio.gather(
                *(
                    play_tournament(pool, tournament_id, entry.secret, RandomBot(i))
                    for i, (pool, entry) in enumerate(zip(pools, entries, strict=True))
                )
            )
        assert await watcher.wait_until(
            lambda: watcher.standings is not None and watcher.standings.final, WAIT
        )
    finally:
        await watcher.aclose()
        for pool in pools:
            await pool.aclose()
    # 5 players, 3 rounds: two tables and a bye each round, so 2 games each but for one bye.
    assert sorted(len(games) for games in played) == [2, 2, 2, 3, 3]
    assert [pool.calls for pool in pools] == [0] * len(entries)
    # Every round as the REST API has it at the end, last message of each round complete.
    last = {r.round: r for r in rounds}
    assert sorted(last) == [1, 2, 3]
    for number, heard in last.items():
        paired = await runner.pairings(tournament_id, number)
        assert heard.complete and heard.tables == paired.tables and heard.byes == paired.byes
    # Rounds never go back: each message is of the round of the one before or a later one.
    assert [r.round for r in rounds] == sorted(r.round for r in rounds)
    final = await runner.standings(tournament_id)
    assert standings[-1].final and standings[-1].lines == final.lines
    assert sum(1 for s in standings if s.final) == 1


async def test_a_new_hello_stops_following_the_tournament(
    pair: list[ServerProcess], runner: RestClient
) -> None:
    created, entries = await _event(runner, 2)
    tournament_id = created.tournament.tournament_id
    client = Client(pair[0].url)
    await client.connect()
    await client.send(Follow(tournament_id=tournament_id, secret=entries[0].secret))
    assert isinstance(await client.recv(), TournamentTable)
    await client.hello_again()
    client.received.clear()
    await runner.start_tournament(tournament_id, created.organizer_token)
    # The same connection spectates a game now; the start's tables and standings, which
    # a follower hears within a second or so, never reach it.
    game = await runner.create_game("day_night", 2, seats=("a", "b"))
    view = await client.join(game.game_id, role="spectator")
    assert view.game_id == game.game_id
    await asyncio.sleep(2.0)
    await client.send(Ping(nonce="after"))
    await client.until(lambda m: isinstance(m, Pong))
    tournament = TournamentTable | TournamentRound | TournamentStandings
    assert [m for m in client.received if isinstance(m, tournament)] == []
    follower = TournamentFeed(pair[0].url, tournament_id, entries[0].secret)
    await follower.open()
    assert follower.table is not None and follower.table.status == "playing", "the start did happen"
    await follower.aclose()
    await client.close()


async def test_follow_refusals_and_order(pair: list[ServerProcess], runner: RestClient) -> None:
    url = pair[0].url
    created, entries = await _event(runner, 2)
    tournament_id = created.tournament.tournament_id
    # Refusals leave the connection ready to follow again.
    client = Client(url)
    await client.connect()
    await client.send(Follow(tournament_id="nope"))
    refused = await client.recv()
    assert isinstance(refused, Error) and refused.code is ErrorCode.NOT_FOUND and not refused.fatal
    await client.send(
        Follow(tournament_id=tournament_id, secret=f"{tournament_id}.{entries[0].player_id}.forged")
    )
    refused = await client.recv()
    assert isinstance(refused, Error) and refused.code is ErrorCode.UNAUTHORIZED
    await client.send(Follow(tournament_id=tournament_id, secret=created.organizer_token))
    refused = await client.recv()
    assert isinstance(refused, Error) and refused.code is ErrorCode.UNAUTHORIZED
    await client.send(Follow(tournament_id=tournament_id, secret=entries[1].secret, watch=True))
    heard = [await client.recv() for _ in range(2)]
    assert isinstance(heard[0], TournamentTable) and heard[0].player_id == entries[1].player_id
    assert heard[0].status == "registered" and heard[0].token is None
    assert isinstance(heard[1], TournamentStandings) and heard[1].round == 0
    # Following, the connection neither joins a game nor follows again.
    await client.send(Join(game_id="g1234567", role="spectator"))
    refused = await client.recv()
    assert isinstance(refused, Error) and refused.code is ErrorCode.OUT_OF_ORDER
    await client.send(Follow(tournament_id=tournament_id))
    refused = await client.recv()
    assert isinstance(refused, Error) and refused.code is ErrorCode.OUT_OF_ORDER
    await client.close()

    # Nor does a connection that joined a game follow a tournament.
    game = await runner.create_game("day_night", 2, seats=("a", "b"))
    spectator = Client(url)
    await spectator.connect()
    view = await spectator.join(game.game_id, role="spectator")
    assert isinstance(view, ViewMessage)
    await spectator.send(Follow(tournament_id=tournament_id))
    refused = await spectator.until(lambda m: isinstance(m, Error))
    assert isinstance(refused, Error) and refused.code is ErrorCode.OUT_OF_ORDER
    await spectator.close()

    # The SDK's feed says why it was refused.
    feed = TournamentFeed(url, tournament_id, "x" * 40)
    with pytest.raises(ServerError) as raised:
        await feed.open()
    assert raised.value.code is ErrorCode.UNAUTHORIZED
    await feed.aclose()
