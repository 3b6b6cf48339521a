"""The strong Day vs Night bot.

Strategy. A pair is worth +1 when it wins, -1 when it loses, 0 on a tie; the winning
card leaves for the pile, the others come back, so over the game the seat wants its
best cards in the twelve slots. The opponent's hand is hidden: each decision samples
it (determinization) from fresh boosters of the set, less the opponent's cards
already seen (its pile, discards, revealed cards, and the revealed cards it took
back), and keeps the sampled color distribution. Each card of the bot's hand is
valued by its mean outcome against that distribution: the always-winning color (W for
Day, B for Night) is worth nearly +1, the always-losing one nearly -1, R/U/G follow
the cycle against what the opponent holds; a colorless card is worth the best answer
the rest of the hand has to the card it will meet (DN-2: its replacement is chosen
after the reveal), a multicolored card its best color (DN-4). The row is the k best
cards (colorless ones valued against what stays in hand). A replacement or a
declaration made knowing the opponent's card takes the best answer, spending the
weakest card that achieves it; made blind (both sides at once, C-5), the best on
average. No deeper search: a round is a simultaneous guess, and what it leaves in
hand is already priced by the card values.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from statistics import fmean
from typing import Any

from packplay.bots.budget import Budget
from packplay.bots.memory import Memory
from packplay.bots.priors import CardPrior, SampledStrategy, facts_of
from packplay.games.day_night.colors import is_colorless
from packplay.games.day_night.colors import pair_outcome as color_outcome
from packplay_protocol.cards import Card, CardInstance, Color
from packplay_protocol.games.day_night import Declare, Place, Replace, Role, SeatView, SlotView, View
from packplay_protocol.to_client import ViewMessage

Signature = tuple[Color, ...]
"""What a card plays as: its colors, or () for a colorless card (C-2, lands included)."""
COLORLESS: Signature = ()
SPEND = 0.05
"""How much a card's own value counts against spending it: between equal answers,
the weakest card goes."""
ANSWERED = -0.5
"""A colored card against a colorless one, whose owner replaces it knowing the card."""


def signature(card: Card) -> Signature:
    return COLORLESS if is_colorless(card) else tuple(card.colors)


def outcome(mine: Color | None, theirs: Color | None, role: Role) -> int:
    """+1, 0 or -1 for the bot's card playing ``mine`` against ``theirs`` (None: a dud)."""
    day, night = (mine, theirs) if role == "day" else (theirs, mine)
    result = color_outcome(day, night)
    return 0 if result == "tie" else 1 if result == role else -1


class DayNightStrategy(SampledStrategy):
    default_set = "MID"

    def choose(self, message: ViewMessage, memory: Memory) -> Any:
        view = message.view
        assert isinstance(view, View) and view.seat is not None
        table = Table(message.cards, view, self.prior(message.cards), self.budget)
        if view.phase == "place":
            return Place(cards=table.row(view.k))
        if view.phase == "replace":
            return Replace(card=table.replacement())
        return Declare(color=table.declaration())


class Table:
    """One decision: the seat's cards, the opponent's color distribution, the values."""

    def __init__(
        self, cards: Mapping[str, CardInstance], view: View, prior: CardPrior, budget: Budget
    ) -> None:
        assert view.seat is not None and view.role is not None
        self.cards, self.view, self.role = cards, view, view.role
        self.me: SeatView = view.seats[view.seat]
        self.them: SeatView = view.seats[1 - view.seat]
        self.hand = [cards[card_id] for card_id in self.me.hand or ()]
        self.odds = self._opponent_odds(prior, budget)

    # the opponent's cards

    def _opponent_odds(self, prior: CardPrior, budget: Budget) -> dict[Signature, float]:
        """How likely the opponent's next card plays as each signature (its hand and
        face-down row, unknown cards sampled)."""
        known, seen = self._opponent_known()
        unknown = self.them.hand_count + sum(1 for s in self.them.row if s.card is None) - len(known)
        weights: dict[Signature, float] = defaultdict(float)
        clock, samples = budget.clock(), 0
        while clock.more(samples):
            hidden = prior.hidden(seen, 1, unknown) if unknown > 0 else []
            world = known + hidden
            for card in world:
                weights[signature(card)] += 1 / len(world)
            samples += 1
        total = sum(weights.values()) or 1.0
        return {sig: weight / total for sig, weight in weights.items()}

    def _opponent_known(self) -> tuple[list[CardInstance], list[CardInstance]]:
        """The opponent's known playable cards (revealed before, then taken back), and
        every card of its booster seen so far."""
        located: set[str] = set()
        for seat in (self.me, self.them):
            located.update(seat.pile, seat.discarded, seat.set_aside, seat.hand or (), seat.buried or ())
            located.update(slot.card for slot in seat.row if slot.card is not None)
        known = facts_of(sorted(set(self.cards) - located), self.cards)
        them = self.them
        shown = [*them.pile, *them.discarded, *(slot.card for slot in them.row if slot.card is not None)]
        return known, known + facts_of(shown, self.cards)

    # values

    def against(self, mine: Signature, theirs: Signature) -> float:
        """A colored card of the bot against an opponent card, each playing its best color."""
        if theirs == COLORLESS:
            return ANSWERED
        return max(fmean(outcome(color, other, self.role) for other in theirs) for color in mine)

    def value(self, card: Card, rest: Sequence[Card] = ()) -> float:
        """The mean outcome of ``card``; a colorless one answers with the best of ``rest``."""
        mine = signature(card)
        if mine != COLORLESS:
            return sum(weight * self.against(mine, sig) for sig, weight in self.odds.items())
        answers = {signature(other) for other in rest} - {COLORLESS}
        total = 0.0
        for sig, weight in self.odds.items():
            if not answers:
                total -= weight  # DN-3: a dud loses to any colored card
            elif sig == COLORLESS:
                total += weight * max(self.value_of(answer) for answer in answers)
            else:
                total += weight * max(self.against(answer, sig) for answer in answers)
        return total

    def value_of(self, mine: Signature) -> float:
        colored = {sig: w for sig, w in self.odds.items() if sig != COLORLESS}
        total = sum(colored.values()) or 1.0
        return sum(weight * self.against(mine, sig) for sig, weight in colored.items()) / total

    # decisions

    def row(self, k: int) -> tuple[str, ...]:
        """The k best cards, best first; colorless ones valued against what stays in hand."""
        chosen: list[CardInstance] = []
        pool = list(self.hand)
        while len(chosen) < k:
            best = max(pool, key=lambda card: self._row_value(card, pool))
            chosen.append(best)
            pool.remove(best)
        return tuple(card.id for card in chosen)

    def _row_value(self, card: CardInstance, pool: Sequence[CardInstance]) -> float:
        if signature(card) != COLORLESS:
            return self.value(card)
        return self.value(card, [other for other in pool if other.id != card.id]) - SPEND

    def replacement(self) -> str:
        """DN-2: the best answer to the opponent's card, spending the weakest card."""
        slot = self.them.row[self.view.slot]

        def score(card: CardInstance) -> float:
            mine = signature(card)
            own = self.value(card)
            if mine == COLORLESS:
                return -1.0 - SPEND * own  # replaced again in turn (DN-2): a last resort
            return self._known_answer(mine, slot) - SPEND * own

        return max(self.hand, key=score).id

    def _known_answer(self, mine: Signature, slot: SlotView) -> float:
        if slot.dud:
            return 1.0
        theirs = None if slot.card is None else self.cards.get(slot.card)
        if theirs is None or signature(theirs) == COLORLESS:
            return self.value_of(mine)  # replaced at the same time, hidden (C-5)
        return self.against(mine, signature(theirs))

    def declaration(self) -> Color:
        """DN-4: the color that does best against the opponent's card (its color when known)."""
        card_id = self.me.row[self.view.slot].card
        assert card_id is not None
        theirs = self.them.row[self.view.slot]
        options: Sequence[Color | None]
        if theirs.dud:
            options = (None,)
        elif theirs.color is not None:
            options = (theirs.color,)
        else:
            options = self.cards[str(theirs.card)].colors
        mine = self.cards[card_id].colors
        return max(mine, key=lambda color: fmean(outcome(color, other, self.role) for other in options))
