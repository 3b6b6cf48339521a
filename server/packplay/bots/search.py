"""Search over hidden information: determinized Monte Carlo with the rules' own engine.

A seat does not know the whole state, only its view. Each iteration samples a whole
state the view could come from (a *world*: the hidden cards drawn from the set's
boosters, see :mod:`.priors`), plays every candidate action in that world with the
engine, and plays on to the end (or to a cut-off judged by the game's own
evaluation) with a fast policy that knows the game. Every candidate meets the same
worlds and the same rollout draws (common random numbers), so their comparison is
paired and tight with few samples; after each round, candidates far behind the best
are dropped (successive halving) so that the budget goes where the choice is close.

The result is the action with the best mean value for the seat: a win is 1, a loss 0;
in games of three or more a shared win counts its share and the score's rank breaks
ties, so that a seat which cannot win still plays for second place.

A game takes part through a :class:`Model`: how to sample a world from a view, which
actions to compare, how rollouts play, how a cut-off is judged.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from packplay.bots.budget import Budget
from packplay.bots.memory import Memory
from packplay.games.base import Game, GameState, RuleError, clone
from packplay.rng import SEED_BITS, Rng
from packplay_protocol.games.common import GameResult, LegalActions
from packplay_protocol.to_client import ViewMessage

S = TypeVar("S", bound=GameState)
RANK_WEIGHT = 0.1
"""How much the score's rank counts beside the win in games of three or more."""
KEEP_MARGIN = 0.15
"""A candidate more than this far below the best mean (after enough samples) is dropped."""
PRUNE_AFTER = 4
"""Samples every candidate gets before any is dropped."""


class Model(Protocol[S]):
    """One game's part in the search, for one seat."""

    engine: Game[S]

    def world(self, message: ViewMessage, memory: Memory, rng: Rng) -> S:
        """A whole state consistent with what ``message`` shows (and ``memory`` tells),
        the hidden cards drawn with ``rng``; nothing the seat may not know is used."""
        ...

    def candidates(self, message: ViewMessage, memory: Memory) -> Sequence[Any]:
        """The actions worth comparing (every legal action, or a short list of the best
        fills of a choice)."""
        ...

    def policy(self, state: S, seat: int, legal: LegalActions[Any], rng: Rng) -> Any:
        """A rollout's action for ``seat`` in a whole state (fast; may use the world)."""
        ...

    def value(self, state: S, seat: int) -> float:
        """How good an unfinished ``state`` is for ``seat``, in [0, 1] (a rollout's cut-off)."""
        ...


def reward(result: GameResult, seat: int) -> float:
    """The seat's value of a finished game in [0, 1]: its share of the win, and in games of
    three or more, a tenth for the rank of its score."""
    players = len(result.scores)
    win = 1.0 / len(result.winners) if seat in result.winners else 0.0
    if players <= 2:
        return 0.5 if result.draw else win
    mine = float(result.scores[seat])
    below = sum(1 for score in result.scores if float(score) < mine)
    return (1 - RANK_WEIGHT) * win + RANK_WEIGHT * below / (players - 1)


@dataclass
class Tally:
    """One candidate's record over the worlds it was played in."""

    action: Any
    total: float = 0.0
    samples: int = 0

    @property
    def mean(self) -> float:
        return self.total / self.samples if self.samples else 0.0


class Search(Generic[S]):
    """Chooses one action for ``seat`` by playing its candidates in sampled worlds."""

    def __init__(self, model: Model[S], rng: Rng, budget: Budget, depth: int) -> None:
        self.model, self.rng, self.budget, self.depth = model, rng, budget, depth

    def choose(self, message: ViewMessage, memory: Memory) -> Any:
        assert message.seat is not None
        candidates = list(self.model.candidates(message, memory))
        if len(candidates) == 1:
            return candidates[0]
        tallies = [Tally(action) for action in candidates]
        clock, worlds = self.budget.clock(), 0
        while clock.more(worlds):
            world = self.model.world(message, memory, self.rng)
            seed = self.rng.below(1 << SEED_BITS)
            for tally in tallies:
                value = self.play(world, message.seat, tally.action, seed)
                if value is not None:
                    tally.total += value
                    tally.samples += 1
            worlds += 1
            tallies = self.prune(tallies, worlds)
        return max(tallies, key=lambda t: (t.mean, t.samples)).action

    def play(self, world: S, seat: int, action: Any, seed: int) -> float | None:
        """The seat's value of playing ``action`` in ``world`` and rolling out (None: the
        action is not legal in that world)."""
        engine = self.model.engine
        state = clone(world)
        try:
            engine.apply(state, seat, action, copy=False)
        except RuleError:
            return None
        rng = Rng(seed)
        for _ in range(self.depth):
            result = engine.result(state)
            if result is not None:
                return reward(result, seat)
            pending = engine.pending(state)
            mover = pending[rng.below(len(pending))]
            legal = engine.legal_actions(state, mover)
            engine.apply(state, mover, self.model.policy(state, mover, legal, rng), copy=False)
        result = engine.result(state)
        return reward(result, seat) if result is not None else self.model.value(state, seat)

    @staticmethod
    def prune(tallies: list[Tally], worlds: int) -> list[Tally]:
        """Drop candidates well behind the best once each had a few samples; the margin
        narrows as samples grow (about one over the root of the samples)."""
        if worlds < PRUNE_AFTER or len(tallies) <= 2:
            return tallies
        sampled = [t for t in tallies if t.samples]
        if not sampled:
            return tallies
        best = max(t.mean for t in sampled)
        margin = max(KEEP_MARGIN * 2 / math.sqrt(worlds), 0.02)
        kept = [t for t in tallies if t.samples == 0 or t.mean >= best - margin]
        return kept if len(kept) >= 2 else sorted(tallies, key=lambda t: -t.mean)[:2]
