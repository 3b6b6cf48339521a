"""Tournaments over REST on two real server processes: configuration, registration, start, drops,
late entrants, each player's table, pairings and standings, whole events played by SDK bots."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from itertools import combinations

import pytest
from support_servers import ServerProcess

from packplay_clients import ApiError, RandomBot, RestClient, Servers, play_tournament
from packplay_protocol.errors import ErrorCode
from packplay_protocol.tournaments import CreatedTournament, Pairings, Registration

WAIT = 30.0


@pytest.fixture
async def rest(servers: list[ServerProcess]) -> AsyncIterator[RestClient]:
    async with RestClient(servers[0].url) as client:
        yield client


@pytest.fixture
def urls(servers: list[ServerProcess]) -> list[str]:
    return [server.url for server in servers]


async def _refused(call: object, code: ErrorCode) -> ApiError:
    with pytest.raises(ApiError) as caught:
        await call  # type: ignore[misc]
    assert caught.value.code is code, caught.value
    return caught.value


async def _event(
    rest: RestClient, players: int, game: str = "day_night", **options: object
) -> tuple[CreatedTournament, list[Registration]]:
    created = await rest.create_tournament("Friday", game, turn_seconds=5.0, **options)  # type: ignore[arg-type]
    tournament_id = created.tournament.tournament_id
    entries = [await rest.register(tournament_id, f"player {i}") for i in range(players)]
    return created, entries


async def _seated(rest: RestClient, tournament_id: str, number: int) -> Pairings:
    """The round once every table has its game."""
    async with asyncio.timeout(WAIT):
        while True:
            paired = await rest.pairings(tournament_id, number)
            if all(t.game_id for t in paired.tables):
                return paired
            await asyncio.sleep(0.05)


async def _play_all(
    urls: list[str], tournament_id: str, entries: list[Registration], used: list[set[int]] | None = None
) -> list[int]:
    """Every entry played by a random bot, half of them starting on each server; ``used``
    gets, per entry, the game connections it played on."""
    pools = [Servers(urls[i % 2 :] + urls[: i % 2]) for i in range(len(entries))]
    connections = used if used is not None else []
    connections[:] = [set() for _ in entries]
    try:
        async with asyncio.timeout(120):
            played = await asyncio.gather(
                *(
                    play_tournament(
                        pool,
                        tournament_id,
                        entry.secret,
                        RandomBot(i),
                        joined=lambda _, connection, i=i: connections[i].add(id(connection)),  # type: ignore[misc]
                    )
                    for i, (pool, entry) in enumerate(zip(pools, entries, strict=True))
                )
            )
    finally:
        for pool in pools:
            await pool.aclose()
    return [len(games) for games in played]


async def test_configurations_that_cannot_be_played_are_refused(rest: RestClient) -> None:
    await _refused(rest.create_tournament("x", "chess"), ErrorCode.BAD_CONFIG)
    await _refused(rest.create_tournament("x", "mishra_factory", players_per_table=5), ErrorCode.BAD_CONFIG)
    await _refused(rest.create_tournament("x", "day_night", players_per_table=3), ErrorCode.BAD_CONFIG)
    await _refused(
        rest.create_tournament("x", "wedding_planner", format="round_robin", players_per_table=4),
        ErrorCode.BAD_CONFIG,
    )
    await _refused(
        rest.create_tournament("x", "day_night", format="round_robin", late_registration=True),
        ErrorCode.BAD_CONFIG,
    )
    await _refused(rest.create_tournament("x", "day_night", sets=("zzz",)), ErrorCode.BAD_CONFIG)
    await _refused(rest.create_tournament("x", "day_night", players_per_table=7), ErrorCode.VALIDATION_FAILED)
    await _refused(rest.create_tournament("x", "day_night", turn_seconds=0), ErrorCode.VALIDATION_FAILED)


async def test_unknown_tournaments_rounds_and_secrets(rest: RestClient) -> None:
    await _refused(rest.tournament("nope"), ErrorCode.NOT_FOUND)
    await _refused(rest.tournament("not an id!"), ErrorCode.NOT_FOUND)
    created, (entry,) = await _event(rest, 1)
    tournament_id = created.tournament.tournament_id
    await _refused(rest.pairings(tournament_id, 1), ErrorCode.NOT_FOUND)
    await _refused(rest.pairings(tournament_id, 0), ErrorCode.NOT_FOUND)
    await _refused(rest.my_table(tournament_id, "x" * 20), ErrorCode.UNAUTHORIZED)
    await _refused(rest.my_table(tournament_id, created.organizer_token), ErrorCode.UNAUTHORIZED)
    forged = entry.secret[:-4] + "AAAA"
    await _refused(rest.my_table(tournament_id, forged), ErrorCode.UNAUTHORIZED)
    assert (await rest.my_table(tournament_id, entry.secret)).status == "registered"
    await _refused(rest.start_tournament(tournament_id, created.organizer_token), ErrorCode.OUT_OF_ORDER)


async def test_only_the_organizer_starts_and_finishes(rest: RestClient) -> None:
    created, entries = await _event(rest, 2)
    tournament_id = created.tournament.tournament_id
    await _refused(rest.start_tournament(tournament_id, entries[0].secret), ErrorCode.FORBIDDEN)
    await _refused(rest.start_tournament(tournament_id, "y" * 30), ErrorCode.UNAUTHORIZED)
    await _refused(rest.finish_tournament(tournament_id, entries[1].secret), ErrorCode.FORBIDDEN)
    other, _ = await _event(rest, 0)
    await _refused(rest.start_tournament(tournament_id, other.organizer_token), ErrorCode.UNAUTHORIZED)
    finished = await rest.finish_tournament(tournament_id, created.organizer_token)
    assert finished.summary.status == "finished" and finished.summary.round == 0
    await _refused(rest.register(tournament_id, "late"), ErrorCode.OUT_OF_ORDER)
    assert (await rest.my_table(tournament_id, entries[0].secret)).status == "finished"


async def test_a_swiss_event_with_a_bye_a_drop_and_an_early_finish(rest: RestClient, urls: list[str]) -> None:
    created, entries = await _event(rest, 5, rounds=3)
    tournament_id, organizer = created.tournament.tournament_id, created.organizer_token
    started = await rest.start_tournament(tournament_id, organizer)
    assert (started.summary.status, started.summary.round, started.summary.rounds) == ("running", 1, 3)
    await _refused(rest.start_tournament(tournament_id, organizer), ErrorCode.OUT_OF_ORDER)
    await _refused(rest.register(tournament_id, "late"), ErrorCode.OUT_OF_ORDER)

    paired = await _seated(rest, tournament_id, 1)
    assert len(paired.tables) == 2 and len(paired.byes) == 1
    by_id = {e.player_id: e for e in entries}
    for table in paired.tables:
        for seat in table.seats:
            mine = await rest.my_table(tournament_id, by_id[seat.player_id].secret)
            assert (mine.status, mine.round, mine.table, mine.game_id, mine.seat) == (
                "playing", 1, table.table, table.game_id, seat.seat,
            )  # fmt: skip
            assert mine.token is not None and mine.game_id is not None
            view = await rest.snapshot(mine.game_id, mine.token)
            assert view.state is not None and view.state.seat == seat.seat
    bye = by_id[paired.byes[0].player_id]
    assert (await rest.my_table(tournament_id, bye.secret)).status == "bye"

    seated = next(e for e in entries if e is not bye)
    await _refused(rest.drop(tournament_id, bye.player_id, seated.secret), ErrorCode.FORBIDDEN)
    await rest.drop(tournament_id, bye.player_id, bye.secret)
    await _refused(rest.drop(tournament_id, bye.player_id, organizer), ErrorCode.OUT_OF_ORDER)
    await _refused(rest.drop(tournament_id, "nobody", organizer), ErrorCode.NOT_FOUND)
    assert (await rest.my_table(tournament_id, bye.secret)).status == "dropped"
    standings = await rest.standings(tournament_id)
    line = next(x for x in standings.lines if x.player_id == bye.player_id)
    assert (line.match_points, line.byes, line.dropped) == (3, 1, True)

    finishing = await rest.finish_tournament(tournament_id, organizer)
    assert finishing.summary.rounds == 1 and finishing.summary.status == "running"
    played = await _play_all(urls, tournament_id, [e for e in entries if e is not bye])
    assert played == [1, 1, 1, 1]
    final = await rest.standings(tournament_id)
    assert final.final and final.complete_rounds == 1 and len(final.lines) == 5
    assert sum(x.wins + x.draws + x.losses for x in final.lines) == 4
    summary = (await rest.tournament(tournament_id)).summary
    assert (summary.status, summary.round, summary.players) == ("finished", 1, 4)
    assert [p.dropped for p in (await rest.tournament(tournament_id)).players].count(1) == 1


async def test_late_entrants_play_from_the_next_round(rest: RestClient, urls: list[str]) -> None:
    created, entries = await _event(rest, 2, rounds=2, late_registration=True)
    tournament_id = created.tournament.tournament_id
    await rest.start_tournament(tournament_id, created.organizer_token)
    late = await rest.register(tournament_id, "late")
    assert late.joins_round == 2
    assert (await rest.my_table(tournament_id, late.secret)).status == "waiting"
    assert await _play_all(urls, tournament_id, [*entries, late]) in ([2, 1, 1], [1, 2, 1], [1, 1, 1])
    second = await rest.pairings(tournament_id, 2)
    assert late.player_id in {s.player_id for t in second.tables for s in t.seats}
    assert len(second.byes) == 1
    await _refused(rest.register(tournament_id, "too late"), ErrorCode.OUT_OF_ORDER)
    lines = {x.player_id: x for x in (await rest.standings(tournament_id)).lines}
    assert lines[late.player_id].wins + lines[late.player_id].losses + lines[late.player_id].draws == 1


async def test_a_round_robin_meets_every_pair_once(rest: RestClient, urls: list[str]) -> None:
    created, entries = await _event(rest, 4, format="round_robin")
    tournament_id = created.tournament.tournament_id
    started = await rest.start_tournament(tournament_id, created.organizer_token)
    assert started.summary.rounds == 3
    used: list[set[int]] = []
    assert await _play_all(urls, tournament_id, entries, used) == [3, 3, 3, 3]
    assert [len(connections) for connections in used] == [1, 1, 1, 1], "one game connection for every round"
    met = [
        frozenset(s.player_id for s in table.seats)
        for number in (1, 2, 3)
        for table in (await rest.pairings(tournament_id, number)).tables
    ]
    assert sorted(map(sorted, met)) == sorted(
        sorted(p) for p in combinations([e.player_id for e in entries], 2)
    )
    assert (await rest.standings(tournament_id)).final


async def test_tables_of_four_and_three_for_wedding_planner(rest: RestClient, urls: list[str]) -> None:
    created, entries = await _event(rest, 7, "wedding_planner", players_per_table=4, rounds=1)
    tournament_id = created.tournament.tournament_id
    await rest.start_tournament(tournament_id, created.organizer_token)
    paired = await _seated(rest, tournament_id, 1)
    assert sorted(len(t.seats) for t in paired.tables) == [3, 4] and paired.byes == ()
    assert await _play_all(urls, tournament_id, entries) == [1] * 7
    done = await rest.pairings(tournament_id, 1)
    assert done.complete and all(t.result is not None for t in done.tables)
    for table in done.tables:
        assert table.result is not None
        replay = await rest.replay(table.game_id or "")
        winners = tuple(table.seats[s].player_id for s in replay.result.winners)
        assert table.result.winners == winners and table.result.scores == replay.result.scores


async def test_many_players_registering_at_once_on_two_processes_are_all_in(urls: list[str]) -> None:
    """Registrations do not race one another: none is refused as busy, and a start made while
    they arrive counts every one registered before it."""
    async with RestClient(urls[0]) as first, RestClient(urls[1]) as second:
        created = await first.create_tournament("Rush", "day_night", turn_seconds=5.0)
        tournament_id = created.tournament.tournament_id
        entries = await asyncio.gather(
            *(([first, second][i % 2]).register(tournament_id, f"rush {i}") for i in range(48))
        )
        assert len({e.player_id for e in entries}) == 48
        listed = await second.tournament(tournament_id)
        assert sorted(p.player_id for p in listed.players) == sorted(e.player_id for e in entries)
        late = asyncio.gather(
            *(first.register(tournament_id, f"late {i}") for i in range(8)), return_exceptions=True
        )
        started = await second.start_tournament(tournament_id, created.organizer_token)
        outcomes = await late
        ins = [o for o in outcomes if not isinstance(o, BaseException)]
        refused = [o for o in outcomes if isinstance(o, ApiError)]
        assert all(error.code is ErrorCode.OUT_OF_ORDER for error in refused)
        assert len(ins) + len(refused) == 8
        # Everyone who got in before the start is paired in round 1.
        paired = await second.pairings(tournament_id, 1)
        seated = {s.player_id for t in paired.tables for s in t.seats} | {b.player_id for b in paired.byes}
        assert seated == {e.player_id for e in entries} | {e.player_id for e in ins}  # type: ignore[union-attr]
        assert started.summary.players == 48 + len(ins)
        await first.finish_tournament(tournament_id, created.organizer_token)
