"""Engine-only play: run a whole game with a policy, record it, and replay records."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from packplay.games.base import Emitted, Game, GameConfig
from packplay.rng import Rng
from packplay_protocol.games.common import GameResult, LegalActions

Policy = Callable[[Any, int, LegalActions[Any]], Any]
"""(state, seat, legal actions) -> action."""

MAX_STEPS = 100_000


class LoggedAction(msgspec.Struct, frozen=True):
    seat: int
    action: Any


class Playout(msgspec.Struct):
    state: Any
    log: list[LoggedAction]
    events: list[Emitted]

    @property
    def steps(self) -> int:
        return len(self.log)


def random_policy(engine: Game[Any], rng: Rng) -> Policy:
    from packplay.games.random_policy import random_action

    def choose(state: Any, seat: int, legal: LegalActions[Any]) -> Any:
        return random_action(legal, engine.action_type, rng)

    return choose


def play(engine: Game[Any], state: Any, policies: Sequence[Policy], rng: Rng) -> Playout:
    """Play until the end: among pending seats one is drawn at random to act.

    Raises:
        RuntimeError: the game did not end within ``MAX_STEPS`` actions.
    """
    log: list[LoggedAction] = []
    events: list[Emitted] = []
    for _ in range(MAX_STEPS):
        pending = engine.pending(state)
        if not pending:
            return Playout(state=state, log=log, events=events)
        seat = pending[rng.below(len(pending))]
        action = policies[seat](state, seat, engine.legal_actions(state, seat))
        transition = engine.apply(state, seat, action)
        state = transition.state
        log.append(LoggedAction(seat, action))
        events.extend(transition.events)
    raise RuntimeError(f"{engine.name} did not end within {MAX_STEPS} actions")


def replay(
    engine: Game[Any], config: GameConfig, seed: int, catalog: Any, log: Sequence[LoggedAction]
) -> Any:
    """The state reached from ``seed`` and ``config`` by applying ``log`` in order."""
    state = engine.setup(config, seed, catalog)
    for entry in log:
        state = engine.apply(state, entry.seat, entry.action).state
    return state


def outcome(engine: Game[Any], state: Any) -> GameResult:
    result = engine.result(state)
    if result is None:
        raise RuntimeError("the game is not over")
    return result
