"""Game options beyond the defaults: turn clocks and sandbox card lists."""

from __future__ import annotations

import asyncio
import time

import httpx
import msgspec
import pytest
from server_leaks import catalog
from server_lobby import fetch_replay, open_game
from support_servers import ServerProcess

from packplay.server.service import Service, ServiceError
from packplay.server.settings import Settings
from packplay.server.store import Store
from packplay_protocol.errors import ErrorCode
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
    service = Service(Store.from_url(redis_url), Settings(sandbox=False))
    with pytest.raises(ServiceError) as refused:
        await service.create(create_game("mishra_factory", 2, seed=1))
    assert refused.value.code is ErrorCode.SANDBOX_DISABLED
    await service.store.close()
