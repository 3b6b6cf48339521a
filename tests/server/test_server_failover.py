"""Failover: a Redis master killed mid-game, its replica promoted, play going on, and
nothing acknowledged lost. On a Redis Cluster (3 masters, 3 replicas) and under Sentinel
(a master, a replica, 3 Sentinels); the servers acknowledge a move only once one replica
holds it (``PACKPLAY_REDIS_REPLICAS=1``).

Every seat plays as a careful client does: an action answered ``unavailable`` is sent
again with the same action id until it is answered otherwise. Counted: moves played
(acknowledged), moves failed (never acknowledged before the deadline) and moves lost
(acknowledged, yet missing from the game's log once it is over).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import signal
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from redis_topologies import HOST, LocalCluster, LocalSentinel, Node, start_node
from server_client import Client, answered, new_action_id, pick
from server_lobby import fetch_replay, open_game, replayed_result
from support_servers import ServerProcess, start_server

from packplay.server.storage import keys
from packplay_protocol.errors import ErrorCode, RejectReason
from packplay_protocol.from_client import Act, Join
from packplay_protocol.to_client import Accepted, Error, Rejected, Update, ViewMessage

GAMES = 6
KILL_AFTER = 30
"""Moves acknowledged over all games before the master is killed."""
PLAY_DEADLINE = 120.0
DURABLE = {
    "PACKPLAY_REDIS_REPLICAS": "1",
    "PACKPLAY_REDIS_REPLICA_TIMEOUT": "0.5",
    "PACKPLAY_REDIS_TIMEOUT": "3",
    "PACKPLAY_LOG_LEVEL": "info",  # what a failed run shows of the failover (see logs_on_failure)
}
LOG_TAIL = 150
"""Lines of each server's log that a failed test prints."""


@dataclass
class Tally:
    played: list[str] = field(default_factory=list)
    """Action ids acknowledged (accepted)."""
    failed: int = 0
    unavailable: int = 0
    """Answers ``unavailable`` (each one retried with the same action id)."""
    go_on: asyncio.Event = field(default_factory=asyncio.Event)
    """Set when the failover begins: the seats hold after :data:`KILL_AFTER` moves until
    then, so that the games are still being played when the master dies."""
    doing: dict[str, str] = field(default_factory=dict)
    """What each seat was last doing (a failed run prints it)."""


async def careful_seat(client: Client, rng: random.Random, tally: Tally, seat: str) -> None:
    """Play one seat to the end; an ``unavailable`` action is sent again, same id."""
    try:
        await _play_carefully(client, rng, tally, seat)
    except TimeoutError as silence:
        view = client.view
        legal = None if view is None else bool(view.legal.actions or view.legal.choices)
        raise AssertionError(
            f"{seat} heard nothing for 30 s: at version {client.version}, its view says"
            f" {'it may act' if legal else 'it waits'} (pending {None if view is None else view.pending})"
        ) from silence


async def _play_carefully(client: Client, rng: random.Random, tally: Tally, seat: str) -> None:
    deadline = time.monotonic() + PLAY_DEADLINE
    while client.over is None and time.monotonic() < deadline:
        view = client.view
        assert view is not None
        if not (view.legal.actions or view.legal.choices):
            tally.doing[seat] = f"{_now()} waits for a version after {view.version}"
            await _until_newer(client, view.version)
            continue
        if len(tally.played) >= KILL_AFTER:
            await tally.go_on.wait()
        act = Act(action_id=new_action_id(), version=view.version, action=pick(view.legal, rng))
        tries = 0
        while time.monotonic() < deadline:
            tries += 1
            tally.doing[seat] = f"{_now()} sent {act.action_id} on version {view.version} (try {tries})"
            await client.send(act)
            answer = await client.until(answered(act.action_id), timeout=30)
            tally.doing[seat] = f"{_now()} {act.action_id} answered {type(answer).__name__} (try {tries})"
            if isinstance(answer, Update | Accepted):
                tally.played.append(act.action_id)
                break
            assert isinstance(answer, Rejected)
            if answer.reason is RejectReason.UNAVAILABLE:
                tally.unavailable += 1
                await asyncio.sleep(0.2)
                continue
            # Decide again on the newer view; or the other seat's move, retried meanwhile, ended the game.
            assert answer.reason in (RejectReason.STALE_VERSION, RejectReason.GAME_OVER), answer
            break
        else:
            tally.failed += 1
        if client.version <= view.version and client.over is None:
            await _until_newer(client, view.version)
    if client.over is None:
        tally.failed += 1


def _now() -> str:
    return time.strftime("%H:%M:%S")


async def _until_newer(client: Client, version: int) -> None:
    await client.until(lambda _: client.over is not None or client.version > version, timeout=30)


async def play_through(
    servers: list[ServerProcess], failover: Callable[[list[str]], Awaitable[None]]
) -> tuple[Tally, list[str]]:
    """Play :data:`GAMES` games over both servers; ``failover`` runs once enough moves are in."""
    tally = Tally()
    seats: list[Client] = []
    game_ids = []
    names = []
    for index in range(GAMES):
        game_id, tokens = await open_game(servers[index % 2].url, "day_night", 2)
        game_ids.append(game_id)
        for seat, token in enumerate(tokens):
            client = Client(servers[(index + seat) % 2].url, keep=False)
            await client.connect(token)
            await client.join(game_id)
            seats.append(client)
            names.append(f"seat {seat} of game {game_id} on server {(index + seat) % 2}")
    players = [
        asyncio.create_task(careful_seat(client, random.Random(i), tally, names[i]))
        for i, client in enumerate(seats)
    ]
    while len(tally.played) < KILL_AFTER and not all(p.done() for p in players):
        await asyncio.sleep(0.05)
    if all(p.done() for p in players):
        await asyncio.gather(*players)  # raises what stopped a seat, if anything did
        raise AssertionError(f"the games ended after {len(tally.played)} moves, before the failover")
    tally.go_on.set()
    await failover(game_ids)
    try:
        await asyncio.gather(*players)
    except BaseException:
        print("--- what each seat was last doing:", *(f"{k}: {v}" for k, v in tally.doing.items()), sep="\n")
        raise
    for client in seats:
        assert client.broken == [], client.broken
        await client.close()
    return tally, game_ids


async def check_nothing_lost(base: str, game_ids: list[str], tally: Tally) -> tuple[int, int]:
    """(moves in the logs, acknowledged moves missing from them)."""
    logged: set[str] = set()
    for game_id in game_ids:
        replay = await fetch_replay(base, game_id)
        assert [entry.version for entry in replay.log] == list(range(1, len(replay.log) + 1))
        assert replay.result == replayed_result(replay)
        logged.update(entry.action_id for entry in replay.log if entry.action_id)
    return len(logged), len(set(tally.played) - logged)


@contextlib.contextmanager
def logs_on_failure(servers: list[ServerProcess]) -> Iterator[None]:
    """On a failure, print the end of each server's log (pytest shows it with the failure)."""
    try:
        yield
    except BaseException:
        for index, server in enumerate(servers):
            tail = _collapsed(server.log.read_text(errors="replace").splitlines())[-LOG_TAIL:]
            print(f"--- server {index} ({server.log.name}), its last {len(tail)} lines:", *tail, sep="\n")
        raise


def _collapsed(lines: list[str]) -> list[str]:
    """The log with each run of lines that differ only in their time stamp told once."""
    kept: list[str] = []
    last, repeats = "", 0
    for line in lines:
        message = line[24:]  # after "2026-12-04 21:15:08,538 "
        if message == last:
            repeats += 1
            continue
        if repeats:
            kept.append(f"    (the line above {repeats} more times)")
        kept.append(line)
        last, repeats = message, 0
    if repeats:
        kept.append(f"    (the line above {repeats} more times)")
    return kept


def report(capsys: pytest.CaptureFixture[str], topology: str, tally: Tally, lost: int) -> None:
    """The counts, on the terminal whatever the capture (CI shows them)."""
    with capsys.disabled():
        print(
            f"\n{topology} failover: moves played {len(tally.played)}, failed {tally.failed}, lost {lost}"
            f" (answered unavailable and sent again: {tally.unavailable})"
        )


@pytest.fixture(scope="module")
def cluster() -> Iterator[LocalCluster]:
    with LocalCluster() as started:
        yield started


@pytest.fixture
def cluster_servers(cluster: LocalCluster, tmp_path: Path) -> Iterator[list[ServerProcess]]:
    started = [start_server(cluster.url, tmp_path, **DURABLE) for _ in range(2)]
    yield started
    for server in started:
        server.stop()


async def test_a_cluster_master_killed_mid_game_loses_no_acknowledged_move(
    cluster: LocalCluster, cluster_servers: list[ServerProcess], capsys: pytest.CaptureFixture[str]
) -> None:
    killed: list[Node] = []

    async def failover(game_ids: list[str]) -> None:
        victim = cluster.master_of(keys.game(game_ids[0]))
        victim.kill()
        killed.append(victim)
        # A replica takes over the dead master's slots; then the old master comes back
        # as a replica of it (until then its shards cannot get a replica's acknowledgement).
        await asyncio.to_thread(_until_promoted, cluster, keys.game(game_ids[0]), victim)
        cluster.restart(victim)
        await asyncio.to_thread(cluster.wait_healthy)

    with logs_on_failure(cluster_servers):
        tally, game_ids = await play_through(cluster_servers, failover)
        logged, lost = await check_nothing_lost(cluster_servers[0].url, game_ids, tally)
    report(capsys, "cluster", tally, lost)
    assert killed and killed[0].port not in [m.port for m in cluster.master_nodes()], "a replica took over"
    assert tally.failed == 0 and lost == 0
    assert len(tally.played) == logged > KILL_AFTER


def _until_promoted(cluster: LocalCluster, key: str, old: Node, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if cluster.master_of(key).port != old.port:
                return
        except LookupError:
            pass
        time.sleep(0.2)
    raise AssertionError("no replica was promoted")


@pytest.fixture(scope="module")
def sentinel() -> Iterator[LocalSentinel]:
    with LocalSentinel() as started:
        yield started


async def test_a_sentinel_failover_mid_game_loses_no_acknowledged_move(
    sentinel: LocalSentinel, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    servers = [start_server(sentinel.url, tmp_path, **DURABLE) for _ in range(2)]
    old = sentinel.master
    assert old is not None

    async def failover(game_ids: list[str]) -> None:
        old.kill()
        # Raises unless a replica is promoted. (Whoever is master at the end: on a loaded
        # machine a node may miss the Sentinels' pings for a second, and they fail over
        # again, back to the old master; play goes on.)
        await asyncio.to_thread(_until_sentinel_moves, sentinel, old.port)
        # The old master comes back; the Sentinels turn it into a replica of the new one.
        sentinel.master = sentinel.restart(old)
        await asyncio.to_thread(sentinel.wait_replicated)

    try:
        with logs_on_failure(servers):
            tally, game_ids = await play_through(servers, failover)
            logged, lost = await check_nothing_lost(servers[0].url, game_ids, tally)
    finally:
        for server in servers:
            server.stop()
    report(capsys, "sentinel", tally, lost)
    assert tally.failed == 0 and lost == 0
    assert len(tally.played) == logged > KILL_AFTER


def _until_sentinel_moves(sentinel: LocalSentinel, old_port: int, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if sentinel.current_master() != old_port:
            return
        time.sleep(0.2)
    raise AssertionError("the Sentinels promoted no replica")


async def test_no_process_shows_a_move_before_a_replica_holds_it(tmp_path: Path) -> None:
    """A move written on the master while its replica is away is answered ``unavailable``; a
    spectator who joins meanwhile on another process is refused, not shown that move (a
    failover now would undo it). Sent again once the replica is back, it is accepted."""
    master = start_node(tmp_path / "master")
    replica = start_node(tmp_path / "replica", "--replicaof", HOST, str(master.port))
    url = f"redis://{HOST}:{master.port}"
    servers = [start_server(url, tmp_path, **DURABLE) for _ in range(2)]
    clients: list[Client] = []
    try:
        with logs_on_failure(servers):
            await asyncio.to_thread(master.wait_replica_in_sync)
            game_id, tokens = await open_game(servers[0].url, "day_night", 2)
            for token in tokens:
                clients.append(seat := Client(servers[0].url))
                await seat.connect(token)
                await seat.join(game_id)
            mover = next(
                c for c in clients if c.view is not None and (c.view.legal.actions or c.view.legal.choices)
            )
            assert mover.view is not None
            act = Act(action_id=new_action_id(), version=0, action=pick(mover.view.legal, random.Random(1)))

            replica.process.send_signal(signal.SIGSTOP)
            try:
                await mover.send(act)
                answer = await mover.until(answered(act.action_id))
                assert isinstance(answer, Rejected) and answer.reason is RejectReason.UNAVAILABLE, answer
                clients.append(spectator := Client(servers[1].url))
                await spectator.connect()
                await spectator.send(Join(game_id=game_id, role="spectator"))
                seen = await spectator.until(lambda m: isinstance(m, Error | ViewMessage))
                assert isinstance(seen, Error) and seen.code is ErrorCode.UNAVAILABLE, seen
            finally:
                replica.process.send_signal(signal.SIGCONT)

            await asyncio.to_thread(master.wait_replica_in_sync)
            await mover.send(act)  # the careful client sends it again
            answer = await mover.until(answered(act.action_id))
            assert isinstance(answer, Update | Accepted) and answer.version == 1, answer
            assert (await spectator.join(game_id, role="spectator")).version == 1
    finally:
        for client in clients:
            await client.close()
        for server in servers:
            server.stop()
        replica.stop()
        master.stop()
