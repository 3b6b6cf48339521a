"""The games this process serves: each one's copy, its local watchers, and what they hold.

A local game is one game as this process holds it. Its lock orders everything that
moves the copy or reads it for a client: a local move and its commit, another
process's entry, a watcher joining. After each step the local game renders the update
once per audience that has a local watcher (the events it may see and the patch of its
view message) and hands it to every watcher of that audience.

A local game is a cache: dropping it costs one read from Redis. Those with watchers
stay; up to ``idle_limit`` others are kept, least recently used first out. Only a game
with watchers is sent the entries of other processes (it is *live*); any other copy may
be behind, which the version compare-and-set of every commit catches.
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
from packplay.server.play import history
from packplay.server.play.errors import GameMissing, GameNotStarted, Refused
from packplay.server.storage.games import GameStore
from packplay.table import rendering
from packplay.table.game_copy import GameCopy, Step
from packplay.table.rebuild import rebuild
from packplay.table.records import LogEntry, Snapshot, decode_entry
from packplay.table.rendering import Change, Frames, HeldViews, ViewDoc
from packplay_protocol.errors import ErrorCode

log = logging.getLogger(__name__)


class Watcher(Protocol):
    """A connection following a game."""

    def deliver(self, frames: Frames) -> None:
        """The messages of a new version (never waits)."""

    def resync(self) -> None:
        """Versions may have been skipped: catch up."""


class LocalGame:
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
        copy.advance(step)
        self.last_active = time.monotonic()
        over = rendering.game_over(copy) if step.status == "finished" else None
        change = self.views.change(copy, step)
        for audience, watchers in self.watchers.items():
            if watchers:
                frames = self._update(copy, change, step, audience, over)
                for watcher in list(watchers):
                    watcher.deliver(frames)

    def _update(
        self, copy: GameCopy, change: Change | None, step: Step, audience: Audience, over: Any
    ) -> Frames:
        messages: list[rendering.RenderedMessage] = []
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


def _held(game: LocalGame) -> int | None:
    """The version the game's watchers hold: its copy's, or the one it was let go at."""
    return game.copy.version if game.copy is not None else game.cold_version


class LocalGames:
    """Every game of this process; the store is the only way to fill them."""

    def __init__(
        self,
        store: GameStore,
        catalog: Callable[[], Catalog],
        idle_limit: int = 10_000,
        catch_up: int = 64,
        spectators: int = 0,
    ) -> None:
        self.store = store
        self.spectators = spectators
        """Spectators one game may have here (0: any number)."""
        self._catalog = catalog
        self.idle_limit = idle_limit
        self.catch_up_versions = catch_up
        """A watcher further behind gets the whole view only (replaying a long story costs more)."""
        self._games: dict[str, LocalGame] = {}
        self._idle: OrderedDict[str, None] = OrderedDict()
        """The games without watchers, least recently used first (the ones that may go)."""
        self._pending: set[asyncio.Task[None]] = set()
        """Entries waiting for their game's lock."""

    def __len__(self) -> int:
        return len(self._games)

    @property
    def watched(self) -> int:
        return len(self._games) - len(self._idle)

    def held(self, game_id: str) -> LocalGame | None:
        """The game as this process holds it, if it does (none is made)."""
        return self._games.get(game_id)

    def get(self, game_id: str) -> LocalGame:
        game = self._games.get(game_id)
        if game is None:
            game = self._games[game_id] = LocalGame(game_id)
            self._idle[game_id] = None
            self._evict()
        elif game_id in self._idle:
            self._idle.move_to_end(game_id)
        return game

    def _evict(self) -> None:
        while len(self._idle) > self.idle_limit:
            game_id = next(iter(self._idle))
            game = self._games[game_id]
            if game.lock.locked():
                self._idle.move_to_end(game_id)  # in use: it goes later
                return
            del self._idle[game_id], self._games[game_id]

    def _watched(self, game: LocalGame) -> None:
        self._idle.pop(game.game_id, None)

    def _unwatched(self, game: LocalGame) -> None:
        if game.finished:
            self._games.pop(game.game_id, None)  # nobody will ask for it again
            self._idle.pop(game.game_id, None)
        else:
            self._idle[game.game_id] = None
            self._evict()

    # loading (callers hold the game's lock)

    async def ensure(self, game: LocalGame, watch: bool = False) -> GameCopy:
        """The game's copy, read from Redis when missing, or when becoming live.

        With ``watch`` this process joins the game's watcher set in the same script
        that reads the game, so that no entry falls between the read and the next one
        sent.

        Raises:
            GameMissing: no such game.
            GameNotStarted: the game waits for players.
        """
        if game.copy is not None and (game.live or not watch):
            return game.copy
        game.joining = watch
        try:
            return await self._read(game, watch)
        finally:
            game.joining = False

    async def _read(self, game: LocalGame, watch: bool) -> GameCopy:
        if game.copy is not None and await self.store.watch(game.game_id) == game.copy.version:
            game.live = True  # what this process holds is current: no need to read it again
            return game.copy
        snapshot = await self.store.load(game.game_id, watch=watch)
        if snapshot is None:
            game.copy = None
            raise GameMissing(game.game_id)
        current = game.copy
        held = current.version if current is not None else game.cold_version
        if held == snapshot.version and current is None:
            game.copy = self.copy_of(snapshot)  # the watchers hold this version already
            game.cold_version = None
        elif current is None or current.version != snapshot.version:
            # A jump to another version: watchers holding the old one catch up with a whole view.
            game.reset(self.copy_of(snapshot))
        if game.copy is None:
            raise GameNotStarted(game.game_id)
        game.live = game.live or watch
        return game.copy

    def copy_of(self, snapshot: Snapshot) -> GameCopy | None:
        """The game at the snapshot's version: its log entries applied to its state."""
        return rebuild(snapshot, get_game(snapshot.meta.config.game), self._catalog())

    async def catch_up(
        self, game: LocalGame, missed: tuple[bytes, ...] = (), until: int | None = None
    ) -> None:
        """Apply the entries this copy has not seen, in order: ``missed`` first (what
        a lost commit race brought back), then what the log holds beyond, up to ``until``
        when it is known; read the game again if an entry does not decode or apply."""
        try:
            newer = [decode_entry(raw) for raw in missed]
        except msgspec.DecodeError:
            await self._log_unreadable(game)
            return
        for entry in newer:
            if not self._apply_newer(game, entry):
                await self._reload(game)
                return
        copy = game.copy
        if copy is not None and until is not None and copy.version > until:
            # Redis is behind this copy: a failover lost writes no replica had acknowledged
            # (this process saw them sent). The game goes on from what Redis holds.
            log.warning(
                "game %s: Redis is at version %d, behind this process's %d: reading it again",
                game.game_id, until, copy.version,
            )  # fmt: skip
            await self._reload(game)
            return
        if copy is None or (until is not None and copy.version >= until):
            return
        try:
            entries = await self.store.entries(game.game_id, copy.version)
        except msgspec.DecodeError:
            await self._log_unreadable(game)
            return
        for entry, _ in entries:
            if not self._apply_newer(game, entry):
                await self._reload(game)
                return

    async def _log_unreadable(self, game: LocalGame) -> None:
        """An entry of the log does not decode (written by a newer release, or damaged): the
        game's stored state still holds it, and its watchers catch up with a whole view."""
        log.warning("game %s: its log does not decode: reading the game again", game.game_id)
        await self._reload(game)

    def _apply_newer(self, game: LocalGame, entry: LogEntry) -> bool:
        copy = game.copy
        return copy is not None and (entry.version <= copy.version or self._apply(game, entry))

    def _apply(self, game: LocalGame, entry: LogEntry) -> bool:
        copy = game.copy
        if copy is None or entry.version != copy.version + 1:
            return False
        try:
            step = copy.step_entry(entry)
        except (RuleError, msgspec.ValidationError, ValueError):
            log.exception(
                "game %s: entry %s does not apply to this process's copy", game.game_id, entry.version
            )
            return False
        game.advance(step)
        return True

    async def _reload(self, game: LocalGame) -> None:
        snapshot = await self.store.load(game.game_id, watch=game.live)
        game.reset(None if snapshot is None else self.copy_of(snapshot))

    # watchers

    async def watch(self, game_id: str, watcher: Watcher, audience: Audience, since: int | None) -> Frames:
        """Follow a game from now on: the messages that bring ``watcher`` to its version.

        Raises:
            Refused: ``not_found``; ``out_of_order`` while the game waits for players;
                ``game_full`` for a spectator of a game that has as many as it may.
        """
        game = self.get(game_id)
        if audience is None and 0 < self.spectators <= len(game.watchers.get(None, ())):
            raise Refused(ErrorCode.GAME_FULL, "the game has as many spectators as this server allows")
        async with game.lock:
            try:
                copy = await self.ensure(game, watch=True)
            except GameMissing as missing:
                raise Refused(ErrorCode.NOT_FOUND, f"no game {game_id}") from missing
            except GameNotStarted as waiting:
                raise Refused(ErrorCode.OUT_OF_ORDER, "the game is waiting for players") from waiting
            game.add(watcher, audience)
            self._watched(game)
            return await self._caught_up(game, copy, audience, since)

    async def resume(self, game_id: str, audience: Audience, since: int | None) -> Frames:
        """The messages that bring a watcher from ``since`` to the current version.

        Raises:
            Refused: ``not_found``.
        """
        game = self.get(game_id)
        async with game.lock:
            try:
                copy = await self.ensure(game, watch=game.watched)
            except (GameMissing, GameNotStarted) as missing:
                raise Refused(ErrorCode.NOT_FOUND, f"no game {game_id}") from missing
            return await self._caught_up(game, copy, audience, since)

    async def _caught_up(
        self, game: LocalGame, copy: GameCopy, audience: Audience, since: int | None
    ) -> Frames:
        messages: list[rendering.RenderedMessage] = []
        behind = copy.version - since if since is not None else 0
        if since is not None and since >= -1 and 0 < behind <= self.catch_up_versions:
            events = await history.events_between(self.store, copy, since, audience)
            messages.append(rendering.events_message(game.game_id, since, copy.version, events))
        messages.append(rendering.whole_view(game.doc(audience), copy.version))
        over = rendering.game_over(copy)
        if over is not None:
            messages.append(over)
        return Frames(copy.version, messages)

    async def unwatch(self, game_id: str, watcher: Watcher) -> None:
        game = self._games.get(game_id)
        if game is None:
            return
        game.remove(watcher)
        if game.watched:
            return
        self._unwatched(game)
        # Under the lock, so that leaving the watcher set and joining it again (a watch
        # waiting for the lock) reach Redis in that order, whichever connections they take.
        async with game.lock:
            if game.live and not game.watched:
                game.live = False
                with contextlib.suppress(Exception):
                    await self.store.unwatch(game_id)

    # entries from other processes

    def receive(self, game_id: str, raw_entry: bytes) -> None:
        """Another process committed a version of a game this process watches."""
        game = self._games.get(game_id)
        if game is None or not (game.live or game.joining):
            return
        entry = decode_entry(raw_entry)
        if game.joining:  # after the read that joins: it may not hold this entry
            self._later(game, entry)
            return
        if game.copy is None:  # let go of: read it again, then go on from there
            if game.watched:
                self._later(game, entry)
            return
        if entry.version <= game.copy.version:
            return
        if not game.lock.locked() and self._apply(game, entry):
            return
        self._later(game, entry)

    def _later(self, game: LocalGame, entry: LogEntry) -> None:
        task = asyncio.create_task(self._receive_later(game, entry))
        self._pending.add(task)  # held: the loop keeps only a weak reference to a task
        task.add_done_callback(self._pending.discard)

    async def _receive_later(self, game: LocalGame, entry: LogEntry) -> None:
        try:
            await self._receive_in_turn(game, entry)
        except Exception as error:  # a task of its own: nobody else would hear of it
            log.warning(
                "game %s: catching up to version %d failed (%r); the quiet-game check tries again",
                game.game_id, entry.version, error,
            )  # fmt: skip

    async def _receive_in_turn(self, game: LocalGame, entry: LogEntry) -> None:
        async with game.lock:
            copy = game.copy
            if copy is None and game.watched:
                with contextlib.suppress(LookupError):
                    copy = await self.ensure(game, watch=True)
            if copy is None or entry.version <= copy.version:
                return
            if entry.version == copy.version + 1 and self._apply(game, entry):
                return
            await self.catch_up(game)

    def cool(self, idle_seconds: float) -> int:
        """Let go of every watched game without a move for ``idle_seconds``; how many."""
        quiet_since = time.monotonic() - idle_seconds
        cooled = 0
        for game in list(self._games.values()):
            if game.copy is not None and game.last_active < quiet_since and not game.lock.locked():
                game.let_go()
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
            (game, held)
            for game in self._games.values()
            if game.live and game.watched and game.last_active <= quiet_since
            and (held := _held(game)) is not None
        ]  # fmt: skip
        if not quiet:
            return 0
        stored = await self.store.versions([game.game_id for game, _ in quiet])
        behind = [
            game
            for (game, held), version in zip(quiet, stored, strict=True)
            if version is not None and version > held
        ]
        caught_up = 0
        for game in behind:
            try:
                await self._catch_up_quiet(game)
            except Exception as error:  # one game that fails holds up no other; the next check tries again
                log.warning("game %s: a quiet game failed to catch up: %r", game.game_id, error)
            else:
                caught_up += 1
        return caught_up

    async def _catch_up_quiet(self, game: LocalGame) -> None:
        async with game.lock:
            if game.copy is not None:
                await self.catch_up(game)
            else:  # let go of while quiet: read again, its watchers catch up with a whole view
                with contextlib.suppress(LookupError):
                    await self.ensure(game, watch=True)

    async def resync_all(self) -> None:
        """The channel may have dropped entries: every live game catches up from the log.
        A game that fails to (Redis failing meanwhile, an entry that does not decode) holds
        up no other; the quiet-game check tries it again."""
        failed: list[str] = []
        for game in list(self._games.values()):
            if game.live and game.copy is not None:
                try:
                    async with game.lock:
                        await self.catch_up(game)
                except Exception as error:
                    if not failed:
                        log.warning(
                            "game %s: catching up after a pub/sub outage failed: %r", game.game_id, error
                        )
                    failed.append(game.game_id)
        if len(failed) > 1:
            log.warning("%d games failed to catch up after a pub/sub outage", len(failed))
