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

The ``hard`` level searches instead (:class:`DayNightModel`): the heuristics' rows
in several orders, played out in sampled worlds against an opponent that places
its rows as the heuristics do, best card first.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from functools import cache
from itertools import permutations
from statistics import fmean
from typing import Any

from packplay.bots.budget import Budget
from packplay.bots.memory import Memory
from packplay.bots.priors import CardPrior, SampledStrategy, facts_of, main_set
from packplay.games.base import Game, GameConfig
from packplay.games.day_night.colors import is_colorless
from packplay.games.day_night.colors import pair_outcome as color_outcome
from packplay.games.day_night.state import SEATS, DayNightState
from packplay.games.registry import get_game
from packplay.rng import Rng
from packplay_protocol.cards import Card, CardInstance, Color
from packplay_protocol.games.common import LegalActions
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


class Scale:
    """The values of the bot's cards against one distribution of the opponent's signatures."""

    def __init__(self, role: Role, odds: Mapping[Signature, float]) -> None:
        self.role, self.odds = role, odds
        self._values: dict[tuple[Signature, frozenset[Signature]], float] = {}
        self._versus_colored: dict[Signature, float] = {}

    def against(self, mine: Signature, theirs: Signature) -> float:
        """A colored card of the bot against an opponent card, each playing its best color."""
        return against(self.role, mine, theirs)

    def value(self, mine: Signature, rest: Sequence[Signature] = ()) -> float:
        """The mean outcome of a card; a colorless one answers with the best of ``rest``."""
        answers = frozenset(rest) - {COLORLESS} if mine == COLORLESS else frozenset()
        key = (mine, answers)
        found = self._values.get(key)
        if found is None:
            found = self._values[key] = self._value(mine, answers)
        return found

    def _value(self, mine: Signature, answers: frozenset[Signature]) -> float:
        if mine != COLORLESS:
            return sum(weight * self.against(mine, sig) for sig, weight in self.odds.items())
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
        """A colored card's mean outcome against the opponent's colored cards."""
        found = self._versus_colored.get(mine)
        if found is None:
            colored = {sig: w for sig, w in self.odds.items() if sig != COLORLESS}
            total = sum(colored.values()) or 1.0
            found = sum(weight * self.against(mine, sig) for sig, weight in colored.items()) / total
            self._versus_colored[mine] = found
        return found


@cache
def against(role: Role, mine: Signature, theirs: Signature) -> float:
    """A colored card against an opponent card, each playing its best color (the
    opponent's colors equally likely); a colorless opponent card answers it."""
    if theirs == COLORLESS:
        return ANSWERED
    return max(fmean(outcome(color, other, role) for other in theirs) for color in mine)


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
        self.scale = Scale(self.role, self.odds)

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
        return self.scale.against(mine, theirs)

    def value(self, card: Card, rest: Sequence[Card] = ()) -> float:
        """The mean outcome of ``card``; a colorless one answers with the best of ``rest``."""
        return self.scale.value(signature(card), [signature(other) for other in rest])

    def value_of(self, mine: Signature) -> float:
        return self.scale.value_of(mine)

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


# search (the ``hard`` level): worlds, candidates, rollouts


class DayNightModel:
    """Day vs Night for :class:`~packplay.bots.search.Search`.

    A world keeps the seat's own cards as they are and deals the opponent's unknown
    cards (hand, face-down row slots, buried cards) from the cards it was seen to hold
    again (revealed, then taken back) and fresh cards of its booster. An opponent's
    row or choice still hidden in a simultaneous step (C-5) is left undecided: the
    rollout decides it, blind to the seat's own choice. Candidates are the
    heuristics' row in its orders and with its next best cards, each replacement
    once per signature (cards of one signature play alike), every declaration.
    Rollouts play the heuristics as the reference plays them: cards valued against
    the colors of fresh boosters (what a seat expects of hidden cards, not the world's
    cards, which a real opponent does not see), rows best first, with a little noise.
    """

    def __init__(self, rng: Rng) -> None:
        self.rng = rng
        self.engine: Game[DayNightState] = get_game("day_night")
        self._prior: CardPrior | None = None
        self._signatures: dict[str, Signature] = {}
        """Each card's signature, for the rollouts of one decision."""
        self._scales: dict[Role, Scale] = {}
        """The rollouts' values for each role, against the set's usual colors."""

    def prior(self, cards: Mapping[str, CardInstance]) -> CardPrior:
        if self._prior is None:
            self._prior = CardPrior(main_set(cards.values(), DayNightStrategy.default_set), self.rng)
        return self._prior

    def scales(self, cards: Mapping[str, CardInstance]) -> dict[Role, Scale]:
        """Values against the signatures of fresh boosters of the set: the heuristics'
        belief about hidden cards, before anything is seen."""
        pool = self.prior(cards).pool(PRIOR_BOOSTERS)
        odds: dict[Signature, float] = defaultdict(float)
        for card in pool:
            odds[signature(card)] += 1 / len(pool)
        return {role: Scale(role, odds) for role in ROLES}

    def world(self, message: ViewMessage, memory: Memory, rng: Rng) -> DayNightState:
        view = message.view
        assert isinstance(view, View) and view.seat is not None
        prior = self.prior(message.cards)
        return World(message, prior, rng).state()

    def candidates(self, message: ViewMessage, memory: Memory) -> Sequence[Any]:
        view = message.view
        assert isinstance(view, View) and view.seat is not None
        self._signatures.clear()
        if not self._scales:
            self._scales = self.scales(message.cards)
        if view.phase == "place":
            table = Table(message.cards, view, self.prior(message.cards), CANDIDATE_BUDGET)
            return row_candidates(table, view.k, self.rng)
        if view.phase == "replace":
            by_signature = {signature(message.cards[a.card]): a for a in message.legal.actions}
            return list(by_signature.values())
        return list(message.legal.actions)

    def policy(self, state: DayNightState, seat: int, legal: LegalActions[Any], rng: Rng) -> Any:
        rollout = Rollout(state, seat, self._signatures, self._scales[state.role(seat)])
        if state.phase == "place":
            return Place(cards=rollout.row(rng))
        if state.phase == "replace":
            return Replace(card=rollout.replacement())
        return Declare(color=rollout.declaration())

    def value(self, state: DayNightState, seat: int) -> float:
        lead = len(state.piles[seat]) - len(state.piles[1 - seat])
        return min(1.0, max(0.0, 0.5 + lead / (2 * MAX_LEAD)))


CANDIDATE_BUDGET = Budget(samples=16)
"""The samples of the opponent's colors behind the heuristics' candidate rows."""
PRIOR_BOOSTERS = 32
"""Fresh boosters behind the rollouts' belief about the other seat's colors."""
ROLES: tuple[Role, ...] = ("day", "night")
MAX_LEAD = 12
"""Pairs in a game (3 + 3 + 6): the largest possible lead."""
ROW_ORDERS = 6
"""Orders of a six-card row compared (the heuristics', reversed, and shuffles)."""
NEXT_BEST = 2
"""Cards just outside the heuristics' row tried in place of its weakest card."""
NOISE = 4
"""A rollout's row is changed (one card swapped, or the order shuffled) one time in this many."""


class World:
    """One world of a Day vs Night view: the seat's cards as they are, the opponent's drawn."""

    def __init__(self, message: ViewMessage, prior: CardPrior, rng: Rng) -> None:
        view = message.view
        assert isinstance(view, View) and view.seat is not None
        self.view, self.cards, self.prior, self.rng = view, message.cards, prior, rng
        self.seat, self.other = view.seat, 1 - view.seat
        self.me, self.them = view.seats[view.seat], view.seats[1 - view.seat]
        self.pending = message.pending
        # C-5: the opponent's row placed while the seat has not placed yet stays undecided
        self.undecided = view.phase == "place" and self.them.placed

    def state(self) -> DayNightState:
        view, seat, other = self.view, self.seat, self.other
        cards = dict(self.cards)
        row, buried, hand = self.opponent(cards)
        state = DayNightState(
            cards=cards,
            config=GameConfig(game="day_night", players=SEATS, sets=(self.prior.set_code,)),
            seed=0,
            day_seat=view.day_seat,
            round=view.round,
            k=view.k,
            phase=view.phase,
            revealed=view.revealed,
            slot=view.slot,
            outcomes=list(view.outcomes),
            public=self.public(),
        )
        for side, seat_view in ((seat, self.me), (other, self.them)):
            state.piles[side] = list(seat_view.pile)
            state.discards[side] = list(seat_view.discarded)
            state.set_aside[side] = list(seat_view.set_aside)
        state.hands[seat], state.hands[other] = list(self.me.hand or ()), sorted(hand)
        state.rows[seat] = [str(slot.card) for slot in self.me.row]
        state.rows[other] = row
        state.buried[seat], state.buried[other] = list(self.me.buried or ()), buried
        if view.phase in ("replace", "declare"):
            self.resolving(state)
        else:
            state.need = list(range(SEATS))
        return state

    def resolving(self, state: DayNightState) -> None:
        """Duds and colors of the revealed slots; the seats the current step waits for
        (the opponent's committed choice left undecided)."""
        for side, seat_view in ((self.seat, self.me), (self.other, self.them)):
            state.duds[side] = [slot.dud for slot in seat_view.row]
            state.colors[side] = [slot.color for slot in seat_view.row]
        state.need = [s for s in range(SEATS) if s in self.pending or self.view.seats[s].committed]

    def opponent(self, cards: dict[str, CardInstance]) -> tuple[list[str], list[str], list[str]]:
        """The opponent's row, buried cards and hand: its cards seen and taken back, and
        fresh cards for the rest, dealt at random among the hidden places."""
        them = self.them
        row = [] if self.undecided else [slot.card for slot in them.row]
        hand_count = them.hand_count + (len(them.row) if self.undecided else 0)
        places = sum(1 for card in row if card is None) + them.buried_count + hand_count
        back, seen = self.taken_back()
        fresh = self.prior.hidden(seen, 1, places - len(back)) if places > len(back) else []
        cards.update((card.id, card) for card in fresh)
        dealt = [card.id for card in back] + [card.id for card in fresh]
        self.rng.shuffle(dealt)
        filled = [card if card is not None else dealt.pop() for card in row]
        buried = [dealt.pop() for _ in range(them.buried_count)]
        return filled, buried, dealt

    def taken_back(self) -> tuple[list[CardInstance], list[CardInstance]]:
        """The opponent's cards known but not placed anywhere (revealed before, now back in
        its hand, row or buried), and every card of its booster seen so far."""
        located: set[str] = set()
        for seat_view in (self.me, self.them):
            located.update(seat_view.pile, seat_view.discarded, seat_view.set_aside)
            located.update(seat_view.hand or (), seat_view.buried or ())
            located.update(slot.card for slot in seat_view.row if slot.card is not None)
        back = facts_of(sorted(set(self.cards) - located), self.cards)
        them = self.them
        shown = [*them.pile, *them.discarded, *(slot.card for slot in them.row if slot.card is not None)]
        return back, back + facts_of(shown, self.cards)

    def public(self) -> set[str]:
        """The cards shown face up: every card the seat knows but its own unrevealed ones."""
        me = self.me
        own = {*(me.hand or ()), *(me.buried or ())}
        own.update(str(slot.card) for slot in me.row[self.view.revealed :])
        return set(self.cards) - own


def row_candidates(table: Table, k: int, rng: Rng) -> list[Place]:
    """The heuristics' row in every order (a few orders of a long row), and with each of
    its next best cards in place of its weakest; one row per sequence of signatures."""
    ranked = table.row(min(k + NEXT_BEST, len(table.hand)))
    best = list(ranked[:k])
    sets = [best] + [[*best[:-1], extra] for extra in ranked[k:]]
    rows: dict[tuple[Signature, ...], tuple[str, ...]] = {}
    for chosen in sets:
        for order in orders(chosen, rng):
            rows.setdefault(tuple(signature(table.cards[c]) for c in order), order)
    return [Place(cards=row) for row in rows.values()]


def orders(row: list[str], rng: Rng) -> list[tuple[str, ...]]:
    """Every order of a short row; the row, reversed and shuffled a few times if long."""
    if len(row) <= 3:
        return list(permutations(row))
    found = [tuple(row), tuple(reversed(row))]
    while len(found) < ROW_ORDERS:
        shuffled = list(row)
        rng.shuffle(shuffled)
        found.append(tuple(shuffled))
    return found


class Rollout:
    """A rollout's decision for one seat, on the whole state: the heuristics, with the
    set's usual colors as the opponent's (``scale``); the opponent's card in the current
    pair as the seat may see it, never its hidden choice."""

    def __init__(
        self, state: DayNightState, seat: int, signatures: dict[str, Signature], scale: Scale
    ) -> None:
        self.state, self.seat, self.other = state, seat, 1 - seat
        self.signatures, self.scale = signatures, scale

    def signature(self, card_id: str) -> Signature:
        found = self.signatures.get(card_id)
        if found is None:
            found = self.signatures[card_id] = signature(self.state.cards[card_id])
        return found

    def row(self, rng: Rng) -> tuple[str, ...]:
        """The k best cards, best first (as the heuristics place them; a colorless card
        valued against the whole hand), now and then changed."""
        state, scale = self.state, self.scale
        hand = [(card_id, self.signature(card_id)) for card_id in state.hands[self.seat]]
        signatures = [sig for _, sig in hand]
        ranked = sorted(
            hand,
            key=lambda entry: -scale.value(entry[1]) if entry[1] else SPEND - scale.value((), signatures),
        )
        row = [card_id for card_id, _ in ranked[: state.k]]
        if rng.below(NOISE) == 0:
            if len(ranked) > state.k and rng.below(2) == 0:
                row[rng.below(len(row))] = ranked[state.k + rng.below(len(ranked) - state.k)][0]
            else:
                rng.shuffle(row)
        return tuple(row)

    def replacement(self) -> str:
        """DN-2: the best answer to the opponent's card, spending the weakest card."""
        state, scale = self.state, self.scale
        theirs = self._their_card()
        best, best_score = "", -math.inf
        for card_id in state.hands[self.seat]:
            mine = self.signature(card_id)
            own = scale.value(mine)
            if mine == COLORLESS:
                score = -1.0 - SPEND * own
            elif theirs is None:
                score = 1.0 - SPEND * own
            elif theirs == COLORLESS:
                score = scale.value_of(mine) - SPEND * own
            else:
                score = scale.against(mine, theirs) - SPEND * own
            if score > best_score:
                best, best_score = card_id, score
        return best

    def _their_card(self) -> Signature | None:
        """The opponent's card in the current pair as the seat may know it (None: a dud;
        colorless while the opponent replaces it, hidden)."""
        state, other, slot = self.state, self.other, self.state.slot
        if state.duds[other][slot]:
            return None
        color = state.colors[other][slot]
        if color is not None:
            return (color,)
        return self.signature(state.rows[other][slot])

    def declaration(self) -> Color:
        """DN-4: the color that does best against the opponent's card (its color when known)."""
        state, slot = self.state, self.state.slot
        theirs = self._their_card()
        options: Sequence[Color | None] = (None,) if theirs is None else theirs
        mine = state.cards[state.rows[self.seat][slot]].colors
        role = state.role(self.seat)
        return max(mine, key=lambda color: fmean(outcome(color, other, role) for other in options))
