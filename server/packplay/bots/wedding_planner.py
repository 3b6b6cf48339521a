"""The strong Vampire Wedding Planner bot.

Strategy. Only the bot's own hand counts for its score, and it knows its theme, so it
plays to end with the best hand it can. The draw pile is hidden: the bot samples it
(determinization) from fresh boosters of the set, one per seat, less every card it
has seen (its hand and theme, the discard pile, the cards others took face up), and
reads from that pool the odds that a drawn card scores for it. A hand is worth its
score (WP-1, WP-2, the rules' own scoring) plus what the turns left can still mend:
each turn can swap one card that scores -1 for a drawn card, worth +2 when the draw
scores (odds from the pool) and nothing when it does not. Each pick-up is judged by
the best hand it allows after the discard: a take of the discard pile exactly (every
card above it comes along, WP-3), a draw on average over the pool. Between equal
discards the bot gives away the card least useful to others (no artifact, foil or land).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from packplay.bots.budget import Budget
from packplay.bots.memory import Memory
from packplay.bots.priors import CardPrior, SampledStrategy, facts_of
from packplay.games.wedding_planner.scoring import is_shiny, on_theme, score_hand
from packplay_protocol.cards import Card, CardInstance
from packplay_protocol.games.wedding_planner import Discard, Take, View
from packplay_protocol.to_client import ViewMessage

SWAP_GAIN = 2.0
"""A -1 card swapped for a scoring one."""
Kind = tuple[bool, bool, bool]
"""What decides a card's score for the bot: on its theme, shiny, a land."""


class WeddingPlannerStrategy(SampledStrategy):
    default_set = "VOW"

    def choose(self, message: ViewMessage, memory: Memory) -> Any:
        view = message.view
        assert isinstance(view, View) and view.viewer is not None
        plan = Plan(view, message.cards, self.prior(message.cards), self.budget)
        if view.phase == "discard":
            return Discard(card=plan.discard())
        return plan.pickup(message.legal.actions)


class Plan:
    def __init__(
        self, view: View, cards: Mapping[str, CardInstance], prior: CardPrior, budget: Budget
    ) -> None:
        assert view.viewer is not None
        me = view.seats[view.viewer]
        self.seat = view.viewer
        self.cards = cards
        self.hand = facts_of(me.cards, cards)
        self.theme: Card | None = cards.get(me.theme) if me.theme else None
        left = view.turns_per_player - me.turns_taken - 1
        self.turns_left = max(left, 0)
        self.discard_pile = [cards[card_id] for card_id in view.discard]
        self.draws = self._draw_odds(view, prior, budget)
        self.good_odds = sum(p for (themed, shiny, _), p in self.draws.items() if themed or shiny)

    def _draw_odds(self, view: View, prior: CardPrior, budget: Budget) -> dict[Kind, float]:
        """How likely a drawn card is of each kind, from sampled pools of unseen cards."""
        seen: list[Card] = [*self.hand, *self.discard_pile]
        if self.theme is not None:
            seen.append(self.theme)
        for seat in view.seats:
            if seat.seat != self.seat:
                seen += facts_of(seat.cards, self.cards)
        self.examples: dict[Kind, CardInstance] = {}
        counts: dict[Kind, float] = defaultdict(float)
        clock, samples = budget.clock(), 0
        while clock.more(samples) and samples < max(1, budget.samples // 8):
            pool = prior.hidden(seen, view.players, view.players * 15)
            unseen = max(len(pool) - len(seen), 1)
            for card in pool[:unseen]:
                kind = self.kind(card)
                counts[kind] += 1 / unseen
                self.examples.setdefault(kind, card)
            samples += 1
        total = sum(counts.values()) or 1.0
        return {kind: count / total for kind, count in counts.items()}

    def kind(self, card: CardInstance) -> Kind:
        return on_theme(card, self.theme), is_shiny(card), card.is_land

    def worth(self, hand: Sequence[CardInstance], turns: int) -> float:
        """The hand's score, plus what ``turns`` more turns can mend of its -1 cards."""
        score = score_hand(self.seat, hand, self.theme)
        return score.total + SWAP_GAIN * self.good_odds * min(turns, score.penalty)

    def best_discard(self, hand: Sequence[CardInstance]) -> tuple[float, CardInstance]:
        """The best hand left by one discard, and the card to give."""
        options = []
        for card in hand:
            rest = [other for other in hand if other.id != card.id]
            options.append((self.worth(rest, self.turns_left) - 0.01 * self.usefulness(card), card))
        return max(options, key=lambda option: option[0])

    @staticmethod
    def usefulness(card: CardInstance) -> float:
        """How much a discarded card may help the next seats (any theme shares colors)."""
        return 1.0 * is_shiny(card) + 0.5 * card.is_land + 0.3 * bool(card.colors)

    def discard(self) -> str:
        return self.best_discard(self.hand)[1].id

    def pickup(self, actions: Sequence[Any]) -> Any:
        def value(action: Any) -> float:
            if isinstance(action, Take):
                index = next(i for i, card in enumerate(self.discard_pile) if card.id == action.card)
                return self.best_discard([*self.hand, *self.discard_pile[index:]])[0]
            return sum(
                odds * self.best_discard([*self.hand, self.examples[kind]])[0]
                for kind, odds in self.draws.items()
            )

        return max(actions, key=value)
