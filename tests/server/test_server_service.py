"""The authority against the private Redis, without sockets: idempotency, lifetimes, refusals,
and replicas: a process whose copy of a game fell behind, entries lost on the way."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from typing import Any

import msgspec
import pytest
from server_client import pick

from packplay.games.base import Audience
from packplay.server.play.authority import Authority
from packplay.server.play.errors import Refused
from packplay.server.settings import Settings
from packplay.server.storage import keys
from packplay.server.storage.games import GameStore
from packplay.table.game_copy import GameCopy
from packplay.table.rendering import Frames
from packplay_protocol import patch
from packplay_protocol.errors import ErrorCode, RejectReason
from packplay_protocol.from_client import Act
from packplay_protocol.patch import PatchOp
from packplay_protocol.rest import JoinSeat, create_game
from packplay_protocol.version import Encoding

SETTINGS = Settings(lobby_ttl=100, active_ttl=1000, finished_ttl=50)


def _authority(redis_url: str, name: str) -> Authority:
    return Authority(GameStore.from_url(redis_url, process_id=name), SETTINGS)


@pytest.fixture
async def authority(redis_url: str) -> AsyncIterator[Authority]:
    opened = _authority(redis_url, "one")
    yield opened
    await opened.store.close()


@pytest.fixture
async def other(redis_url: str) -> AsyncIterator[Authority]:
    """A second process's authority on the same Redis."""
    opened = _authority(redis_url, "two")
    yield opened
    await opened.store.close()


async def _started(
    authority: Authority, game: str = "mishra_factory", players: int = 2
) -> tuple[str, list[str]]:
    created = await authority.lobby.create(create_game(game, players))
    grants = [await authority.lobby.join(created.game_id, JoinSeat(name=f"p{i}")) for i in range(players)]
    return created.game_id, [grant.token for grant in grants]


def _move(copy: GameCopy, seat: int, rng: random.Random) -> Any:
    return pick(copy.engine.legal_actions(copy.state, seat), rng, copy.engine.action_type)


async def _play_one(authority: Authority, game_id: str, rng: random.Random) -> int:
    """One legal move of the first pending seat, decided on Redis's version; the new version."""
    current = await authority.lobby.current(game_id)
    seat = current.engine.pending(current.state)[0]
    act = Act(action_id=f"a{rng.random()}", version=current.version, action=_move(current, seat, rng))
    answer = await authority.moves.act(game_id, seat, act)
    assert answer.accepted, answer
    return answer.version


class Recorder:
    """A watcher that keeps what it is sent, and applies each update to its copy of the view."""

    def __init__(self) -> None:
        self.frames: list[Frames] = []
        self.document: dict[str, Any] | None = None
        self.resyncs = 0

    def deliver(self, frames: Frames) -> None:
        """What a client does with the frames: decode them and patch its copy of the view."""
        self.frames.append(frames)
        for frame in frames.encoded(Encoding.JSON):
            message = msgspec.json.decode(frame)
            if message["type"] == "view":
                self.document = message
            elif message["type"] == "update":
                assert self.document is not None and message["version"] == self.document["version"] + 1
                ops = msgspec.convert(message["patch"], list[PatchOp])
                self.document = patch.apply(self.document, ops)
                self.document["version"] = message["version"]

    def resync(self) -> None:
        self.resyncs += 1


async def _watch(authority: Authority, game_id: str, audience: Audience) -> Recorder:
    recorder = Recorder()
    recorder.deliver(await authority.games.watch(game_id, recorder, audience, None))
    return recorder


async def test_the_same_action_id_is_answered_the_same_and_applied_once(authority: Authority) -> None:
    game_id, _ = await _started(authority)
    copy = await authority.lobby.current(game_id)
    seat = copy.engine.pending(copy.state)[0]
    act = Act(action_id="once", version=copy.version, action=_move(copy, seat, random.Random(1)))
    first = await authority.moves.act(game_id, seat, act)
    again = await authority.moves.act(game_id, seat, act)
    assert first.accepted and again == first
    assert (await authority.lobby.current(game_id)).version == copy.version + 1

    different = next(a for n in range(50) if (a := _move(copy, seat, random.Random(n))) != act.action)
    other = Act(action_id="once", version=first.version, action=different)
    reused = await authority.moves.act(game_id, seat, other)
    assert not reused.accepted and reused.reason == RejectReason.DUPLICATE


async def test_a_resent_action_is_recognised_by_a_process_that_never_saw_it(
    authority: Authority, other: Authority
) -> None:
    game_id, _ = await _started(authority)
    copy = await authority.lobby.current(game_id)
    seat = copy.engine.pending(copy.state)[0]
    act = Act(action_id="resent", version=copy.version, action=_move(copy, seat, random.Random(2)))
    first = await authority.moves.act(game_id, seat, act)
    assert first.accepted
    assert await other.moves.act(game_id, seat, act) == first


async def test_a_refused_action_is_answered_the_same_when_repeated(authority: Authority) -> None:
    game_id, _ = await _started(authority)
    copy = await authority.lobby.current(game_id)
    idle = 1 - copy.engine.pending(copy.state)[0]
    act = Act(action_id="early", version=copy.version, action=_move(copy, 1 - idle, random.Random(1)))
    first = await authority.moves.act(game_id, idle, act)
    assert first.reason == RejectReason.NOT_YOUR_TURN
    assert await authority.moves.act(game_id, idle, act) == first


async def test_lobbies_expire_sooner_than_games_and_finished_games_sooner_still(authority: Authority) -> None:
    created = await authority.lobby.create(create_game("day_night", 2))
    redis = authority.store.redis
    assert 0 < await redis.ttl(keys.game(created.game_id)) <= SETTINGS.lobby_ttl
    game_id, _ = await _started(authority, "day_night")
    assert SETTINGS.lobby_ttl < await redis.ttl(keys.game(game_id)) <= SETTINGS.active_ttl

    rng = random.Random(4)
    while (await authority.lobby.current(game_id)).status != "finished":
        await _play_one(authority, game_id, rng)
    for key in keys.game_keys(game_id):
        if await redis.exists(key):
            assert 0 < await redis.ttl(key) <= SETTINGS.finished_ttl


async def test_acting_in_a_game_that_waits_for_players_is_refused(authority: Authority) -> None:
    created = await authority.lobby.create(create_game("day_night", 2))
    act = Act(action_id="x", version=0, action={"type": "day_night.place", "cards": []})
    answer = await authority.moves.act(created.game_id, 0, act)
    assert answer.reason == RejectReason.NOT_STARTED
    with pytest.raises(Refused) as waiting:
        await authority.lobby.current(created.game_id)
    assert waiting.value.code is ErrorCode.OUT_OF_ORDER


async def test_a_game_left_full_by_a_crash_is_started_by_whoever_looks_first(
    authority: Authority, other: Authority
) -> None:
    created = await authority.lobby.create(create_game("day_night", 2))
    for seat in range(2):
        outcome = await authority.store.join(created.game_id, f"t{seat}", "p", None, 100)
        assert outcome[0] == "ok"
    copy = await other.lobby.current(created.game_id)
    assert (copy.status, copy.version) == ("active", 0)


async def test_a_token_names_its_game_and_proves_its_seat(authority: Authority) -> None:
    game_id, tokens = await _started(authority)
    assert [await authority.lobby.seat_of(token) for token in tokens] == [(game_id, 0), (game_id, 1)]
    assert await authority.lobby.seat_of(tokens[0][:-1] + "x") is None
    assert await authority.lobby.seat_of("no-dot-in-this-token") is None


async def test_the_process_that_seated_a_game_proves_its_tokens_without_reading_them(
    authority: Authority, other: Authority
) -> None:
    """The creating process holds the seats' hashed tokens while it holds the game; once it
    lets go of the game (or in another process) the tokens are read from Redis again."""
    created = await authority.lobby.create(create_game("day_night", 2, seats=["a", "b"]))
    game_id, tokens = created.game_id, [grant.token for grant in created.grants]
    hashed = await authority.store.seats(game_id)
    await authority.store.pipeline.call("DEL", keys.seats(game_id))  # what a read would find now
    assert [await authority.lobby.seat_of(token) for token in tokens] == [(game_id, 0), (game_id, 1)]
    assert await authority.lobby.seat_of(tokens[1][:-1] + "x") is None, (
        "a wrong secret is refused all the same"
    )
    assert await other.lobby.seat_of(tokens[0]) is None, "another process reads the seats"

    authority.games.get(game_id).let_go()
    assert await authority.lobby.seat_of(tokens[0]) is None
    await authority.store.pipeline.call(
        "HSET",
        keys.seats(game_id),
        *(part for seat, (digest, name) in hashed.items() for part in (str(seat), digest, f"n{seat}", name)),
    )
    assert await authority.lobby.seat_of(tokens[1]) == (game_id, 1)


async def test_a_quiet_game_whose_entry_pubsub_dropped_is_caught_up_from_redis(
    authority: Authority, other: Authority
) -> None:
    """``other`` watches the game, but the channel never hands it ``authority``'s move (these
    services run no subscription): no later entry will reveal the gap. Once the game has
    been quiet long enough, the watchdog's check reads its version and catches up."""
    game_id, _ = await _started(authority)
    recorder = await _watch(other, game_id, 0)
    version = await _play_one(authority, game_id, random.Random(11))
    assert recorder.document is not None and recorder.document["version"] == version - 1

    assert await other.games.check_quiet(60.0) == 0, "a game that moved just now is not checked"
    assert recorder.document["version"] == version - 1
    assert await other.games.check_quiet(0.0) == 1
    assert recorder.document["version"] == version
    whole = await other.games.resume(game_id, 0, None)
    assert _json(whole.messages[0]) == recorder.document
    assert await other.games.check_quiet(0.0) == 0, "caught up: nothing more to read"


@pytest.mark.parametrize("occasion", ["pub/sub outage", "quiet-game check"])
async def test_a_game_that_cannot_catch_up_holds_up_no_other(
    authority: Authority, other: Authority, caplog: pytest.LogCaptureFixture, occasion: str
) -> None:
    """Every live game catches up after a pub/sub outage, every quiet one at the quiet-game
    check: one that cannot (neither its log nor its state decodes) is logged and left for
    the next check."""
    broken, _ = await _started(authority)
    fine, _ = await _started(authority)
    watchers = [await _watch(other, game_id, 0) for game_id in (broken, fine)]
    for game_id in (broken, fine):
        await _play_one(authority, game_id, random.Random(5))  # ``other`` never hears of these
    await authority.store.redis.lset(keys.log(broken), 1, b"\xc1 not an entry")
    await authority.store.redis.set(keys.state(broken), b"\xc1 not a state", keepttl=True)
    if occasion == "pub/sub outage":
        await other.games.resync_all()
    else:
        assert await other.games.check_quiet(0.0) == 1, "the game that could catch up did"
    assert watchers[1].document is not None and watchers[1].document["version"] == 1
    assert watchers[0].document is not None and watchers[0].document["version"] == 0
    assert any(broken in record.getMessage() for record in caplog.records), "the failure is logged"


async def test_an_entry_after_a_gap_that_cannot_be_caught_up_is_logged_not_lost_in_a_task(
    authority: Authority, other: Authority, caplog: pytest.LogCaptureFixture
) -> None:
    """An entry beyond a gap is applied later, in a task of its own; when reading the missed
    entries fails, the failure is logged, and the quiet-game check tries again."""
    game_id, _ = await _started(authority)
    watcher = await _watch(other, game_id, 0)
    rng = random.Random(5)
    await _play_one(authority, game_id, rng)  # ``other`` never hears of it: the gap
    version = await _play_one(authority, game_id, rng)
    entries = await authority.store.entries(game_id, 1)
    assert [entry.version for entry, _ in entries] == [version] == [2]
    good = await authority.store.redis.lindex(keys.log(game_id), 1)
    state = await authority.store.redis.get(keys.state(game_id))
    await authority.store.redis.lset(keys.log(game_id), 1, b"\xc1 not an entry")
    await authority.store.redis.set(keys.state(game_id), b"\xc1 not a state", keepttl=True)
    other.games.receive(game_id, entries[0][1])
    await asyncio.gather(*other.games._pending)
    assert watcher.document is not None and watcher.document["version"] == 0, "nothing applied past the gap"
    assert any(game_id in record.getMessage() for record in caplog.records), "the failure is logged"

    await authority.store.redis.lset(keys.log(game_id), 1, good)
    await authority.store.redis.set(keys.state(game_id), state, keepttl=True)
    assert await other.games.check_quiet(0.0) == 1
    assert watcher.document["version"] == version


async def test_a_game_whose_log_does_not_decode_is_read_again_from_its_state(
    authority: Authority, other: Authority
) -> None:
    """An entry written by a newer release, or damaged, that a snapshot covers: the stored
    state still holds the game, and the watchers catch up with a whole view instead of the
    events. (Past the last snapshot the log is the only record of a move: such an entry
    leaves the game unreadable to the process, see the next test.)"""
    authority.moves.snapshot_every = 1
    game_id, _ = await _started(authority)
    watcher = await _watch(other, game_id, 0)
    version = await _play_one(authority, game_id, random.Random(5))  # ``other`` never hears of it
    await authority.store.redis.lset(keys.log(game_id), version, b"\xc1 not an entry")
    assert await other.games.check_quiet(0.0) == 1
    assert watcher.resyncs == 1
    assert watcher.document is not None and watcher.document["version"] == 0
    watcher.deliver(await other.games.resume(game_id, 0, 0))  # as its session does on a resync
    assert watcher.document["version"] == version
    whole = await other.games.resume(game_id, 0, None)
    assert _json(whole.messages[-1]) == watcher.document


async def test_a_game_whose_log_past_its_snapshot_does_not_decode_is_left_as_it_was(
    authority: Authority, other: Authority
) -> None:
    """Past the last snapshot the log is the only record of a move: a process that cannot read
    an entry there keeps what it holds (its watchers too) rather than make up a game, and
    the quiet-game check tries again (a release that reads the entry goes on)."""
    game_id, _ = await _started(authority)
    watcher = await _watch(other, game_id, 0)
    version = await _play_one(authority, game_id, random.Random(5))  # ``other`` never hears of it
    good = await authority.store.redis.lindex(keys.log(game_id), version)
    await authority.store.redis.lset(keys.log(game_id), version, b"\xc1 not an entry")
    assert await other.games.check_quiet(0.0) == 0
    assert watcher.document is not None and watcher.document["version"] == 0
    await authority.store.redis.lset(keys.log(game_id), version, good)
    assert await other.games.check_quiet(0.0) == 1
    watcher.deliver(await other.games.resume(game_id, 0, 0))
    assert watcher.document["version"] == version


async def test_a_quiet_game_let_go_of_and_left_behind_is_read_again(
    authority: Authority, other: Authority
) -> None:
    """As above, for a game the other process had let go of (no move for ``cold_after``):
    it is read again, and its watchers catch up with a whole view."""
    game_id, _ = await _started(authority)
    recorder = await _watch(other, game_id, 1)
    other.games.cool(0.0)
    table = other.games.get(game_id)
    assert table.copy is None and table.cold_version == 0
    version = await _play_one(authority, game_id, random.Random(12))
    assert await other.games.check_quiet(0.0) == 1
    assert recorder.resyncs == 1
    assert table.copy is not None and table.copy.version == version
    assert await other.games.check_quiet(0.0) == 0


async def test_a_process_whose_copy_fell_behind_catches_up_and_acts(
    authority: Authority, other: Authority
) -> None:
    """``authority`` holds a copy it is not kept up to date on; ``other`` moves the game on."""
    game_id, _ = await _started(authority)
    rng = random.Random(7)
    await _play_one(authority, game_id, rng)
    stale = authority.games.get(game_id).copy
    assert stale is not None and stale.version == 1
    for _ in range(3):
        await _play_one(other, game_id, rng)
    current = await other.lobby.current(game_id)
    seat = current.engine.pending(current.state)[0]
    act = Act(action_id="late", version=current.version, action=_move(current, seat, rng))
    answer = await authority.moves.act(game_id, seat, act)
    assert answer.accepted and answer.version == current.version + 1
    assert authority.games.get(game_id).copy is not None
    assert authority.games.get(game_id).copy.version == current.version + 1  # type: ignore[union-attr]


async def test_watchers_of_two_processes_see_every_version_and_agree_with_a_whole_view(
    authority: Authority, other: Authority
) -> None:
    """Moves committed by one process reach the other's watchers as updates (the entries are
    handed over as the pub/sub channel would); each patched view equals a whole view."""
    game_id, _ = await _started(authority, "wedding_planner", 3)
    here = await _watch(authority, game_id, 0)
    there = await _watch(other, game_id, 1)
    rng = random.Random(9)
    for _ in range(6):
        before = (await authority.lobby.current(game_id)).version
        await _play_one(authority, game_id, rng)
        for raw_entry in [raw for entry, raw in await authority.store.entries(game_id, before)]:
            other.games.receive(game_id, raw_entry)
    assert here.document is not None and there.document is not None
    version = here.document["version"]
    assert there.document["version"] == version
    for process, recorder, seat in ((authority, here, 0), (other, there, 1)):
        whole = await process.games.resume(game_id, seat, None)
        assert _json(whole.messages[0]) == recorder.document


async def test_a_lost_entry_is_read_from_the_log(authority: Authority, other: Authority) -> None:
    game_id, _ = await _started(authority, "mishra_factory", 2)
    there = await _watch(other, game_id, None)
    rng = random.Random(3)
    entries = []
    for _ in range(3):
        before = (await authority.lobby.current(game_id)).version
        await _play_one(authority, game_id, rng)
        entries.extend(raw for _, raw in await authority.store.entries(game_id, before))
    other.games.receive(game_id, entries[-1])  # the first two never arrived
    for _ in range(50):
        if there.document is not None and there.document["version"] == 3:
            break
        await asyncio.sleep(0.02)
    assert there.document is not None and there.document["version"] == 3
    assert [frames.version for frames in there.frames] == [0, 1, 2, 3]
    whole = await other.games.resume(game_id, None, None)
    assert _json(whole.messages[0]) == there.document


def _json(message: Any) -> Any:
    return msgspec.json.decode(msgspec.json.encode(message))


async def test_an_old_action_id_sent_again_on_a_later_version_is_not_applied_again(
    authority: Authority, other: Authority
) -> None:
    game_id, _ = await _started(authority, "wedding_planner", 2)
    rng = random.Random(5)
    copy = await authority.lobby.current(game_id)
    seat = copy.engine.pending(copy.state)[0]
    first = Act(action_id="early", version=copy.version, action=_move(copy, seat, rng))
    answer = await authority.moves.act(game_id, seat, first)
    assert answer.accepted
    for _ in range(3):
        await _play_one(authority, game_id, rng)
    now = await authority.lobby.current(game_id)
    for process in (authority, other):  # the one that took it, and one that never saw it
        resent = Act(action_id="early", version=now.version, action=first.action)
        assert await process.moves.act(game_id, seat, resent) == answer
    assert (await authority.lobby.current(game_id)).version == now.version


async def test_a_game_let_go_of_is_read_again_and_its_watchers_stay_exact(
    authority: Authority, other: Authority
) -> None:
    """A process drops the state of a game without moves (its connections stay); the next move
    here, or the next entry from another process, reads it again, and watchers keep up."""
    game_id, _ = await _started(authority, "mishra_factory", 2)
    here = await _watch(authority, game_id, 0)
    there = await _watch(other, game_id, 1)
    rng = random.Random(2)
    assert authority.games.cool(0.0) >= 1 and authority.games.get(game_id).copy is None
    version = await _play_one(authority, game_id, rng)  # a move here, on a game let go of
    other.games.get(game_id).let_go()
    before = version
    version = await _play_one(authority, game_id, rng)
    for _, raw in await authority.store.entries(game_id, before):
        other.games.receive(game_id, raw)  # an entry for a game the other process let go of
    for _ in range(50):
        if there.resyncs:
            break
        await asyncio.sleep(0.02)
    assert there.resyncs == 1, "the other process read the game again: its watcher catches up"
    assert there.document is not None
    there.deliver(await other.games.resume(game_id, 1, there.document["version"]))  # as its session would
    for process, recorder, seat in ((authority, here, 0), (other, there, 1)):
        assert recorder.document is not None and recorder.document["version"] == version
        whole = await process.games.resume(game_id, seat, None)
        assert _json(whole.messages[0]) == recorder.document


class JoiningRecorder(Recorder):
    """A recorder that, as a session does, holds what comes before its first whole view."""

    def __init__(self) -> None:
        super().__init__()
        self.held: list[Frames] = []

    def deliver(self, frames: Frames) -> None:
        if self.document is None:
            self.held.append(frames)
        else:
            super().deliver(frames)

    def caught_up(self, frames: Frames) -> None:
        super().deliver(frames)
        for later in self.held:
            if later.version > frames.version:
                super().deliver(later)


class _PausedStore(GameStore):
    """A store whose reads of a whole game wait, after Redis answered, until let go."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.answered = asyncio.Event()
        self.go_on = asyncio.Event()

    async def load(self, game_id: str, watch: bool = False) -> Any:
        snapshot = await super().load(game_id, watch)
        self.answered.set()
        await self.go_on.wait()
        return snapshot


async def test_an_entry_that_comes_while_the_game_is_read_to_watch_it_is_not_lost(
    authority: Authority, redis_url: str
) -> None:
    """The channel and the read travel on two connections: the next version's entry can
    arrive before the read that joined the watcher set is answered here."""
    game_id, _ = await _started(authority, "mishra_factory", 2)
    store = _PausedStore.from_url(redis_url, process_id="two")
    assert isinstance(store, _PausedStore)
    other = Authority(store, SETTINGS)
    try:
        recorder = JoiningRecorder()
        watching = asyncio.create_task(other.games.watch(game_id, recorder, 1, None))
        await asyncio.wait_for(store.answered.wait(), 5)
        before = (await authority.lobby.current(game_id)).version
        version = await _play_one(authority, game_id, random.Random(4))
        for _, raw in await authority.store.entries(game_id, before):
            other.games.receive(game_id, raw)  # as the channel hands it over, read still pending
        store.go_on.set()
        recorder.caught_up(await watching)
        for _ in range(50):
            if recorder.document is not None and recorder.document["version"] == version:
                break
            await asyncio.sleep(0.02)
        assert recorder.document is not None and recorder.document["version"] == version
        whole = await other.games.resume(game_id, 1, None)
        assert _json(whole.messages[0]) == recorder.document
    finally:
        await store.close()
