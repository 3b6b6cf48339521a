"""What a house decision is made from: the frames its seat was sent, nothing else and
nothing hidden from the seat.

An authority over the test session's Redis plays games with house seats (the other seats
played by the test through the same authority). Each house decision's inputs are
checked before the bot runs: they are bytes only (the frames a MessagePack client of
the seat received, and its view message), they decode as the protocol's messages for
that seat, and no card whose facts the engine hides from the seat at that version is
in them; the seed of the deal is not in the view. Last, the claim that lets one process
of several take over an overdue house decision.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

import msgspec
import pytest
from reachable import assert_no_hidden_facts

from packplay.server.play import house, house_decisions
from packplay.server.play.authority import Authority
from packplay.server.settings import Settings
from packplay.server.storage import keys
from packplay.server.storage.games import GameStore
from packplay.table import decisions
from packplay.table.rendering import whole_view
from packplay_protocol import codec
from packplay_protocol.from_client import Act
from packplay_protocol.rest import CreateGame
from packplay_protocol.to_client import Events, Update, ViewMessage

CASES = [
    ("day_night", 2, (1,)),
    ("mishra_factory", 3, (0, 2)),
    ("wedding_planner", 2, (0,)),
    ("base_race", 2, (1,)),
]


class Checker:
    """Wraps :func:`house_decisions.decide`: checks each decision's inputs against the game as it
    is, and the view the worker rebuilt from them against the seat's whole view."""

    def __init__(self, authority: Authority) -> None:
        self.authority = authority
        self.decide = house_decisions.decide
        self.decisions = 0
        self.frames = 0

    def __call__(self, inputs: house_decisions.Inputs) -> Any:
        game = self.authority.games.get(inputs.game_id)
        copy = game.copy
        assert copy is not None and copy.version == inputs.version  # the game waits for the house
        seat = inputs.seat
        hidden = copy.engine.hidden_from(copy.state, seat)
        assert isinstance(inputs.view, bytes) and all(isinstance(frame, bytes) for frame in inputs.frames)
        messages: list[Any] = []
        if inputs.start == 0:
            view = codec.decode_server(inputs.view, house_decisions.WIRE, max_bytes=house_decisions.MAX_FRAME)
            assert isinstance(view, ViewMessage)
            assert view.seat == seat and view.version <= inputs.version
            assert view.seed is None, "the deal's seed is in the view"
            assert not hidden & set(view.cards), "a hidden card is in the view's card table"
            messages.append(view)
        else:
            assert inputs.view == b"", "the view is sent with the first frames only"
        for frame in inputs.frames:
            message = codec.decode_server(frame, house_decisions.WIRE, max_bytes=house_decisions.MAX_FRAME)
            assert isinstance(message, Update | Events), message
            messages.append(message)
        assert_no_hidden_facts(messages, hidden)
        action = self.decide(inputs)
        if action != house_decisions.RESEND:
            rebuilt = house_decisions._records[(inputs.game_id, seat)].document
            whole = codec.encode_plain(whole_view(game.doc(seat), copy.version), house_decisions.WIRE)
            assert rebuilt == msgspec.msgpack.decode(whole), "the view rebuilt from the frames"
            self.decisions += 1
            self.frames += len(inputs.frames)
        return action


class InProcess:
    """The house's workers replaced by direct calls, for the checker above to see the game (the
    worker processes have tests of their own)."""

    async def run(self, work: Callable[..., Any], *args: Any, slot: int | None = None) -> Any:
        return work(*args)

    async def close(self) -> None:
        pass


@pytest.mark.parametrize(("game", "players", "seats"), CASES)
async def test_the_house_decides_from_nothing_its_seat_may_not_see(
    redis_url: str, monkeypatch: pytest.MonkeyPatch, game: str, players: int, seats: tuple[int, ...]
) -> None:
    store = GameStore.from_url(redis_url, process_id="one")
    authority = Authority(store, Settings(sandbox=True))
    checker = Checker(authority)
    monkeypatch.setattr(house, "decide", checker)
    authority.house.workers = InProcess()  # type: ignore[assignment]
    try:
        bots = [{"seat": seat, "bot": "strong"} for seat in seats]
        names = [f"p{seat}" for seat in range(players) if seat not in seats]
        body = {"game": game, "players": players, "seats": names, "house": bots, "seed": 41}
        created = await authority.lobby.create(msgspec.convert(body, CreateGame))
        game = authority.games.get(created.game_id)
        played = 0
        for _ in range(20_000):
            copy = game.copy
            assert copy is not None
            if copy.status == "finished":
                break
            waiting = [seat for seat in copy.pending if seat not in seats]
            if waiting and not any(seat in copy.pending for seat in seats):
                seat = waiting[0]
                first = decisions.default_action(copy.legal[seat])
                action = msgspec.convert(first, copy.engine.action_type)
                act = Act(action_id=f"t-{copy.version}", version=copy.version, action=action)
                answer = await authority.moves.act(created.game_id, seat, act)
                assert answer.accepted, answer
                played += 1
            else:
                await asyncio.sleep(0.002)
        assert game.copy is not None and game.copy.status == "finished"
        replay = await authority.lobby.replay(created.game_id)
        by_house = [a for a in replay.log if a.seat in seats]
        assert len(by_house) == checker.decisions > 0
        assert checker.frames > 0, "the house heard its seat's events"
        assert len(replay.log) == played + checker.decisions
    finally:
        await authority.close()
        await store.close()


async def test_of_two_claims_on_a_due_clock_entry_one_wins(store: GameStore) -> None:
    # An hour ahead: no server process sharing this Redis finds the entry due meanwhile.
    due = round(time.time()) + 3600.5
    await store.redis.zadd(keys.clocks(keys.shard_of("g1")), {"g1": due})
    (found,) = [entry for entry in await store.due_clocks(due + 1) if entry[0] == "g1"]
    assert found == ("g1", due)
    first, second = await asyncio.gather(
        store.claim_clock("g1", found[1], due + 10.25), store.claim_clock("g1", found[1], due + 11)
    )
    assert [first, second].count(True) == 1
    assert await store.redis.zscore(keys.clocks(keys.shard_of("g1")), "g1") in (due + 10.25, due + 11)
    assert not await store.claim_clock("g1", due, due + 20), "a claim on a score already moved fails"
    assert not await store.claim_clock("gone", due, due + 20)
    assert "g1" not in dict(await store.due_clocks(due + 1))
