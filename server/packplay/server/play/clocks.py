"""Turn clocks: the sweep that plays a timed-out seat's default action, and hands overdue
house decisions to a live process.

Any process may run the sweep over any game: the version compare-and-set makes each
default action once, and a claim on the game's clock entry gives an overdue house
decision to one process (its own process may have died). What is due is decided by
:mod:`packplay.table.clocks`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from packplay.server.play.house import House
from packplay.server.play.local_games import LocalGames
from packplay.server.play.moves import Moves
from packplay.server.settings import Settings
from packplay.server.storage.games import GameStore
from packplay.table import clocks
from packplay_protocol.errors import RejectReason

log = logging.getLogger(__name__)


class Clocks:
    """One per process; the runtime runs :meth:`expire` every ``clock_interval``."""

    def __init__(
        self,
        store: GameStore,
        games: LocalGames,
        moves: Moves,
        house: House,
        settings: Settings,
        now: Callable[[], float],
    ) -> None:
        self.store = store
        self.games = games
        self.moves = moves
        self.house = house
        self.settings = settings
        self.now = now

    async def expire(self) -> int:
        """Play the default action of every seat whose clock ran out, and make the house
        decisions left overdue (their process may have died); the number of defaults played."""
        played = 0
        for game_id, deadline in await self.store.due_clocks(self.now()):
            played += await self._time_out(game_id, deadline)
        return played

    async def _time_out(self, game_id: str, seen: float | None = None) -> int:
        game = self.games.get(game_id)
        async with game.lock:
            try:
                copy = await self.games.ensure(game)
            except LookupError:
                await self.store.clear_clock(game_id)
                return 0
            if not game.live:
                await self.games.catch_up(game)
                copy = game.copy or copy
            due = clocks.due_actions(copy, self.now())
            overdue = self.house.overdue(copy) if copy.meta.house else []
        if overdue and not due and seen is not None:
            until = self.now() + self.settings.house_grace
            if copy.meta.clock is not None:
                until = min([until, *(copy.decisions[s].at + copy.meta.clock for s in copy.pending)])
            if await self.store.claim_clock(game_id, seen, until):
                self.house.take_over(copy, overdue)
        played = 0
        for seat, act in due:
            answer = await self.moves.act(game_id, seat, act, timed_out=True)
            if not answer.accepted and answer.reason != RejectReason.STALE_VERSION:
                # The rules refuse the default action: stop retrying it every tick.
                log.warning("game %s: default action of seat %s refused: %s", game_id, seat, answer.message)
                await self.store.clear_clock(game_id)
            played += answer.accepted
        return played
