"""Moves: one action of a seat applied to its game, once per action id, whatever the races.

Any process may serve any game. A move is decided on this process's copy of the game
(no read from Redis: :func:`packplay.table.decide.decide`) and committed with one script
that compares and sets the version: two processes racing on one game never both win.
The loser applies the entries it missed (the commit script returns them) and decides
again: the action still applies when its seat faces the same decision as before (see
:mod:`packplay.table.decisions`), else it is rejected as stale.

Whoever needs to hear of a version this process made subscribes: the house to the versions
of games with house seats (it decides its seats there, :meth:`Moves.on_house_commit`), the
tournaments to the games that end (they record the result at once, :meth:`Moves.on_finish`).
A game with neither calls nobody.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from packplay.server.play.errors import GameMissing, GameNotStarted
from packplay.server.play.local_games import LocalGame, LocalGames
from packplay.server.settings import Settings
from packplay.server.storage.errors import StorageUnavailable
from packplay.server.storage.games import GameStore, answer_field, snapshot_due
from packplay.table import decisions
from packplay.table.decide import decide, rejected, same_or_duplicate, seat_limited
from packplay.table.game_copy import GameCopy, Step, digest
from packplay.table.records import Answer, Commit, Rate
from packplay_protocol.errors import RejectReason
from packplay_protocol.from_client import Act

MAX_ATTEMPTS = 8
Committed = Callable[[GameCopy], None]
"""Told of a version this process made, with the copy at that version."""
Answered = Callable[[str, str, float], None]
"""Told of each client's action answered: the game, the outcome, the seconds it took."""


class Moves:
    """One per process: applies actions to the games it holds (see :class:`LocalGames`)."""

    def __init__(
        self, store: GameStore, games: LocalGames, settings: Settings, now: Callable[[], float]
    ) -> None:
        self.store = store
        self.games = games
        self.settings = settings
        self.now = now
        self.seat_limit = Rate(settings.actions_per_second, settings.action_burst)
        self.grace = settings.house_grace
        self.snapshot_every = settings.snapshot_every
        self._house: list[Committed] = []
        self._finished: list[Committed] = []
        self.answered: Answered | None = None

    def on_house_commit(self, hear: Committed) -> None:
        """Tell ``hear`` of every version this process makes (a start, a move, a timeout) of a
        game with house seats."""
        self._house.append(hear)

    def on_finish(self, hear: Committed) -> None:
        """Tell ``hear`` of every game whose last version this process makes."""
        self._finished.append(hear)

    def made(self, copy: GameCopy) -> None:
        """This process made ``copy``'s version: tell whoever listens."""
        if copy.meta.house:
            for hear in self._house:
                hear(copy)
        if copy.status == "finished":
            for hear in self._finished:
                hear(copy)

    async def submit(self, game_id: str, seat: int, act: Act) -> Answer:
        """A client's action: :meth:`act`, its answer counted by game and outcome."""
        started = time.perf_counter()
        answer = await self.act(game_id, seat, act)
        if self.answered is not None:
            held = self.games.held(game_id)
            game = held.copy.meta.config.game if held is not None and held.copy is not None else "unknown"
            outcome = "accepted" if answer.accepted else (answer.reason or "rejected")
            self.answered(game, outcome, time.perf_counter() - started)
        return answer

    async def act(self, game_id: str, seat: int, act: Act, timed_out: bool = False) -> Answer:
        """Apply one action of ``seat``, once per action id, whatever the races."""
        game = self.games.get(game_id)
        action_digest = digest(act.action)
        limit = None if timed_out else self.seat_limit
        async with game.lock:
            for _ in range(MAX_ATTEMPTS):
                try:
                    copy = await self.games.ensure(game)
                except GameMissing:
                    return rejected(RejectReason.NOT_FOUND, "no such game", 0)
                except GameNotStarted:
                    return rejected(RejectReason.NOT_STARTED, "the game is waiting for players", 0)
                if act.version > copy.version:
                    await self.games.catch_up(game)  # the client saw a version this copy has not yet
                    copy = game.copy or copy
                decided = decide(copy, seat, act, action_digest, self.now(), timed_out)
                if isinstance(decided, Answer):
                    return await self._remember(game_id, seat, act.action_id, decided, limit)
                answer = await self._commit(game, copy, decided, limit)
                if answer is not None:
                    return answer
        version = 0 if game.copy is None else game.copy.version
        return rejected(RejectReason.STALE_VERSION, "the game moved on; decide again", version)

    async def _commit(self, game: LocalGame, copy: GameCopy, step: Step, limit: Rate | None) -> Answer | None:
        """Commit a step: the answer, or None when another version came first (decide again)."""
        finished = step.status == "finished"
        wake = None if finished else decisions.wake(copy.meta, step.decisions, step.pending, self.grace)
        commit = Commit(
            game_id=copy.game_id,
            expected=copy.version,
            status=step.status,
            # The state is encoded for Redis only when a snapshot is due: the log entry is the truth.
            state=step.state_bytes if snapshot_due(step.version, finished, self.snapshot_every) else None,
            decisions=decisions.encode(step.decisions),
            entry=step.entry,
            entry_bytes=step.entry_bytes,
            ttl=self.settings.finished_ttl if finished else self.settings.active_ttl,
            answer=step.answer,
            deadline=wake,
            limit=limit,
        )
        try:
            result = await self.store.commit(commit)
        except StorageUnavailable:
            # Whether Redis applied it is unknown: read the game again before the next move.
            # (A client told "unavailable" sends the action again and gets the true answer.)
            game.let_go(keep_views=True)
            raise
        if result.outcome == "ok":
            game.advance(step)
            self.made(game.copy or copy)
            return step.answer
        if result.outcome == "duplicate" and result.previous is not None:
            if result.previous.accepted and result.previous.version > copy.version:
                await self.games.catch_up(game)  # it was applied, unseen here: bring watchers along
            return same_or_duplicate(result.previous, step.answer.digest)
        if result.outcome == "missing":
            game.copy = None
            return rejected(RejectReason.NOT_FOUND, "the game is gone", 0)
        if result.outcome == "limited":
            return seat_limited(result.wait, copy.version)
        await self.games.catch_up(game, result.missed, result.version)
        return None

    async def _remember(
        self, game_id: str, seat: int, action_id: str, answer: Answer, limit: Rate | None
    ) -> Answer:
        if not answer.digest or answer.accepted:
            return answer
        field, most = answer_field(seat, action_id), self.settings.refusals_per_seat
        stored = await self.store.remember(game_id, seat, field, answer, limit, most)
        return seat_limited(stored, answer.version) if isinstance(stored, int) else stored
