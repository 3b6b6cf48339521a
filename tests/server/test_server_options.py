"""Game options beyond the defaults: turn clocks and sandbox card lists."""

from __future__ import annotations

import asyncio
import random
import time

import httpx
import msgspec
import pytest
from server_client import Client, answered, new_action_id, pick
from server_leaks import catalog
from server_lobby import fetch_replay, open_game
from support_servers import ServerProcess

from packplay.server.play.authority import Authority
from packplay.server.play.errors import Refused
from packplay.server.settings import Settings
from packplay.server.storage.games import GameStore
from packplay_protocol.errors import ErrorCode
from packplay_protocol.from_client import Act
from packplay_protocol.rest import CardRef, GameSnapshot, create_game


async def _wait_over(base: str, game_id: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    async with httpx.AsyncClient(base_url=base) as http:
        while time.monotonic() < deadline:
            snapshot = msgspec.json.decode(
                (await http.get(f"/v2/games/{game_id}")).content, type=GameSnapshot
            )
            if snapshot.summary.status == "over":
                return
            await asyncio.sleep(0.2)
    raise AssertionError("the game did not end by timeouts")


async def test_seats_whose_clock_runs_out_get_their_default_action_once(servers: list[ServerProcess]) -> None:
    game_id, _ = await open_game(servers[0].url, "day_night", 2, turn_seconds=0.05)
    await _wait_over(servers[1].url, game_id, timeout=30)
    replay = await fetch_replay(servers[0].url, game_id)
    assert replay.log and all(entry.timed_out for entry in replay.log)
    assert [entry.version for entry in replay.log] == list(range(1, len(replay.log) + 1))
    assert {entry.action_id for entry in replay.log} == {
        entry.action_id for entry in replay.log if entry.action_id
    }
    assert len({entry.action_id for entry in replay.log}) == len(replay.log)


async def test_views_say_when_each_pending_seats_clock_runs_out(servers: list[ServerProcess]) -> None:
    opened = time.time()
    game_id, tokens = await open_game(servers[0].url, "day_night", 2, turn_seconds=600)
    started = time.time()
    seats = [Client(servers[index].url) for index in range(2)]
    try:
        for seat, token in zip(seats, tokens, strict=True):
            await seat.connect(token)
            view = await seat.join(game_id)
            assert view.pending == (0, 1) and view.deadlines is not None and len(view.deadlines) == 2
            for deadline in view.deadlines:  # both clocks started with the game
                assert deadline is not None and opened + 600 - 0.01 <= deadline <= started + 600 + 0.01
        first = seats[0].view
        assert first is not None and first.deadlines is not None
        act = Act(action_id=new_action_id(), version=0, action=pick(first.legal, random.Random(3)))
        await seats[0].send(act)
        await seats[0].until(answered(act.action_id))
        await seats[1].until(lambda _: seats[1].version == 1)
        # Seat 0 placed and waits; seat 1 still faces the choice it had: its clock goes on.
        for seat in seats:
            assert seat.document is not None and seat.document["deadlines"] == [None, first.deadlines[1]]
        spectator = Client(servers[1].url)
        await spectator.connect()
        whole = await spectator.join(game_id, role="spectator")
        assert whole.version == 1 and whole.deadlines == (None, first.deadlines[1]), "patches and views agree"
        await spectator.close()
    finally:
        for seat in seats:
            await seat.close()

    untimed, _ = await open_game(servers[0].url, "day_night", 2)
    watcher = Client(servers[0].url)
    await watcher.connect()
    assert (await watcher.join(untimed, role="spectator")).deadlines is None
    await watcher.close()


def _mh2_refs(count: int, offset: int) -> tuple[CardRef, ...]:
    cards = [card for card in catalog().set("MH2").cards if not card.basic_land]
    return tuple(CardRef(set="MH2", number=card.number) for card in cards[offset : offset + count])


async def test_a_sandbox_game_deals_exactly_the_given_cards(servers: list[ServerProcess]) -> None:
    boosters = [_mh2_refs(6, 0), _mh2_refs(6, 6)]
    names = {catalog().card("MH2", ref.number).name for booster in boosters for ref in booster}
    body = {"seed": 42, "boosters": msgspec.to_builtins(boosters)}
    views = []
    for _ in range(2):
        game_id, tokens = await open_game(servers[0].url, "mishra_factory", 2, **body)
        async with httpx.AsyncClient(base_url=servers[0].url) as http:
            response = await http.get(
                f"/v2/games/{game_id}", headers={"Authorization": f"Bearer {tokens[0]}"}
            )
        snapshot = msgspec.json.decode(response.content, type=GameSnapshot)
        assert snapshot.summary.sandbox and snapshot.state is not None
        views.append(snapshot.state)
    belt = {views[0].cards[card_id].name for card_id in views[0].view.belt}
    assert len(belt) == 4 and belt <= names
    assert views[0].view == views[1].view, "same seed and cards, same game"
    assert [card.name for card in views[0].cards.values()] == [card.name for card in views[1].cards.values()]


async def test_sandbox_options_need_a_sandbox_server(redis_url: str) -> None:
    authority = Authority(GameStore.from_url(redis_url), Settings(sandbox=False))
    with pytest.raises(Refused) as refused:
        await authority.lobby.create(create_game("mishra_factory", 2, seed=1))
    assert refused.value.code is ErrorCode.SANDBOX_DISABLED
    await authority.store.close()
