"""Resuming: after a dropped connection, after a killed process, and on request."""

from __future__ import annotations

import asyncio
import random

import httpx
import msgspec
from server_client import Bot, Client
from server_leaks import leaks, replay_states
from server_lobby import fetch_replay, open_game, replayed_result
from support_servers import ServerProcess

from packplay_protocol.rest import GameSnapshot
from packplay_protocol.to_client import Events, ViewMessage


async def reconnect(old: Client, base: str, token: str, game_id: str) -> Client:
    """A new connection that resumes from the last version the old one saw."""
    new = Client(base, old.encoding)
    new.version, new.received, new.broken = old.version, old.received, old.broken
    await new.connect(token)
    await new.join(game_id, since=old.version)
    return new


async def test_a_dropped_connection_resumes_with_nothing_lost_or_repeated(
    servers: list[ServerProcess],
) -> None:
    game_id, tokens = await open_game(servers[0].url, "mishra_factory", 3)
    seats = [Client(servers[i % 2].url) for i in range(3)]
    for client, token in zip(seats, tokens, strict=True):
        await client.connect(token)
        await client.join(game_id)
    bots = [Bot(client, random.Random(i)) for i, client in enumerate(seats)]
    others = [asyncio.create_task(bot.play()) for bot in bots[1:]]

    await bots[0].play(stop_after=3)
    while seats[0].view is not None and seats[0].view.pending[:1] == (0,):
        await bots[0].step()
    assert seats[0].over is None and seats[0].ws is not None
    seats[0].ws.transport.abort()
    seen = seats[0].version
    await _wait_for_version(servers[0].url, game_id, seen + 1)
    seats[0] = await reconnect(seats[0], servers[1].url, tokens[0], game_id)
    resumed = [m for m in seats[0].received if isinstance(m, Events) and m.from_version == seen]
    await Bot(seats[0], random.Random(9)).play()
    await asyncio.gather(*others)

    replay = await fetch_replay(servers[0].url, game_id)
    assert seats[0].broken == [] and seats[0].version == len(replay.log)
    assert resumed, "the resumed connection started with the events after the last version seen"
    assert leaks("mishra_factory", replay_states(replay), 0, seats[0].received) == []
    for client in seats:
        await client.close()


async def _wait_for_version(base: str, game_id: str, version: int) -> None:
    """Until the game moved on without the dropped seat."""
    async with httpx.AsyncClient(base_url=base) as http:
        for _ in range(100):
            response = await http.get(f"/v2/games/{game_id}")
            if msgspec.json.decode(response.content, type=GameSnapshot).summary.version >= version:
                return
            await asyncio.sleep(0.05)
    raise AssertionError("the game did not move on")


async def test_clients_of_a_killed_process_finish_on_the_other(
    servers: list[ServerProcess], spare_server: ServerProcess
) -> None:
    game_id, tokens = await open_game(servers[0].url, "mishra_factory", 2)
    homes = [spare_server, servers[0]]
    seats = [Client(home.url) for home in homes]
    for client, token in zip(seats, tokens, strict=True):
        await client.connect(token)
        await client.join(game_id)
    survivor = asyncio.create_task(Bot(seats[1], random.Random(1)).play())
    await Bot(seats[0], random.Random(0)).play(stop_after=6)

    assert seats[0].over is None, "the process dies mid-game"
    spare_server.kill()
    seats[0] = await reconnect(seats[0], servers[0].url, tokens[0], game_id)
    await Bot(seats[0], random.Random(2)).play()
    await survivor

    replay = await fetch_replay(servers[1].url, game_id)
    assert [entry.version for entry in replay.log] == list(range(1, len(replay.log) + 1))
    assert replay.result == replayed_result(replay)
    for client in seats:
        assert client.over is not None and client.over.result == replay.result
        assert client.broken == []
        await client.close()


async def test_resume_on_a_live_connection_sends_the_events_again_then_the_view(
    servers: list[ServerProcess],
) -> None:
    game_id, tokens = await open_game(servers[0].url, "wedding_planner", 2)
    seats = [Client(servers[i].url) for i in range(2)]
    for client, token in zip(seats, tokens, strict=True):
        await client.connect(token)
        await client.join(game_id)
    bots = [Bot(client, random.Random(i)) for i, client in enumerate(seats)]
    await asyncio.gather(*(bot.play(stop_after=3) for bot in bots))

    watcher = Client(servers[1].url)
    await watcher.connect()
    await watcher.join(game_id, role="spectator")
    watcher.version = 0
    await watcher.resume(0)
    events = await watcher.until(lambda m: isinstance(m, Events))
    view = await watcher.until_view()
    assert isinstance(events, Events) and isinstance(view, ViewMessage)
    assert (events.from_version, events.to_version) == (0, view.version)
    assert watcher.broken == []
    for client in [*seats, watcher]:
        await client.close()
