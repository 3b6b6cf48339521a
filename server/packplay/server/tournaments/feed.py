"""Tournament followers of this process: players told their next table, watchers the
pairings and standings, over their WebSocket.

A step that changes a tournament is announced on the tournament's channel by whichever
process wrote it (:meth:`packplay.server.storage.tournaments.TournamentStore.announce`);
every process subscribes to all those channels (:mod:`packplay.server.storage.fanout`). A
notice only says that the tournament changed: the process reads it again (one read of
the whole event and one of the current round's seats, however many notices came
meanwhile) and tells each follower what differs from what it was last told. A
follower's first read is the same pass, so it starts from the current state, and a
notice lost while the subscription was down costs a pass when it is back, nothing more.

Passes over one tournament run one at a time, each from a read made after the one
before: a follower never hears of an older state after a newer one.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Protocol

import msgspec

from packplay.server.storage.errors import StorageUnavailable
from packplay.server.tournaments.service import TournamentService
from packplay.tournaments.lifecycle import table_in
from packplay.tournaments.views import pairings_of, standings_of
from packplay_protocol.to_client import ServerMessage, TournamentRound, TournamentStandings, TournamentTable

log = logging.getLogger(__name__)
RETRY_DELAY = 0.5
"""Seconds before a pass that could not read the tournament is tried again."""


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


@dataclass(eq=False)
class _Feed:
    tournament_id: str
    followers: list[_Following] = field(default_factory=list)
    dirty: bool = False
    task: asyncio.Task[None] | None = None
    waiting: list[asyncio.Future[None]] = field(default_factory=list)
    """Followers' first passes: each resolved by the first pass that starts after it is added."""
    standings_key: tuple[int, int, int, str] | None = None
    standings: TournamentStandings | None = None


class TournamentFeeds:
    """One per process: the tournaments its connections follow."""

    def __init__(self, service: TournamentService) -> None:
        self.service = service
        self._feeds: dict[str, _Feed] = {}
        self.passes = 0
        """Reads of a tournament made for followers (for tests and metrics)."""

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
            del self._feeds[tournament_id]

    def changed(self, tournament_id: str) -> None:
        """A notice: the tournament changed (ignored unless someone here follows it)."""
        feed = self._feeds.get(tournament_id)
        if feed is not None:
            self._run(feed)

    def resync_all(self) -> None:
        """Notices may have been lost: read every followed tournament again."""
        for feed in list(self._feeds.values()):
            self._run(feed)

    async def stop(self) -> None:
        tasks = [feed.task for feed in self._feeds.values() if feed.task is not None]
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
                feed.dirty = True
                await asyncio.sleep(RETRY_DELAY)
            except Exception:
                log.exception("telling the followers of tournament %s failed", feed.tournament_id)
            finally:
                for first in waiting:
                    if not first.done():
                        first.set_result(None)

    async def _pass(self, feed: _Feed) -> None:
        store = self.service.store
        snapshot = await store.load(feed.tournament_id)
        if snapshot is None:
            return
        self.passes += 1
        followers = [f for f in feed.followers if not f.done or f.watch]
        if any(f.player_id is not None and not f.done for f in followers):
            seats = await store.round_seats(feed.tournament_id, snapshot.round)
            for following in followers:
                if following.player_id is not None and not following.done:
                    mine = table_in(snapshot, seats, following.player_id)
                    _tell_table(following, TournamentTable(**msgspec.structs.asdict(mine)))
        watchers = [f for f in followers if f.watch]
        if not watchers:
            return
        paired = pairings_of(snapshot, snapshot.round) if snapshot.round else None
        current = TournamentRound(**msgspec.structs.asdict(paired)) if paired is not None else None
        key = (
            snapshot.version,
            len(snapshot.results),
            sum(1 for p in snapshot.players if p.dropped is not None),
            snapshot.status,
        )
        if key != feed.standings_key or feed.standings is None:
            # Ranking a large event is real work: done once a change, for every watcher here.
            standings = standings_of(snapshot)
            feed.standings = TournamentStandings(**msgspec.structs.asdict(standings))
            feed.standings_key = key
        ended: dict[int, TournamentRound | None] = {}
        for following in watchers:
            before = following.round
            if before is not None and before.round < snapshot.round and not before.complete:
                # The round ended between two passes: its results first, then the next round.
                if before.round not in ended:
                    over = pairings_of(snapshot, before.round)
                    ended[before.round] = (
                        None if over is None else TournamentRound(**msgspec.structs.asdict(over))
                    )
                if (last := ended[before.round]) is not None:
                    following.connection.tell(last)
            if current is not None and current != following.round:
                following.round = current
                following.connection.tell(current)
            if feed.standings != following.standings:
                following.standings = feed.standings
                following.connection.tell(feed.standings)


def _tell_table(following: _Following, table: TournamentTable) -> None:
    if table == following.table:
        return
    following.table = table
    following.done = table.status in ("dropped", "finished")
    following.connection.tell(table)
