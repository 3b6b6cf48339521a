"""The arena over a live server: games created with every seat taken, every seat played over
its own WebSocket by the SDK, with the same outcomes as in-process on the same deals."""

from __future__ import annotations

import asyncio

from bots_samples import Recorder
from support_servers import ServerProcess

from packplay.arena import arena
from packplay.bots.budget import Budget
from packplay.cards.catalog import load_catalog
from packplay_clients import RestClient, connect, play

BUDGET = Budget(samples=4)


def test_live_games_end_as_in_process_ones_on_the_same_deals(server: ServerProcess) -> None:
    bots = ["strong", "random"]
    live = arena("mishra_factory", bots, 2, 2, seed=77, budget=BUDGET, server=server.url)
    local = arena("mishra_factory", bots, 2, 2, seed=77, budget=BUDGET, catalog=load_catalog())
    assert live.games == local.games == 2
    for name in bots:
        mine, theirs = live.tallies[name], local.tallies[name]
        assert mine.seat_games == 2 and mine.decisions > 0
        assert (mine.wins, mine.draws, mine.score_total, mine.decisions) == (
            theirs.wins,
            theirs.draws,
            theirs.score_total,
            theirs.decisions,
        )


def test_a_live_arena_of_every_seat_kind(server: ServerProcess) -> None:
    standings = arena(
        "wedding_planner", ["strong", "bots_samples:Recorder"], 3, 3, seed=5, budget=BUDGET, server=server.url
    )
    assert standings.games == 3
    assert standings.tallies["strong"].seat_games == 3
    assert standings.tallies["bots_samples:Recorder"].seat_games == 6


async def test_play_passes_every_event_to_an_observing_bot(server: ServerProcess) -> None:
    async with RestClient(server.url) as lobby:
        created = await lobby.create_game("day_night", 2, seats=("ada", "bob"), seed=3)
    bots = [Recorder(), Recorder()]

    async def seat(token: str, bot: Recorder) -> tuple[int, int]:
        async with await connect(server.url, token) as connection:
            joined = await connection.join()
            await play(connection, bot, idle_timeout=30)
            return joined.version, connection.version

    grants = sorted(created.grants, key=lambda grant: grant.seat)
    ends = await asyncio.gather(*(seat(grant.token, bot) for grant, bot in zip(grants, bots, strict=True)))
    for bot, (joined, final) in zip(bots, ends, strict=True):
        versions = [version for version, _ in bot.observed]
        assert versions == list(range(joined + 1, final + 1))
        assert all(events for _, events in bot.observed)
        assert bot.views and all(view.seat in view.pending for view in bot.views)
