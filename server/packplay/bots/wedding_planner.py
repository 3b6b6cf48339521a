"""The Vampire Wedding Planner bots: the strong heuristics, and the search model of ``hard``.

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

The search model (``hard``, :class:`WeddingPlannerModel`). A world keeps what the view
shows and samples the rest from the same booster prior; another seat's theme is weighed
by its open play (a card it took and kept that would not score on a theme makes that
theme less likely, a card it gave away that would score on it too), and its hidden hand
is the best for that theme of the cards it held and drew. Every legal action is played
out to the end, every seat following the greedy plan above with its own theme (points
per card cached per world, draw odds read from the world's pile) and a small random
term; a game is short, so rollouts reach the end and the search's reward judges them.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from packplay.bots.budget import Budget
from packplay.bots.memory import Memory
from packplay.bots.priors import CardPrior, SampledStrategy, facts_of, main_set
from packplay.games.base import Game, GameConfig
from packplay.games.registry import get_game
from packplay.games.wedding_planner.scoring import is_shiny, on_theme, score_hand
from packplay.games.wedding_planner.setup import is_theme_candidate
from packplay.games.wedding_planner.state import TURNS_PER_PLAYER, WeddingState, turns_taken
from packplay.rng import Rng
from packplay_protocol.cards import Card, CardInstance
from packplay_protocol.games.common import LegalActions
from packplay_protocol.games.wedding_planner import Discard, Discarded, Draw, Drew, SeatView, Take, Took, View
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


# The search model (the ``hard`` level).

TAKE_REACH = 6
"""How deep into the discard pile a rollout looks for a take (deeper takes are rare)."""
NOISE = 0.4
"""The spread of the random term added to each rollout option, in points."""
OFF_THEME_KEPT = 0.35
"""A theme's weight, times this for each non-shiny card its seat took and kept that
does not score on it."""
ON_THEME_GIVEN = 0.5
"""A theme's weight, times this for each non-shiny card its seat gave away that would
have scored on it."""
Points = tuple[int, bool]
"""A card for one seat: its points on the theme and shiny lines, and whether it is a land."""


class WeddingPlannerModel:
    """The game's part in :class:`packplay.bots.search.Search`: worlds from :class:`Deal`,
    every legal action a candidate, rollouts by a greedy planner every seat follows with
    its own theme (:func:`keep_best`), a small random term keeping rollouts varied."""

    def __init__(self, rng: Rng) -> None:
        self.rng = rng
        self.engine: Game[WeddingState] = get_game("wedding_planner")
        self._prior: CardPrior | None = None
        self._table: Mapping[str, CardInstance] | None = None
        self._seats: dict[int, SeatCards] = {}

    def world(self, message: ViewMessage, memory: Memory, rng: Rng) -> WeddingState:
        view = message.view
        assert isinstance(view, View) and view.viewer is not None
        return Deal(view, message.cards, memory, self.prior(message.cards), rng).state()

    def prior(self, cards: Mapping[str, CardInstance]) -> CardPrior:
        if self._prior is None:
            self._prior = CardPrior(main_set(cards.values(), "VOW"), self.rng)
        return self._prior

    def candidates(self, message: ViewMessage, memory: Memory) -> Sequence[Any]:
        return message.legal.actions

    def policy(self, state: WeddingState, seat: int, legal: LegalActions[Any], rng: Rng) -> Any:
        cards = self.seat_cards(state, seat)
        if state.phase == "discard":
            return Discard(card=cards.discard(state, rng))
        return cards.pickup(state, rng)

    def value(self, state: WeddingState, seat: int) -> float:
        totals = [self.seat_cards(state, other).total(state) for other in range(len(state.hands))]
        lead = totals[seat] - max(total for other, total in enumerate(totals) if other != seat)
        return min(1.0, max(0.0, 0.5 + 0.15 * lead))

    def seat_cards(self, state: WeddingState, seat: int) -> SeatCards:
        """The seat's planner, kept while the world (its card table) stays the same."""
        if state.cards is not self._table:
            self._table, self._seats = state.cards, {}
        cards = self._seats.get(seat)
        if cards is None:
            cards = self._seats[seat] = SeatCards(state, seat)
        return cards


class SeatCards:
    """One seat's greedy planner in a whole state: the points of each card for its theme
    (cached), and the odds of the draw pile read once (what a player estimates, not the
    next card)."""

    def __init__(self, state: WeddingState, seat: int) -> None:
        self.seat = seat
        theme_id = state.themes[seat]
        self.theme = None if theme_id is None else state.cards[theme_id]
        self.known: dict[str, Points] = {}
        counts = Counter(self.points(state, card) for card in state.draw)
        size = max(len(state.draw), 1)
        self.odds = [(count / size, kind) for kind, count in counts.items()]
        self.fix = sum(odds for odds, (points, _) in self.odds if points > 0)

    def points(self, state: WeddingState, card_id: str) -> Points:
        found = self.known.get(card_id)
        if found is None:
            card = state.cards[card_id]
            found = self.known[card_id] = (on_theme(card, self.theme) + is_shiny(card), card.is_land)
        return found

    def hand(self, state: WeddingState) -> list[Points]:
        return [self.points(state, card) for card in state.hands[self.seat]]

    def total(self, state: WeddingState) -> int:
        return hand_total(self.hand(state))[0]

    def pickup(self, state: WeddingState, rng: Rng) -> Any:
        hand, turns = self.hand(state), turns_left(state, self.seat)
        best: Any = None
        best_value = -math.inf
        if state.draw:
            best = Draw()
            drawn = sum(odds * keep_best([*hand, kind], turns, self.fix)[0] for odds, kind in self.odds)
            best_value = drawn + noise(rng)
        reach = max(0, len(state.discard) - TAKE_REACH)
        for index in range(len(state.discard) - 1, reach - 1, -1):
            taken = [self.points(state, card) for card in state.discard[index:]]
            value = keep_best([*hand, *taken], turns, self.fix)[0] + noise(rng)
            if value > best_value:
                best, best_value = Take(card=state.discard[index]), value
        return best

    def discard(self, state: WeddingState, rng: Rng) -> str:
        cards, hand, turns = state.hands[self.seat], self.hand(state), turns_left(state, self.seat)
        best, best_value = cards[0], -math.inf
        for index, card in enumerate(cards):
            rest = hand[:index] + hand[index + 1 :]
            value = worth(rest, turns, self.fix) - 0.05 * Plan.usefulness(state.cards[card]) + noise(rng) / 4
            if value > best_value:
                best, best_value = card, value
        return best


def hand_total(hand: Sequence[Points]) -> tuple[int, int]:
    """The hand's score and its count of -1 cards (WP-1, WP-2, as :func:`score_hand`)."""
    total = penalty = 0
    land = plain_land = False
    for points, is_land in hand:
        if points:
            total += points
        else:
            penalty += 1
            plain_land = plain_land or is_land
        land = land or is_land
    if plain_land:
        return total + 1 - (penalty - 1), penalty - 1
    return total + land - penalty, penalty


def worth(hand: Sequence[Points], turns: int, fix: float) -> float:
    """The hand's score plus what ``turns`` more turns may mend of its -1 cards (each
    draw scores with odds ``fix``)."""
    total, penalty = hand_total(hand)
    return total + SWAP_GAIN * fix * min(turns, penalty)


def keep_best(hand: Sequence[Points], turns: int, fix: float) -> tuple[float, int]:
    """The worth of the best hand one discard leaves, and the index of the card to give."""
    options = ((worth([*hand[:i], *hand[i + 1 :]], turns, fix), i) for i in range(len(hand)))
    return max(options)


def turns_left(state: WeddingState, seat: int) -> int:
    """The seat's turns after the one it is playing."""
    return max(TURNS_PER_PLAYER - turns_taken(state, seat) - 1, 0)


def noise(rng: Rng) -> float:
    return NOISE * rng.below(1024) / 1024


class Deal:
    """One world drawn from a seat's view (and the events it was sent), nothing else.

    Known cards stay where the view shows them. The hidden ones (draw pile, the hand
    cards others did not take face up, others' themes) come from fresh boosters of the
    set less the cards seen, under new ids. Another seat's theme is drawn among the
    sampled theme candidates, weighed by that seat's open play; its hidden hand cards
    are the best for that theme of its hidden count plus the cards it drew (it kept the
    best of what it saw and gave the rest away). The draw pile is the rest, shuffled.
    """

    def __init__(
        self, view: View, cards: Mapping[str, CardInstance], memory: Memory, prior: CardPrior, rng: Rng
    ) -> None:
        assert view.viewer is not None
        self.view, self.cards, self.prior, self.rng = view, cards, prior, rng
        self.seat = view.viewer
        self.table: dict[str, CardInstance] = {}
        self.given: dict[int, list[str]] = defaultdict(list)
        self.drew: Counter[int] = Counter()
        self.took_held: set[str] = set()
        self._read(memory)

    def _read(self, memory: Memory) -> None:
        for event in memory.events():
            if isinstance(event, Drew):
                self.drew[event.seat] += 1
            elif isinstance(event, Discarded):
                self.given[event.seat].append(event.card)
                self.took_held.discard(event.card)
            elif isinstance(event, Took) and event.seat == self.seat:
                self.took_held.update(event.cards)

    def state(self) -> WeddingState:
        view = self.view
        others = [seat for seat in view.seats if seat.seat != self.seat]
        pool = self._hidden_pool(others)
        themes: list[str | None] = [seat.theme for seat in view.seats]
        hands = [list(seat.cards) for seat in view.seats]
        for seat in others:
            if seat.has_theme:
                themes[seat.seat] = self._theme(seat, pool)
        for seat in others:
            hands[seat.seat] += self._hidden_hand(seat, themes[seat.seat], pool)
        self.rng.shuffle(pool)
        revealed = [card for seat in others for card in seat.cards]
        revealed += [card for card in view.seats[self.seat].cards if card in self.took_held]
        for card_id in [*view.discard, *view.set_aside, *revealed, *view.seats[self.seat].cards]:
            self.table[card_id] = self.cards[card_id]
        own_theme = view.seats[self.seat].theme
        if own_theme is not None:
            self.table[own_theme] = self.cards[own_theme]
        return WeddingState(
            config=GameConfig(game="wedding_planner", players=view.players),
            seed=0,
            cards=self.table,
            hands=hands,
            themes=themes,
            draw=pool,
            discard=list(view.discard),
            set_aside=list(view.set_aside),
            revealed=revealed,
            first_seat=view.first_seat,
            turns_done=view.turns_done,
            phase="discard" if view.phase == "discard" else "pickup",
        )

    def _hidden_pool(self, others: Sequence[SeatView]) -> list[str]:
        """Every hidden card, sampled under a new id (shuffled)."""
        view, me = self.view, self.view.seats[self.seat]
        seen_ids = [*me.cards, *view.discard, *(card for seat in others for card in seat.cards)]
        if me.theme is not None:
            seen_ids.append(me.theme)
        count = view.draw_count + sum(seat.hand_count - len(seat.cards) + seat.has_theme for seat in others)
        sampled = self.prior.hidden(facts_of(seen_ids, self.cards), view.players, count)
        pool = []
        for index, card in enumerate(sampled):
            card_id = f"hidden-{index}"
            self.table[card_id] = msgspec.structs.replace(card, id=card_id)
            pool.append(card_id)
        return pool

    def _theme(self, seat: SeatView, pool: list[str]) -> str:
        """A theme for ``seat`` among the pool's candidates, weighed by its open play."""
        candidates = [card for card in pool if is_theme_candidate(self.table[card])]
        if not candidates:
            spare = self.prior.pool(1, is_theme_candidate)[0]
            card_id = pool[-1]
            self.table[card_id] = msgspec.structs.replace(spare, id=card_id)
            candidates = [card_id]
        kept = [self.cards[card] for card in seat.cards]
        given = [self.cards[card] for card in self.given[seat.seat] if card in self.cards]
        weights = [theme_weight(self.table[card], kept, given) for card in candidates]
        chosen = candidates[self.rng.weighted_index(weights)]
        pool.remove(chosen)
        return chosen

    def _hidden_hand(self, seat: SeatView, theme_id: str | None, pool: list[str]) -> list[str]:
        """The seat's hidden hand cards: the best for its theme among as many pool cards as
        it holds hidden plus the cards it drew (the others go back to the pool)."""
        hidden = seat.hand_count - len(seat.cards)
        seen = min(hidden + self.drew[seat.seat], len(pool))
        theme = None if theme_id is None else self.table[theme_id]
        looked = pool[:seen]
        del pool[:seen]
        looked.sort(key=lambda card: -(on_theme(self.table[card], theme) + is_shiny(self.table[card])))
        pool += looked[hidden:]
        return looked[:hidden]


def theme_weight(theme: Card, kept: Sequence[CardInstance], given: Sequence[CardInstance]) -> int:
    """How likely ``theme`` is for a seat that took and kept ``kept`` and discarded
    ``given`` (shiny cards tell nothing: they score on every theme)."""
    weight = 1.0
    for card in kept:
        if not is_shiny(card) and not on_theme(card, theme):
            weight *= OFF_THEME_KEPT
    for card in given:
        if not is_shiny(card) and on_theme(card, theme):
            weight *= ON_THEME_GIVEN
    return 1 + int(1_000_000 * weight)
