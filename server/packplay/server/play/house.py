"""The house: seats the server plays itself, each with a built-in bot.

Who decides. A house seat's decision is made by the process that committed the version
where that decision began (a player's move, the start, a timeout, the house's own
move): the commit hands it here, and the bot's action is played through
:meth:`Moves.act <packplay.server.play.moves.Moves.act>` like any client's, with the
same validation and the same turn clock. The game's clock entry is due when a house
decision has waited ``house_grace`` seconds, so that if that process dies first, the
clock sweep of any other process makes the decision (the one whose claim on the entry
wins; see :meth:`~packplay.server.storage.games.GameStore.claim_clock`).

What it sees. A process that plays a house seat follows the seat's audience as a
connection does (a :class:`SeatFollower` among its local game's watchers): it keeps the frames
a MessagePack client of that seat receives (updates, and the events message of a
catch-up), and renders the seat's whole view once, at its first decision (again only
after a gap). Each decision sends the seat's worker the frames it has not had yet
(:mod:`~packplay.server.play.house_decisions`), where the bot is built afresh from
those bytes, decoded by the protocol's codec, and a seed of its own: it is handed
nothing else. The same inputs give the same action in any process, and the action id
names the decision, so a decision made twice is played once.

CPU. The levels' decisions run in the house's worker processes
(:mod:`~packplay.server.play.house_workers`, ``house_processes`` of them, started and
stopped with the server), never in the process that serves sockets, each within its
level's budget capped by ``house_seconds`` and a quarter of the turn clock. The inputs
are bytes and plain values, so a worker gets them as they are; what is left here is
playing the action, what a client's move costs. A worker that dies is replaced and
its decision made again. Only ``random`` and ``first`` decide here, in microseconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
import logging
import secrets
import zlib
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import BrokenExecutor
from typing import Any

import msgspec

from packplay.bots.budget import Budget
from packplay.bots.levels import LEVELS
from packplay.server.play.errors import Refused
from packplay.server.play.house_decisions import RESEND, WIRE, Inputs, decide
from packplay.server.play.house_workers import HouseWorkers
from packplay.server.play.local_games import LocalGames
from packplay.server.play.moves import Moves
from packplay.server.settings import Settings
from packplay.server.storage.errors import StorageUnavailable
from packplay.server.storage.games import GameStore
from packplay.table import clocks, decisions
from packplay.table.game_copy import GameCopy
from packplay.table.records import GameMeta, Rate
from packplay.table.rendering import Frames, whole_view
from packplay_protocol import codec
from packplay_protocol.errors import RejectReason
from packplay_protocol.from_client import Act
from packplay_protocol.to_client import Events, GameOver, Update

log = logging.getLogger(__name__)
MAX_FOLLOWED = 1000
"""House seats a process follows at once; the least recently played beyond are let go
(following one again replays its events from the log, as a reconnecting client's)."""
SEED_BITS = 53
INLINE = frozenset({"random", "first"})
"""Bots that decide in microseconds, on the event loop (the thread hop would cost more)."""
_SETTLED = {RejectReason.STALE_VERSION.value, RejectReason.GAME_OVER.value, RejectReason.DUPLICATE.value}
"""Refusals that mean the decision was made or is no longer due (never the bot's fault)."""


def wire_act(action: Any, version: int, action_id: str) -> Act:
    """The act message a client sending ``action`` would send, as the server reads it.

    Raises:
        ValueError: nothing a client could send.
    """
    try:
        frame = codec.encode(Act(action_id=action_id, version=version, action=action), WIRE)
    except (TypeError, ValueError) as error:
        raise ValueError(f"not an action: {error}") from error
    message = codec.decode_client(frame, WIRE)
    if not isinstance(message, Act):
        raise ValueError(f"not an action: {message}")
    return message


class SeatFollower:
    """The frames one house seat has been sent: a watcher of its audience on its local game.

    Its frames count from the start of one following (``follow``); ``view`` is the seat's
    whole view where frame ``base`` starts patching it, rendered at the first decision,
    and ``sent`` how many frames the seat's worker was last given.
    """

    __slots__ = (
        "base",
        "follow",
        "frames",
        "house",
        "key",
        "over",
        "sent",
        "slot",
        "stale",
        "version",
        "view",
    )

    def __init__(self, house: House, key: tuple[str, int]) -> None:
        self.house = house
        self.key = key
        self.slot = zlib.crc32(f"{key[0]}:{key[1]}".encode())
        """The worker this seat's decisions go to (the one that keeps its frames)."""
        self.frames: list[bytes] = []
        self.version = -1
        """The version the frames bring the seat to."""
        self.stale = False
        """Versions may be missing: catch up before the next decision."""
        self.over = False
        self.follow = secrets.token_hex(6)
        self.view = b""
        self.base = 0
        self.sent = 0

    def take(self, frames: Frames) -> None:
        for message, raw in zip(frames.messages, frames.encoded(WIRE), strict=True):
            if isinstance(message, Update | Events):
                self.frames.append(raw)
            elif isinstance(message, GameOver):
                self.over = True
        self.version = frames.version
        if self.over:
            self.house.let_go_later(self.key)

    def deliver(self, frames: Frames) -> None:
        if self.stale or frames.version <= self.version:
            return
        if frames.version > self.version + 1:
            self.stale = True
            return
        self.take(frames)

    def resync(self) -> None:
        self.stale = True

    def rebase(self) -> None:
        """Updates are missing after a catch-up: a new following, its view rendered again."""
        self.follow = secrets.token_hex(6)
        self.view = b""
        self.sent = 0

    def inputs(self, since: int, bot: str, seed: int, budget: Budget | None) -> Inputs:
        """The decision's inputs: the frames its worker lacks."""
        start = self.sent
        return Inputs(
            game_id=self.key[0],
            seat=self.key[1],
            since=since,
            version=self.version,
            bot=bot,
            seed=seed,
            budget=budget,
            follow=self.follow,
            start=start,
            frames=tuple(self.frames[start:]),
            view=self.view if start == 0 else b"",
            base=self.base,
        )

    def full(self, inputs: Inputs) -> Inputs:
        """``inputs`` with every frame of this following, and the view."""
        end = inputs.start + len(inputs.frames)
        return dataclasses.replace(inputs, start=0, frames=tuple(self.frames[:end]), view=self.view)


class House:
    """The house seats of the games this process plays; one per process."""

    def __init__(
        self, store: GameStore, moves: Moves, games: LocalGames, settings: Settings, now: Callable[[], float]
    ) -> None:
        self.store = store
        per_minute = settings.house_moves_per_minute
        self.moves_limit = Rate(per_minute / 60.0, max(1, round(per_minute / 10))) if per_minute > 0 else None
        """House decisions per client address, in the games it created (kept in Redis)."""
        self.limited: Callable[[str], None] = lambda limit: None
        """Told the name of each limit that held a decision back (the metrics)."""
        self.moves = moves
        self.games = games
        self.settings = settings
        self.now = now
        self.followers: OrderedDict[tuple[str, int], SeatFollower] = OrderedDict()
        self.running: set[tuple[str, int, int]] = set()
        """Decisions being made here: (game, seat, version where the decision began)."""
        self.workers = HouseWorkers(settings.house_processes)
        self._tasks: set[asyncio.Task[Any]] = set()

    async def start(self) -> None:
        """Start the worker processes (they get ready in the background)."""
        await self.workers.start()

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.workers.close()

    def _spawn(self, work: Any) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # who decides

    def committed(self, copy: GameCopy) -> None:
        """This process made ``copy``'s version: make each house decision that began there."""
        house = copy.meta.house_bots()
        if not house:
            return
        if copy.status == "finished":
            for seat in house:
                self.let_go_later((copy.game_id, seat))
            return
        for seat in copy.pending:
            if seat in house and copy.decisions[seat].since == copy.version:
                self._spawn(self.drive(copy.game_id, seat, copy.version, copy.meta.owner))

    def overdue(self, copy: GameCopy) -> list[tuple[int, int]]:
        """The house decisions of ``copy`` waiting longer than the grace and not being
        made here: (seat, version where each began)."""
        overdue = clocks.overdue_house(copy, self.now(), self.settings.house_grace)
        return [(seat, since) for seat, since in overdue if (copy.game_id, seat, since) not in self.running]

    def take_over(self, copy: GameCopy, overdue: list[tuple[int, int]]) -> None:
        for seat, since in overdue:
            self._spawn(self.drive(copy.game_id, seat, since, copy.meta.owner))

    # deciding

    async def drive(self, game_id: str, seat: int, since: int, owner: str = "") -> bool:
        """Make one house decision and play it, in its turn among the decisions of the games its
        ``owner`` (an address) created; whether an action of it was accepted."""
        key = (game_id, seat, since)
        if key in self.running:
            return False
        self.running.add(key)
        try:
            await self._turn_of(owner)
            prepared = await self.inputs(game_id, seat, since)
            if prepared is None:
                return False
            follower, inputs = prepared
            action_id = f"house-{seat}-{since}"
            try:
                act = wire_act(await self._decide(follower, inputs), inputs.version, action_id)
            except BrokenExecutor:
                log.error("game %s: the house's workers kept dying; seat %s plays its first action", *key[:2])
            except Exception:
                log.exception("game %s: the house bot of seat %s failed; it plays its first action", *key[:2])
            else:
                answer = await self.moves.act(game_id, seat, act)
                if answer.accepted or answer.reason in _SETTLED:
                    return answer.accepted
                log.warning(
                    "game %s: the house bot's action for seat %s was refused (%s); it plays its first action",
                    game_id, seat, answer.message,
                )  # fmt: skip
            return await self._first_action(game_id, seat, since)
        except (StorageUnavailable, OSError) as error:
            # Redis is away: the game's clock entry brings a sweep back to this decision.
            log.warning("game %s: the house decision of seat %s waits for Redis: %s", game_id, seat, error)
            return False
        finally:
            self.running.discard(key)

    async def _turn_of(self, owner: str) -> None:
        """Wait until ``owner``'s allowance of house decisions has room for one more."""
        if not owner or self.moves_limit is None:
            return
        while (wait := await self.store.take_house_move(owner, self.moves_limit)) > 0:
            self.limited("house_moves")
            await asyncio.sleep(wait / 1000)

    async def _first_action(self, game_id: str, seat: int, since: int) -> bool:
        game = self.games.get(game_id)
        async with game.lock:
            try:
                copy = await self.games.ensure(game)
            except LookupError:
                return False
            if not clocks.faces(copy, seat, since):
                return False
            first = decisions.default_action(copy.legal[seat])
            action = msgspec.convert(first, copy.engine.action_type)
            version = copy.version
        act = Act(action_id=f"house-{seat}-{since}-first", version=version, action=action)
        return (await self.moves.act(game_id, seat, act)).accepted

    async def inputs(self, game_id: str, seat: int, since: int) -> tuple[SeatFollower, Inputs] | None:
        """The seat's follower and the decision's inputs now (the frames its worker lacks), or
        None when the decision is no longer due."""
        key = (game_id, seat)
        for _ in range(3):
            follower = self.followers.get(key)
            try:
                if follower is None:
                    follower = self.followers[key] = SeatFollower(self, key)
                    self._evict()
                    follower.take(await self.games.watch(game_id, follower, seat, since=0))
                elif follower.stale:
                    follower.stale = False
                    follower.take(await self.games.resume(game_id, seat, follower.version))
                    follower.rebase()
            except Refused:  # the game is gone, or not started
                self.let_go_later(key)
                return None
            if follower.over:
                return None  # the game ended (the follower is let go of)
            self.followers.move_to_end(key)
            game = self.games.get(game_id)
            async with game.lock:
                copy = game.copy
                if copy is None or follower.stale or follower.version != copy.version:
                    follower.stale = True
                    continue
                if not clocks.faces(copy, seat, since):
                    return None
                if not follower.view:
                    follower.view = codec.encode_plain(whole_view(game.doc(seat), copy.version), WIRE)
                    follower.base = len(follower.frames)
                bot = copy.meta.house_bots()[seat]
                seed, budget = self._seed(copy.meta, seat, since), self._budget(copy.meta, bot)
                return follower, follower.inputs(since, bot, seed, budget)
        return None

    async def _decide(self, follower: SeatFollower, inputs: Inputs) -> Any:
        """The bot's action, in the seat's worker (``random`` and ``first`` here); the frames
        sent again in full when the worker lacks the earlier ones."""
        for attempt in (inputs, follower.full(inputs)):
            if attempt.bot in INLINE:
                chosen = decide(attempt)
            else:
                chosen = await self.workers.run(decide, attempt, slot=follower.slot)
            if chosen != RESEND:
                follower.sent = attempt.start + len(attempt.frames)
                return chosen
        raise RuntimeError("the worker could not rebuild the seat's view from all its frames")

    def _budget(self, meta: GameMeta, bot: str) -> Budget | None:
        """The level's own budget, its time capped by ``house_seconds`` and a quarter of the clock."""
        level = LEVELS.get(bot)
        if level is None:
            return None
        cap = self.settings.house_seconds
        if meta.clock is not None:
            cap = min(cap, meta.clock / 4)
        own = level.budget.seconds
        return Budget(samples=level.budget.samples, seconds=cap if own is None else min(own, cap))

    @staticmethod
    def _seed(meta: GameMeta, seat: int, since: int) -> int:
        raw = hashlib.blake2b(f"{meta.house_seed}:{seat}:{since}".encode(), digest_size=8).digest()
        return int.from_bytes(raw) >> (64 - SEED_BITS)

    # following

    def _evict(self) -> None:
        while len(self.followers) > MAX_FOLLOWED:
            key = next(iter(self.followers))
            self.let_go_later(key)

    def let_go_later(self, key: tuple[str, int]) -> None:
        """Stop following a house seat (its game is over, or it was played least recently)."""
        follower = self.followers.pop(key, None)
        if follower is not None:
            self._spawn(self.games.unwatch(key[0], follower))
