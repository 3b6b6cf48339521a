"""Arena games in-process: the pure engine behind a copy, each seat fed its wire messages."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from packplay.arena.feed import SeatFeed, wire_action
from packplay.arena.seating import Seating
from packplay.arena.stats import SeatOutcome
from packplay.bots.budget import Budget
from packplay.bots.registry import BotFactory
from packplay.games.base import GameConfig, RuleError
from packplay.games.registry import get_game
from packplay.table.game_copy import GameCopy
from packplay.table.records import GameMeta
from packplay_clients.bots import Bot
from packplay_protocol.errors import DecodeError
from packplay_protocol.games.common import GameResult

MAX_STEPS = 20_000


class ArenaError(RuntimeError):
    """A bot broke the game (an action the rules or the codec refuse, or no end)."""


def observes(bot: Bot) -> bool:
    return callable(getattr(bot, "observe", None))


class EngineTable:
    """One game played in-process, every seat by its bot."""

    def __init__(
        self,
        game: str,
        seating: Seating,
        factories: dict[str, BotFactory],
        budget: Budget | None,
        catalog: Any,
        options: dict[str, Any] | None = None,
    ) -> None:
        self.engine = get_game(game)
        players = len(seating.bots)
        config = GameConfig(game=game, players=players, options=dict(options or {}))
        state = self.engine.setup(config, seating.seed, catalog)
        meta = GameMeta(id=f"arena-{seating.index}", config=config, seed=seating.seed, created=0.0)
        self.copy = GameCopy.dealt(meta, self.engine, state, now=0.0)
        self.seating = seating
        self.bots: list[Bot] = [
            factories[name](seating.bot_seed(seat), budget) for seat, name in enumerate(seating.bots)
        ]
        self.feeds = [SeatFeed(self.copy, seat, follow=observes(bot)) for seat, bot in enumerate(self.bots)]
        self.decisions = [0] * players
        self.seconds = [0.0] * players
        self.times: list[list[float]] = [[] for _ in range(players)]

    def play(self) -> tuple[GameResult, int]:
        """Play to the end; the result and the number of steps.

        Raises:
            ArenaError: a bot's action was refused, or the game did not end.
        """
        for _ in range(MAX_STEPS):
            result = self.engine.result(self.copy.state)
            if result is not None:
                return result, self.copy.version
            self.turn(self.seating.order(self.engine.pending(self.copy.state)))
        raise ArenaError(f"the game did not end within {MAX_STEPS} actions")

    def turn(self, seat: int) -> None:
        copy, bot = self.copy, self.bots[seat]
        view = self.feeds[seat].view(copy)
        started = time.perf_counter()
        chosen = bot.choose(view)
        took = time.perf_counter() - started
        self.seconds[seat] += took
        self.times[seat].append(took)
        self.decisions[seat] += 1
        action = wire_action(chosen, copy.version, f"{seat}-{copy.version}")
        if isinstance(action, DecodeError):
            raise ArenaError(f"{self._who(seat)} sent what no client can: {action.message}")
        try:
            step = copy.step(seat, action, f"{seat}-{copy.version}", at=0.0)
        except RuleError as error:
            raise ArenaError(f"{self._who(seat)} played a refused action: {error}") from error
        copy.advance(step)
        for feed, other in zip(self.feeds, self.bots, strict=True):
            update = feed.update(copy, step)
            if update is not None:
                other.observe(update.version, update.events)  # type: ignore[attr-defined]

    def _who(self, seat: int) -> str:
        return f"{self.seating.bots[seat]} (seat {seat}, game {self.seating.index}, seed {self.seating.seed})"

    def outcomes(self, result: GameResult) -> list[SeatOutcome]:
        return seat_outcomes(result, self.seating.bots, self.decisions, self.seconds, self.times)


def seat_outcomes(
    result: GameResult,
    bots: Sequence[str],
    decisions: Sequence[int],
    seconds: Sequence[float],
    times: Sequence[Sequence[float]] = (),
) -> list[SeatOutcome]:
    """Each seat's outcome: a win (shared when several seats but not all won), a draw, a loss."""
    shared = len(result.winners) > 1 and not result.draw
    return [
        SeatOutcome(
            bot=name,
            seat=seat,
            won=seat in result.winners and not result.draw,
            shared=shared and seat in result.winners,
            draw=result.draw,
            score=result.scores[seat] if seat < len(result.scores) else 0.0,
            decisions=decisions[seat],
            seconds=seconds[seat],
            times=tuple(times[seat]) if seat < len(times) else (),
        )
        for seat, name in enumerate(bots)
    ]
