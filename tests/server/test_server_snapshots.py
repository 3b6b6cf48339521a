"""Snapshots and the log, against the private Redis: a move appends its log entry only, the state
is written every ``snapshot_every`` versions and at the end, and a process that never saw a
game (or let go of it) rebuilds it from the last snapshot and the entries after it."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from pathlib import Path

import msgspec
import pytest
from server_client import Bot, Client, pick
from server_lobby import open_game
from support_servers import start_server

from packplay.cards.catalog import Catalog, load_catalog
from packplay.games.registry import GAME_NAMES, get_game
from packplay.server.play.authority import Authority
from packplay.server.play.lobby import view_message
from packplay.server.settings import Settings
from packplay.server.storage import keys
from packplay.server.storage.games import GameStore, snapshot_due
from packplay.table.game_copy import GameCopy
from packplay_protocol.errors import RejectReason
from packplay_protocol.from_client import Act
from packplay_protocol.rest import JoinSeat, create_game
from packplay_protocol.to_client import Accepted

EVERY = 4
SETTINGS = Settings(
    lobby_ttl=100,
    active_ttl=1000,
    finished_ttl=50,
    snapshot_every=EVERY,
    actions_per_second=1e4,
    action_burst=1000,
)
_catalog: list[Catalog] = []


def _shared_catalog() -> Catalog:
    """One catalog for every process of the test (loading it is the slow part of a process)."""
    if not _catalog:
        _catalog.append(load_catalog())
    return _catalog[0]


def _process(redis_url: str, name: str, settings: Settings = SETTINGS) -> Authority:
    return Authority(GameStore.from_url(redis_url, process_id=name), settings, _shared_catalog)


@pytest.fixture
async def player(redis_url: str) -> AsyncIterator[Authority]:
    """The process that plays the games."""
    opened = _process(redis_url, "player")
    yield opened
    await opened.store.close()


@pytest.fixture
async def fresh(redis_url: str) -> AsyncIterator[Authority]:
    """Another process on the same Redis, which never plays."""
    opened = _process(redis_url, "fresh")
    yield opened
    await opened.store.close()


async def _started(authority: Authority, game: str, players: int) -> str:
    created = await authority.lobby.create(create_game(game, players))
    for i in range(players):
        await authority.lobby.join(created.game_id, JoinSeat(name=f"p{i}"))
    return created.game_id


def _held(authority: Authority, game_id: str) -> GameCopy:
    held = authority.games.held(game_id)
    assert held is not None and held.copy is not None
    return held.copy


async def _move(authority: Authority, game_id: str, rng: random.Random) -> int:
    """One legal move of the first pending seat on the process's own copy; the new version
    (sent again while the seat's limit of actions, kept in Redis, holds it back)."""
    copy = await authority.games.ensure(authority.games.get(game_id))
    seat = copy.pending[0]
    action = pick(copy.engine.legal_actions(copy.state, seat), rng, copy.engine.action_type)
    act = Act(action_id=f"a{rng.random()}", version=copy.version, action=action)
    answer = await authority.moves.act(game_id, seat, act)
    while answer.reason == RejectReason.RATE_LIMITED:
        await asyncio.sleep(0.05)
        answer = await authority.moves.act(game_id, seat, act)
    assert answer.accepted, answer
    return answer.version


def _same(rebuilt: GameCopy, played: GameCopy) -> None:
    assert rebuilt.version == played.version
    assert rebuilt.state_bytes == played.state_bytes, f"the state at version {played.version}"
    assert (rebuilt.status, rebuilt.pending, rebuilt.result) == (played.status, played.pending, played.result)
    assert (rebuilt.legal, rebuilt.decisions, rebuilt.deadline) == (
        played.legal,
        played.decisions,
        played.deadline,
    )


async def _stored(store: GameStore, game_id: str) -> tuple[int, bytes]:
    """The version of the stored snapshot, and its state."""
    at = await store.redis.hget(keys.game(game_id), "snapshot")
    state = await store.redis.get(keys.state(game_id))
    assert at is not None and state is not None
    return int(at), state


@pytest.mark.parametrize("game", GAME_NAMES)
async def test_a_fresh_process_rebuilds_every_version_the_player_reached(
    player: Authority, fresh: Authority, game: str
) -> None:
    players = get_game(game).min_players
    game_id = await _started(player, game, players)
    rng = random.Random(7)
    states = {0: (await player.lobby.current(game_id)).state_bytes}
    played = _held(player, game_id) if player.games.held(game_id) else None
    while played is None or played.status != "finished":
        version = await _move(player, game_id, rng)
        assert version < 2000, "the game ends"
        played = _held(player, game_id)
        states[version] = played.state_bytes
        # Read from Redis as a process that never saw the game: the snapshot and the log after it.
        _same(await fresh.lobby.current(game_id), played)
        at, state = await _stored(player.store, game_id)
        due = snapshot_due(version, played.status == "finished", EVERY)
        assert at == (version if due else version - version % EVERY), "the snapshot's cadence"
        assert state == states[at], "the snapshot holds the state of its version"
    assert (await _stored(player.store, game_id))[0] == version, "a snapshot at the end"


async def test_a_copy_let_go_of_is_read_again_from_snapshot_and_log(player: Authority) -> None:
    game_id = await _started(player, "mishra_factory", 2)
    rng = random.Random(3)
    for _ in range(EVERY + 2):
        await _move(player, game_id, rng)
    played = _held(player, game_id)
    game = player.games.get(game_id)
    game.let_go()
    rebuilt = await player.games.ensure(game)
    assert rebuilt is not played and (await _stored(player.store, game_id))[0] < rebuilt.version
    _same(rebuilt, played)
    assert await _move(player, game_id, rng) == played.version + 1, "play goes on from the rebuilt copy"


async def test_a_stale_copy_catches_up_through_snapshots_it_never_read(
    player: Authority, fresh: Authority
) -> None:
    game_id = await _started(player, "mishra_factory", 2)
    rng = random.Random(5)
    await _move(player, game_id, rng)
    stale = await fresh.games.ensure(fresh.games.get(game_id))  # held, not live: it hears nothing
    assert stale.version == 1
    for _ in range(2 * EVERY + 1):
        await _move(player, game_id, rng)
    assert (await _stored(player.store, game_id))[0] > stale.version
    # The stale process acts on its copy: its commit loses the race and brings back the entries
    # it missed (its seat may then face another decision: the action is answered stale).
    copy = _held(fresh, game_id)
    seat = copy.pending[0]
    action = pick(copy.engine.legal_actions(copy.state, seat), rng, copy.engine.action_type)
    await fresh.moves.act(game_id, seat, Act(action_id="late", version=copy.version, action=action))
    caught_up = _held(fresh, game_id)
    assert caught_up.version >= 2 * EVERY + 2
    await player.games.catch_up(player.games.get(game_id))
    _same(caught_up, _held(player, game_id))
    version = await _move(fresh, game_id, rng)
    await player.games.catch_up(player.games.get(game_id))
    assert _held(player, game_id).version == version
    _same(_held(fresh, game_id), _held(player, game_id))


async def test_a_game_stored_before_snapshots_reads_and_plays_on(player: Authority, fresh: Authority) -> None:
    """A game written by a release that stored the state on every move has no snapshot field:
    its state is at its version, and the first commit without a snapshot says so."""
    game_id = await _started(player, "mishra_factory", 2)
    rng = random.Random(9)
    await _move(player, game_id, rng)
    # As the older release left it: the state at the game's version, no snapshot field.
    await player.store.redis.set(keys.state(game_id), _held(player, game_id).state_bytes, keepttl=True)
    await player.store.redis.hdel(keys.game(game_id), "snapshot")
    _same(await fresh.lobby.current(game_id), _held(player, game_id))
    await _move(player, game_id, rng)  # version 2: no snapshot due
    assert (await _stored(player.store, game_id))[0] == 1
    _same(await fresh.lobby.current(game_id), _held(player, game_id))


async def test_every_key_of_a_game_expires_between_and_at_snapshots(player: Authority) -> None:
    game_id = await _started(player, "mishra_factory", 2)
    rng = random.Random(11)
    for _ in range(EVERY + 1):
        await _move(player, game_id, rng)
        lifetimes = [await player.store.redis.ttl(key) for key in keys.game_keys(game_id)]
        assert all(0 < ttl <= SETTINGS.active_ttl for ttl in lifetimes), lifetimes
    while _held(player, game_id).status != "finished":
        await _move(player, game_id, rng)
    lifetimes = [await player.store.redis.ttl(key) for key in keys.game_keys(game_id)]
    assert all(0 < ttl <= SETTINGS.finished_ttl for ttl in lifetimes), lifetimes


async def test_every_version_is_a_snapshot_at_one(redis_url: str, fresh: Authority) -> None:
    """``snapshot_every`` 1 writes the state on every move, as before snapshots."""
    every_move = _process(redis_url, "every", Settings(snapshot_every=1))
    try:
        game_id = await _started(every_move, "mishra_factory", 2)
        rng = random.Random(13)
        for _ in range(3):
            version = await _move(every_move, game_id, rng)
            assert await _stored(every_move.store, game_id) == (
                version,
                _held(every_move, game_id).state_bytes,
            )
        _same(await fresh.lobby.current(game_id), _held(every_move, game_id))
    finally:
        await every_move.store.close()


async def test_a_process_killed_between_snapshots_loses_no_acknowledged_move(
    redis_url: str, tmp_path: Path, fresh: Authority
) -> None:
    """``kill -9`` of the process that played every move since the last snapshot: the log holds
    them all, and another process rebuilds the game its clients last saw, then plays it out."""
    server = start_server(redis_url, tmp_path, PACKPLAY_SNAPSHOT_EVERY="64")  # none before the end
    try:
        game_id, tokens = await open_game(server.url, "mishra_factory", 2)
        seats = [Client(server.url) for _ in tokens]
        for client, token in zip(seats, tokens, strict=True):
            await client.connect(token)
            await client.join(game_id)
        bots = [Bot(client, random.Random(seat)) for seat, client in enumerate(seats)]
        await asyncio.gather(*(bot.play(stop_after=4) for bot in bots))
        acknowledged = max(
            answer.version for bot in bots for answer in bot.answers if isinstance(answer, Accepted)
        )
        server.kill()
    finally:
        server.stop()
    rebuilt = await fresh.lobby.current(game_id)
    assert rebuilt.version == acknowledged > 0 and rebuilt.status == "active"
    assert (await _stored(fresh.store, game_id))[0] == 0, "no snapshot since the start: the log alone"
    for seat, client in enumerate(seats):
        assert client.view is not None and client.view.version == acknowledged
        assert msgspec.to_builtins(view_message(rebuilt, seat)) == msgspec.to_builtins(client.view)
    rng, status = random.Random(17), rebuilt.status
    while status != "finished":
        await _move(fresh, game_id, rng)
        status = _held(fresh, game_id).status
    assert (await _stored(fresh.store, game_id))[0] == _held(fresh, game_id).version, "a snapshot at the end"
