"""Tournament followers of this process: players told their next table, watchers the
pairings and standings, over their WebSocket.

A step that changes a tournament is announced on the tournament's channel by whichever
process wrote it (:meth:`packplay.server.storage.tournaments.TournamentStore.announce`);
every process subscribes to all those channels (:mod:`packplay.server.storage.fanout`).

A feed keeps the event as it last read it. The two notices that come most, one per table
of every round, say what changed, and a pass reads only that: a table's result (its
players are told they wait; standings kept result by result take it in before the next
push to watchers: see :class:`~packplay.tournaments.standings.Ledger`) and a table's
seats (its players are told their game). Any other notice (a registration, a drop, the start, a round paired,
the end), a notice about a round the feed does not hold, or a resynchronization reads
the whole event again (one read of the tournament and one of the current round's seats,
however many notices came meanwhile). A follower's first pass starts from the state the
feed holds (read first if it holds none), and a notice lost while the subscription was
down costs a whole read when it is back, nothing more.

Players are told at once. Watchers are sent the round's pairings and the standings at
most once every :data:`WATCH_INTERVAL` (a new watcher at once): a large event records
results many times a second, and each of those messages holds every table or player.

Passes over one tournament run one at a time, each from a read made after the one
before: a follower never hears of an older state after a newer one.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field
from typing import Protocol

import msgspec

from packplay.server.storage.errors import StorageUnavailable
from packplay.server.storage.tournaments import CHANGED
from packplay.server.tournaments.service import TournamentService
from packplay.tournaments.lifecycle import table_in
from packplay.tournaments.model import Table
from packplay.tournaments.records import TournamentSnapshot, table_field
from packplay.tournaments.standings import Ledger
from packplay.tournaments.views import pairings_of, standings_of
from packplay_protocol.to_client import ServerMessage, TournamentRound, TournamentStandings, TournamentTable

log = logging.getLogger(__name__)
RETRY_DELAY = 0.5
"""Seconds before a pass that could not read the tournament is tried again."""
WATCH_INTERVAL = 1.0
"""Seconds at least between two pushes of a tournament's pairings and standings to its
watchers (the last change is always sent, at most this late)."""
Seats = dict[str, tuple[str, int, str]]


class TournamentFollower(Protocol):
    """What a feed needs of a connection: a way to send it a message."""

    def tell(self, message: ServerMessage) -> None: ...


@dataclass(eq=False)
class _Following:
    connection: TournamentFollower
    player_id: str | None
    watch: bool
    table: TournamentTable | None = None
    round: TournamentRound | None = None
    standings: TournamentStandings | None = None
    done: bool = False
    """The player dropped or the event is over: nothing more is sent about the player."""

    @property
    def new_watcher(self) -> bool:
        return self.watch and self.round is None and self.standings is None


@dataclass(eq=False)
class _Feed:
    tournament_id: str
    followers: list[_Following] = field(default_factory=list)
    dirty: bool = False
    task: asyncio.Task[None] | None = None
    waiting: list[asyncio.Future[None]] = field(default_factory=list)
    """Followers' first passes: each resolved by the first pass that starts after it is added."""
    notices: list[bytes] = field(default_factory=list)
    """What changed since the last pass, as the notices said."""
    whole: bool = True
    """The next pass reads the whole event."""
    snapshot: TournamentSnapshot | None = None
    seats: Seats = field(default_factory=dict)
    """The current round's seats."""
    ledger: Ledger = field(default_factory=Ledger)
    """The standings, brought up to ``snapshot`` before each push to watchers."""
    counted: set[str] = field(default_factory=set)
    """The tables whose results the ledger holds..."""
    counted_byes: set[int] = field(default_factory=set)
    """...and the rounds whose byes it holds..."""
    counted_rounds: set[int] = field(default_factory=set)
    """...and the rounds it holds whole."""
    watched: bool = False
    """Something watchers see changed since they were last sent it."""
    watched_at: float = float("-inf")
    timer: asyncio.TimerHandle | None = None


class TournamentFeeds:
    """One per process: the tournaments its connections follow."""

    def __init__(self, service: TournamentService) -> None:
        self.service = service
        self._feeds: dict[str, _Feed] = {}
        self.passes = 0
        """Reads of a whole tournament made for followers (for tests and metrics)."""
        self.pushes = 0
        """Pushes of the round and standings to a tournament's watchers (for metrics)."""
        self.push_seconds = 0.0
        """The CPU time those pushes took (the event loop's thread)."""

    @property
    def followers(self) -> int:
        return sum(len(feed.followers) for feed in self._feeds.values())

    async def follow(
        self, connection: TournamentFollower, tournament_id: str, secret: str | None, watch: bool
    ) -> None:
        """Add a follower and send it the current state.

        Raises:
            Refused: ``not_found``; ``unauthorized``: the secret is no player's.
        """
        player_id = await self.service.follower(tournament_id, secret)
        feed = self._feeds.get(tournament_id)
        if feed is None:
            feed = self._feeds[tournament_id] = _Feed(tournament_id)
        following = _Following(connection, player_id, watch or player_id is None)
        feed.followers.append(following)
        first = asyncio.get_running_loop().create_future()
        feed.waiting.append(first)
        self._run(feed)
        try:
            await asyncio.shield(first)
        except BaseException:
            self.unfollow(connection, tournament_id)
            raise

    def unfollow(self, connection: TournamentFollower, tournament_id: str) -> None:
        feed = self._feeds.get(tournament_id)
        if feed is None:
            return
        feed.followers = [f for f in feed.followers if f.connection is not connection]
        if not feed.followers and not feed.waiting:
            if feed.task is not None:
                feed.task.cancel()
            if feed.timer is not None:
                feed.timer.cancel()
            del self._feeds[tournament_id]

    def changed(self, tournament_id: str, notice: bytes = CHANGED) -> None:
        """A notice: the tournament changed, and maybe what (ignored unless someone here
        follows it)."""
        feed = self._feeds.get(tournament_id)
        if feed is not None:
            if notice.startswith((b"result ", b"seated ")):
                feed.notices.append(notice)
            else:
                feed.whole = True
            self._run(feed)

    def resync_all(self) -> None:
        """Notices may have been lost: read every followed tournament again."""
        for feed in list(self._feeds.values()):
            feed.whole = True
            self._run(feed)

    async def stop(self) -> None:
        tasks = [feed.task for feed in self._feeds.values() if feed.task is not None]
        for feed in self._feeds.values():
            if feed.timer is not None:
                feed.timer.cancel()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def _run(self, feed: _Feed) -> None:
        feed.dirty = True
        if feed.task is None or feed.task.done():
            feed.task = asyncio.create_task(self._passes(feed), name=f"packplay-feed-{feed.tournament_id}")

    async def _passes(self, feed: _Feed) -> None:
        while feed.dirty:
            feed.dirty = False
            waiting, feed.waiting = feed.waiting, []
            try:
                await self._pass(feed)
            except (StorageUnavailable, OSError) as error:
                log.warning(
                    "tournament %s could not be read for its followers: %s", feed.tournament_id, error
                )
                feed.waiting[:0] = waiting
                waiting = []
                feed.whole = feed.dirty = True
                await asyncio.sleep(RETRY_DELAY)
            except Exception:
                feed.whole = True
                log.exception("telling the followers of tournament %s failed", feed.tournament_id)
            finally:
                for first in waiting:
                    if not first.done():
                        first.set_result(None)

    async def _pass(self, feed: _Feed) -> None:
        notices, feed.notices = feed.notices, []
        touched = None if feed.whole or feed.snapshot is None else await self._apply(feed, notices)
        if touched is None:
            feed.whole = False
            if not await self._read(feed):
                return
        snapshot = feed.snapshot
        assert snapshot is not None
        for following in feed.followers:
            player_id = following.player_id
            if player_id is None or following.done:
                continue
            if touched is None or player_id in touched or following.table is None:
                mine = table_in(snapshot, feed.seats, player_id)
                _tell_table(following, TournamentTable(**msgspec.structs.asdict(mine)))
        self._tell_watchers(feed, snapshot)

    async def _read(self, feed: _Feed) -> bool:
        """Read the whole event again; false when it is gone."""
        store = self.service.store
        snapshot = await store.load(feed.tournament_id)
        if snapshot is None:
            return False
        self.passes += 1
        seats = await store.round_seats(feed.tournament_id, snapshot.round) if snapshot.round else {}
        feed.snapshot, feed.seats, feed.watched = snapshot, seats, True
        return True

    async def _apply(self, feed: _Feed, notices: list[bytes]) -> set[str] | None:
        """Read what the notices say changed into the feed's event: the players concerned,
        or None when the whole event must be read again."""
        snapshot = feed.snapshot
        assert snapshot is not None
        store, touched = self.service.store, set[str]()
        for notice in notices:
            kind, number, table = _parsed(notice)
            name = table_field(number, table)
            known = snapshot.results if kind == "result" else snapshot.games
            if name in known:
                continue
            found = _table(snapshot, number, table)
            if found is None or number != snapshot.round:
                return None
            if kind == "result":
                result = await store.result(feed.tournament_id, number, table)
                if result is None:
                    return None
                snapshot.results[name] = result
            else:
                seats = await store.seats_of(feed.tournament_id, number, list(found.players))
                if not seats:
                    return None
                feed.seats.update(seats)
                snapshot.games[name] = next(iter(seats.values()))[0]
            touched.update(found.players)
            feed.watched = True
        return touched

    def _tell_watchers(self, feed: _Feed, snapshot: TournamentSnapshot) -> None:
        """Pairings and standings to the watchers: to new ones at once, to all of them at
        most once every :data:`WATCH_INTERVAL` (a pass is set for when it is due)."""
        watchers = [f for f in feed.followers if f.watch]
        if not watchers:
            return
        loop = asyncio.get_running_loop()
        wait = feed.watched_at + WATCH_INTERVAL - loop.time()
        if not feed.watched or wait > 0:
            watchers = [f for f in watchers if f.new_watcher]
            if feed.watched and feed.timer is None:
                feed.timer = loop.call_later(wait, self._due, feed)
            if not watchers:
                return
        else:
            feed.watched, feed.watched_at = False, loop.time()
        started = time.thread_time()
        self._push(feed, snapshot, watchers)
        self.pushes += 1
        self.push_seconds += time.thread_time() - started

    def _due(self, feed: _Feed) -> None:
        feed.timer = None
        if self._feeds.get(feed.tournament_id) is feed:
            self._run(feed)

    def _push(self, feed: _Feed, snapshot: TournamentSnapshot, watchers: list[_Following]) -> None:
        paired = pairings_of(snapshot, snapshot.round) if snapshot.round else None
        current = TournamentRound(**msgspec.structs.asdict(paired)) if paired is not None else None
        _count(feed, snapshot)
        standings = standings_of(snapshot, feed.ledger)
        told = TournamentStandings(**msgspec.structs.asdict(standings))
        ended: dict[int, TournamentRound | None] = {}
        for following in watchers:
            for number in _missed(following, snapshot.round):
                # Rounds that ended between two pushes: their results, then the next round.
                if number not in ended:
                    over = pairings_of(snapshot, number)
                    ended[number] = None if over is None else TournamentRound(**msgspec.structs.asdict(over))
                if (last := ended[number]) is not None:
                    following.connection.tell(last)
            if current is not None and current != following.round:
                following.round = current
                following.connection.tell(current)
            if told != following.standings:
                following.standings = told
                following.connection.tell(told)


def _count(feed: _Feed, snapshot: TournamentSnapshot) -> None:
    """Bring the feed's ledger up to the snapshot: the results and byes it does not hold yet
    (results and pairings are set once, so a later read only adds to them)."""
    for number, paired in snapshot.pairings.items():
        if number in feed.counted_rounds:
            continue
        if number not in feed.counted_byes:
            feed.ledger.add_byes(paired.byes)
            feed.counted_byes.add(number)
        whole = True
        for table in paired.tables:
            name = table_field(number, table.number)
            if name in feed.counted:
                continue
            result = snapshot.results.get(name)
            if result is None:
                whole = False
            else:
                feed.ledger.add_table(table.players, result)
                feed.counted.add(name)
        if whole:
            feed.counted_rounds.add(number)


def _missed(following: _Following, current: int) -> range:
    """The rounds before ``current`` whose end a watcher was not sent (none for a new one)."""
    before = following.round
    if following.new_watcher:
        return range(0)
    if before is None:
        return range(1, current)
    return range(before.round + (1 if before.complete else 0), current)


def _parsed(notice: bytes) -> tuple[str, int, int]:
    kind, number, table = notice.decode().split(" ")
    return kind, int(number), int(table)


def _table(snapshot: TournamentSnapshot, number: int, table: int) -> Table | None:
    paired = snapshot.pairings.get(number)
    if paired is None:
        return None
    tables = paired.tables
    if 0 < table <= len(tables) and tables[table - 1].number == table:  # numbered in order
        return tables[table - 1]
    return next((t for t in tables if t.number == table), None)


def _tell_table(following: _Following, table: TournamentTable) -> None:
    if table == following.table:
        return
    following.table = table
    following.done = table.status in ("dropped", "finished")
    following.connection.tell(table)
