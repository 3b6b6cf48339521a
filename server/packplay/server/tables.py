"""The games this process serves: each one's copy, its local watchers, and what they hold.

A table is one game in this process. Its lock orders everything that moves the
copy or reads it for a client: a local move and its commit, another process's
entry, a watcher joining. After each step the table renders the update once per
audience that has a local watcher (the events it may see and the patch of its view
message) and hands it to every watcher of that audience.

A table is a cache: dropping it costs one read from Redis. Tables with watchers
stay; up to ``idle_limit`` others are kept, least recently used first out. Only a
table with watchers is sent the entries of other processes (it is *live*); any other
copy may be behind, which the version compare-and-set of every commit catches.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Protocol

import msgspec

from packplay.cards.catalog import Catalog
from packplay.games.base import Audience, RuleError
from packplay.games.registry import get_game
from packplay.server import history
from packplay.server.store import Store
from packplay.table import rendering
from packplay.table.game_copy import GameCopy, Step
from packplay.table.records import LogEntry, Snapshot, decode_entry
from packplay.table.rendering import Change, Frames, HeldViews, ViewDoc

log = logging.getLogger(__name__)


class GameMissing(LookupError):
    """No such game (never created, or expired)."""


class GameNotStarted(LookupError):
    """The game still waits for players."""


class Watcher(Protocol):
    """A connection following a game."""

    def deliver(self, frames: Frames) -> None:
        """The messages of a new version (never waits)."""

    def resync(self) -> None:
        """Versions may have been skipped: catch up."""


class Table:
    """One game in this process."""

    __slots__ = (
        "cold_version",
        "dealt",
        "game_id",
        "joining",
        "last_active",
        "live",
        "lock",
        "copy",
        "seat_digests",
        "views",
        "watchers",
    )

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        self.copy: GameCopy | None = None
        self.live = False
        """This process is in the game's watcher set: other processes send it their entries."""
        self.joining = False
        """This process is joining the watcher set: entries may come before the read that
        joins it answers, and wait for it (the channel and the read are two connections)."""
        self.watchers: dict[Audience, set[Watcher]] = {}
        self.views = HeldViews()
        """The view message each audience with watchers holds, at the copy's version."""
        self.lock = asyncio.Lock()
        self.dealt: Any = None
        """The state set up when the game was created here, until it starts."""
        self.last_active = time.monotonic()
        self.cold_version: int | None = None
        """The version the watchers hold when the copy was let go (read again on demand)."""
        self.seat_digests: dict[int, str] | None = None
        """The hashed tokens of the game's seats, when this process started it with every seat
        taken: the seats of a started game never change, so a hello needs no read of them.
        Held as long as the copy is."""

    @property
    def watched(self) -> bool:
        return any(self.watchers.values())

    def add(self, watcher: Watcher, audience: Audience) -> None:
        self.watchers.setdefault(audience, set()).add(watcher)

    def remove(self, watcher: Watcher) -> None:
        for audience, watchers in list(self.watchers.items()):
            watchers.discard(watcher)
            if not watchers:
                del self.watchers[audience]
                self.views.forget(audience)

    def let_go(self, keep_views: bool = False) -> None:
        """Drop what this process holds of the game but its watchers (and, with
        ``keep_views``, the views they hold): the next move, or the next entry from another
        process, reads the game again from Redis. Watchers get their next version as a
        patch of the views kept, else as a whole view."""
        if self.copy is not None:
            self.cold_version = self.copy.version
        self.copy = None
        self.seat_digests = None
        if not keep_views:
            self.views.clear()

    @property
    def finished(self) -> bool:
        return self.copy is not None and self.copy.status == "finished"

    def doc(self, audience: Audience) -> ViewDoc:
        """The audience's view message now (its updates are made from it while it has watchers)."""
        assert self.copy is not None
        return self.views.message(self.copy, audience, keep=audience in self.watchers)

    def advance(self, step: Step) -> None:
        """Move the copy one version on and send every local watcher its update."""
        copy = self.copy
        assert copy is not None and step.version == copy.version + 1
        before = copy.state
        copy.advance(step)
        self.last_active = time.monotonic()
        over = rendering.game_over(copy) if step.status == "finished" else None
        change = self.views.change(copy, step, before)
        for audience, watchers in self.watchers.items():
            if watchers:
                frames = self._update(copy, change, step, audience, over)
                for watcher in list(watchers):
                    watcher.deliver(frames)

    def _update(
        self, copy: GameCopy, change: Change | None, step: Step, audience: Audience, over: Any
    ) -> Frames:
        messages: list[rendering.Outgoing] = []
        acknowledged = None
        if change is None or audience not in self.views:
            doc = self.views.message(copy, audience)
            messages.append(rendering.whole_view(doc, step.version))  # no acceptance in a view
        else:
            update = self.views.update(change, audience)
            messages.append(update)
            acknowledged = update.action_id
        if over is not None:
            messages.append(over)
        return Frames(step.version, messages, acknowledged)

    def reset(self, copy: GameCopy | None) -> None:
        """Jump to another version (read again from Redis): every watcher catches up."""
        self.copy = copy
        self.cold_version = None
        self.views.clear()
        for watchers in self.watchers.values():
            for watcher in list(watchers):
                watcher.resync()


def _held(table: Table) -> int | None:
    """The version the table's watchers hold: its copy's, or the one it was let go at."""
    return table.copy.version if table.copy is not None else table.cold_version


class Tables:
    """Every table of this process; the store is the only way to fill them."""

    def __init__(
        self, store: Store, catalog: Callable[[], Catalog], idle_limit: int = 10_000, catch_up: int = 64
    ) -> None:
        self.store = store
        self._catalog = catalog
        self.idle_limit = idle_limit
        self.catch_up_versions = catch_up
        """A watcher further behind gets the whole view only (replaying a long story costs more)."""
        self._tables: dict[str, Table] = {}
        self._idle: OrderedDict[str, None] = OrderedDict()
        """The tables without watchers, least recently used first (the ones that may go)."""
        self._pending: set[asyncio.Task[None]] = set()
        """Entries waiting for their table's lock."""

    def __len__(self) -> int:
        return len(self._tables)

    @property
    def watched(self) -> int:
        return len(self._tables) - len(self._idle)

    def held(self, game_id: str) -> Table | None:
        """The game's table if this process has one (none is made)."""
        return self._tables.get(game_id)

    def get(self, game_id: str) -> Table:
        table = self._tables.get(game_id)
        if table is None:
            table = self._tables[game_id] = Table(game_id)
            self._idle[game_id] = None
            self._evict()
        elif game_id in self._idle:
            self._idle.move_to_end(game_id)
        return table

    def _evict(self) -> None:
        while len(self._idle) > self.idle_limit:
            game_id = next(iter(self._idle))
            table = self._tables[game_id]
            if table.lock.locked():
                self._idle.move_to_end(game_id)  # in use: it goes later
                return
            del self._idle[game_id], self._tables[game_id]

    def _watched(self, table: Table) -> None:
        self._idle.pop(table.game_id, None)

    def _unwatched(self, table: Table) -> None:
        if table.finished:
            self._tables.pop(table.game_id, None)  # nobody will ask for it again
            self._idle.pop(table.game_id, None)
        else:
            self._idle[table.game_id] = None
            self._evict()

    # loading (callers hold the table's lock)

    async def ensure(self, table: Table, watch: bool = False) -> GameCopy:
        """The table's copy, read from Redis when missing, or when becoming live.

        With ``watch`` this process joins the game's watcher set in the same script
        that reads the game, so that no entry falls between the read and the next one
        sent.

        Raises:
            GameMissing: no such game.
            GameNotStarted: the game waits for players.
        """
        if table.copy is not None and (table.live or not watch):
            return table.copy
        table.joining = watch
        try:
            return await self._read(table, watch)
        finally:
            table.joining = False

    async def _read(self, table: Table, watch: bool) -> GameCopy:
        if table.copy is not None and await self.store.watch(table.game_id) == table.copy.version:
            table.live = True  # what this process holds is current: no need to read it again
            return table.copy
        snapshot = await self.store.load(table.game_id, watch=watch)
        if snapshot is None:
            table.copy = None
            raise GameMissing(table.game_id)
        current = table.copy
        held = current.version if current is not None else table.cold_version
        if held == snapshot.version and current is None:
            table.copy = self.copy_of(snapshot)  # the watchers hold this version already
            table.cold_version = None
        elif current is None or current.version != snapshot.version:
            # A jump to another version: watchers holding the old one catch up with a whole view.
            table.reset(self.copy_of(snapshot))
        if table.copy is None:
            raise GameNotStarted(table.game_id)
        table.live = table.live or watch
        return table.copy

    def copy_of(self, snapshot: Snapshot) -> GameCopy | None:
        return GameCopy.from_snapshot(snapshot, get_game(snapshot.meta.config.game), self._catalog())

    async def catch_up(self, table: Table, missed: tuple[bytes, ...] = (), until: int | None = None) -> None:
        """Apply the entries this copy has not seen, in order: ``missed`` first (what
        a lost commit race brought back), then what the log holds beyond, up to ``until``
        when it is known; read the game again if an entry does not decode or apply."""
        try:
            newer = [decode_entry(raw) for raw in missed]
        except msgspec.DecodeError:
            await self._log_unreadable(table)
            return
        for entry in newer:
            if not self._apply_newer(table, entry):
                await self._reload(table)
                return
        copy = table.copy
        if copy is not None and until is not None and copy.version > until:
            # Redis is behind this copy: a failover lost writes no replica had acknowledged
            # (this process saw them sent). The game goes on from what Redis holds.
            log.warning(
                "game %s: Redis is at version %d, behind this process's %d: reading it again",
                table.game_id, until, copy.version,
            )  # fmt: skip
            await self._reload(table)
            return
        if copy is None or (until is not None and copy.version >= until):
            return
        try:
            entries = await self.store.entries(table.game_id, copy.version)
        except msgspec.DecodeError:
            await self._log_unreadable(table)
            return
        for entry, _ in entries:
            if not self._apply_newer(table, entry):
                await self._reload(table)
                return

    async def _log_unreadable(self, table: Table) -> None:
        """An entry of the log does not decode (written by a newer release, or damaged): the
        game's stored state still holds it, and its watchers catch up with a whole view."""
        log.warning("game %s: its log does not decode: reading the game again", table.game_id)
        await self._reload(table)

    def _apply_newer(self, table: Table, entry: LogEntry) -> bool:
        copy = table.copy
        return copy is not None and (entry.version <= copy.version or self._apply(table, entry))

    def _apply(self, table: Table, entry: LogEntry) -> bool:
        copy = table.copy
        if copy is None or entry.version != copy.version + 1:
            return False
        try:
            step = copy.step_entry(entry)
        except (RuleError, msgspec.ValidationError, ValueError):
            log.exception(
                "game %s: entry %s does not apply to this process's copy", table.game_id, entry.version
            )
            return False
        table.advance(step)
        return True

    async def _reload(self, table: Table) -> None:
        snapshot = await self.store.load(table.game_id, watch=table.live)
        table.reset(None if snapshot is None else self.copy_of(snapshot))

    # watchers

    async def watch(self, game_id: str, watcher: Watcher, audience: Audience, since: int | None) -> Frames:
        """Follow a game from now on: the messages that bring ``watcher`` to its version.

        Raises:
            GameMissing: no such game.
            GameNotStarted: the game waits for players.
        """
        table = self.get(game_id)
        async with table.lock:
            copy = await self.ensure(table, watch=True)
            table.add(watcher, audience)
            self._watched(table)
            return await self._caught_up(table, copy, audience, since)

    async def resume(self, game_id: str, audience: Audience, since: int | None) -> Frames:
        """The messages that bring a watcher from ``since`` to the current version."""
        table = self.get(game_id)
        async with table.lock:
            copy = await self.ensure(table, watch=table.watched)
            return await self._caught_up(table, copy, audience, since)

    async def _caught_up(self, table: Table, copy: GameCopy, audience: Audience, since: int | None) -> Frames:
        messages: list[rendering.Outgoing] = []
        behind = copy.version - since if since is not None else 0
        if since is not None and since >= -1 and 0 < behind <= self.catch_up_versions:
            events = await history.events_between(self.store, copy, since, audience)
            messages.append(rendering.events_message(table.game_id, since, copy.version, events))
        messages.append(rendering.whole_view(table.doc(audience), copy.version))
        over = rendering.game_over(copy)
        if over is not None:
            messages.append(over)
        return Frames(copy.version, messages)

    async def unwatch(self, game_id: str, watcher: Watcher) -> None:
        table = self._tables.get(game_id)
        if table is None:
            return
        table.remove(watcher)
        if table.watched:
            return
        self._unwatched(table)
        # Under the lock, so that leaving the watcher set and joining it again (a watch
        # waiting for the lock) reach Redis in that order, whichever connections they take.
        async with table.lock:
            if table.live and not table.watched:
                table.live = False
                with contextlib.suppress(Exception):
                    await self.store.unwatch(game_id)

    # entries from other processes

    def receive(self, game_id: str, raw_entry: bytes) -> None:
        """Another process committed a version of a game this process watches."""
        table = self._tables.get(game_id)
        if table is None or not (table.live or table.joining):
            return
        entry = decode_entry(raw_entry)
        if table.joining:  # after the read that joins: it may not hold this entry
            self._later(table, entry)
            return
        if table.copy is None:  # let go of: read it again, then go on from there
            if table.watched:
                self._later(table, entry)
            return
        if entry.version <= table.copy.version:
            return
        if not table.lock.locked() and self._apply(table, entry):
            return
        self._later(table, entry)

    def _later(self, table: Table, entry: LogEntry) -> None:
        task = asyncio.create_task(self._receive_later(table, entry))
        self._pending.add(task)  # held: the loop keeps only a weak reference to a task
        task.add_done_callback(self._pending.discard)

    async def _receive_later(self, table: Table, entry: LogEntry) -> None:
        try:
            await self._receive_in_turn(table, entry)
        except Exception as error:  # a task of its own: nobody else would hear of it
            log.warning(
                "game %s: catching up to version %d failed (%r); the quiet-game check tries again",
                table.game_id, entry.version, error,
            )  # fmt: skip

    async def _receive_in_turn(self, table: Table, entry: LogEntry) -> None:
        async with table.lock:
            copy = table.copy
            if copy is None and table.watched:
                with contextlib.suppress(LookupError):
                    copy = await self.ensure(table, watch=True)
            if copy is None or entry.version <= copy.version:
                return
            if entry.version == copy.version + 1 and self._apply(table, entry):
                return
            await self.catch_up(table)

    def cool(self, idle_seconds: float) -> int:
        """Let go of every watched game without a move for ``idle_seconds``; how many."""
        quiet_since = time.monotonic() - idle_seconds
        cooled = 0
        for table in list(self._tables.values()):
            if table.copy is not None and table.last_active < quiet_since and not table.lock.locked():
                table.let_go()
                cooled += 1
        return cooled

    async def check_quiet(self, quiet_seconds: float) -> int:
        """Catch up every watched game without a move for ``quiet_seconds`` that Redis holds at
        a later version; how many did (one that fails is logged, and tried again at the next
        check). Pub/sub delivers at most once: an entry it dropped (a channel that failed
        over, a replica still syncing) shows as a gap only when a later entry comes, and a
        game whose seats all wait on the lost move would wait for ever."""
        quiet_since = time.monotonic() - quiet_seconds
        quiet = [
            (table, held)
            for table in self._tables.values()
            if table.live and table.watched and table.last_active <= quiet_since
            and (held := _held(table)) is not None
        ]  # fmt: skip
        if not quiet:
            return 0
        stored = await self.store.versions([table.game_id for table, _ in quiet])
        behind = [
            table
            for (table, held), version in zip(quiet, stored, strict=True)
            if version is not None and version > held
        ]
        caught_up = 0
        for table in behind:
            try:
                await self._catch_up_quiet(table)
            except Exception as error:  # one game that fails holds up no other; the next check tries again
                log.warning("game %s: a quiet game failed to catch up: %r", table.game_id, error)
            else:
                caught_up += 1
        return caught_up

    async def _catch_up_quiet(self, table: Table) -> None:
        async with table.lock:
            if table.copy is not None:
                await self.catch_up(table)
            else:  # let go of while quiet: read again, its watchers catch up with a whole view
                with contextlib.suppress(LookupError):
                    await self.ensure(table, watch=True)

    async def resync_all(self) -> None:
        """The channel may have dropped entries: every live table catches up from the log.
        A game that fails to (Redis failing meanwhile, an entry that does not decode) holds
        up no other; the quiet-game check tries it again."""
        failed: list[str] = []
        for table in list(self._tables.values()):
            if table.live and table.copy is not None:
                try:
                    async with table.lock:
                        await self.catch_up(table)
                except Exception as error:
                    if not failed:
                        log.warning(
                            "game %s: catching up after a pub/sub outage failed: %r", table.game_id, error
                        )
                    failed.append(table.game_id)
        if len(failed) > 1:
            log.warning("%d games failed to catch up after a pub/sub outage", len(failed))
