"""A whole tournament of SDK bots over real WebSockets on two server processes, one of them
killed (SIGKILL) in the middle of a game of round 2: the event finishes on the other process,
every game created once, every result the game's own."""

from __future__ import annotations

import asyncio
import signal
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import redis.asyncio as aioredis
from support_servers import ServerProcess, start_server

from packplay.server.storage import keys
from packplay.server.storage.embedded import EmbeddedRedis
from packplay_clients import RandomBot, RestClient, Servers, play_tournament
from packplay_protocol.to_client import ViewMessage
from packplay_protocol.tournaments import MyTable

PLAYERS, ROUNDS = 8, 3
QUICK = {"PACKPLAY_TOURNAMENT_INTERVAL": "0.2", "PACKPLAY_CLOCK_INTERVAL": "0.2"}


@dataclass
class Kill:
    """Kills ``doomed`` from inside a bot playing on it, once round 2 is seated."""

    doomed: ServerProcess
    armed: bool = False
    done: bool = False
    at: tuple[str, int] | None = None
    """The game and version the kill happened at."""
    tables: dict[int, MyTable] = field(default_factory=dict)


class KillingBot(RandomBot):
    def __init__(self, seed: int, kill: Kill, pool: Servers) -> None:
        super().__init__(seed)
        self.kill, self.pool = kill, pool
        self.table: MyTable | None = None

    def seated(self, table: MyTable) -> None:
        self.table = table

    def choose(self, view: ViewMessage) -> object:
        kill, table = self.kill, self.table
        on_doomed = self.pool.url == kill.doomed.url
        if kill.armed and not kill.done and on_doomed and table is not None and table.round >= 2:
            kill.doomed.process.send_signal(signal.SIGKILL)
            kill.done, kill.at = True, (view.game_id, view.version)
        return super().choose(view)


async def _arm(rest: RestClient, tournament_id: str, kill: Kill) -> None:
    """Arm the kill once every table of round 2 has its game (so no game is being created)."""
    while not kill.armed:
        try:
            paired = await rest.pairings(tournament_id, 2)
            kill.armed = all(t.game_id for t in paired.tables)
        except Exception:
            pass
        await asyncio.sleep(0.02)


async def test_a_tournament_finishes_after_a_server_process_is_killed_mid_round(tmp_path: Path) -> None:
    with EmbeddedRedis() as store, ThreadPoolExecutor(2) as pool:
        doomed, survivor = pool.map(lambda _: start_server(store.url, tmp_path, **QUICK), range(2))
        try:
            await _play_event(store.url, doomed, survivor)
        finally:
            for server in (doomed, survivor):
                server.stop()


async def _play_event(redis_url: str, doomed: ServerProcess, survivor: ServerProcess) -> None:
    kill = Kill(doomed)
    async with RestClient(survivor.url) as rest:
        created = await rest.create_tournament("Failover", "day_night", rounds=ROUNDS, turn_seconds=3.0)
        tournament_id = created.tournament.tournament_id
        entries = [await rest.register(tournament_id, f"bot {i}") for i in range(PLAYERS)]
        await rest.start_tournament(tournament_id, created.organizer_token)
        homes = ([survivor.url, doomed.url], [doomed.url, survivor.url])
        pools = [Servers(homes[i % 2]) for i in range(PLAYERS)]
        bots = [KillingBot(i, kill, pools[i]) for i in range(PLAYERS)]
        arming = asyncio.create_task(_arm(rest, tournament_id, kill))
        try:
            async with asyncio.timeout(180):
                played = await asyncio.gather(
                    *(
                        play_tournament(pool, tournament_id, entry.secret, bot, seated=bot.seated)
                        for pool, entry, bot in zip(pools, entries, bots, strict=True)
                    )
                )
        finally:
            arming.cancel()
            for each in pools:
                await each.aclose()

        assert kill.done and kill.at is not None, "the kill never happened"
        assert doomed.process.wait(timeout=10) == -signal.SIGKILL
        assert any(each.moves for each in pools[1::2]), "no bot moved to the surviving process"
        assert [len(games) for games in played] == [ROUNDS] * PLAYERS

        summary = (await rest.tournament(tournament_id)).summary
        assert (summary.status, summary.round) == ("finished", ROUNDS)
        rounds = [await rest.pairings(tournament_id, n) for n in range(1, ROUNDS + 1)]
        assert all(r.complete and len(r.tables) == PLAYERS // 2 and not r.byes for r in rounds)
        meetings = [frozenset(s.player_id for s in t.seats) for r in rounds for t in r.tables]
        assert len(set(meetings)) == len(meetings), "a rematch"
        assert {p for m in meetings for p in m} == {e.player_id for e in entries}

        game_ids = [t.game_id for r in rounds for t in r.tables]
        for paired in rounds:
            for table in paired.tables:
                assert table.game_id is not None and table.result is not None
                replay = await rest.replay(table.game_id)
                assert table.result.winners == tuple(table.seats[s].player_id for s in replay.result.winners)
        killed_game, killed_version = kill.at
        assert killed_game in game_ids
        assert len((await rest.replay(killed_game)).log) > killed_version

        standings = await rest.standings(tournament_id)
        assert standings.final and standings.complete_rounds == ROUNDS
        assert sum(x.wins + x.draws + x.losses for x in standings.lines) == PLAYERS * ROUNDS
        assert all(x.wins + x.draws + x.losses == ROUNDS for x in standings.lines)

    client = aioredis.Redis.from_url(redis_url)
    try:
        started = [g for shard in range(keys.SHARDS) for g in await client.zrange(keys.games(shard), 0, -1)]
        assert len(started) == len(game_ids), "a table's game was created twice"
        assert set(started) == {g.encode() for g in game_ids if g}
    finally:
        await client.aclose()
