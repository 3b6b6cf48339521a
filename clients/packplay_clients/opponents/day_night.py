"""Day vs Night opponents: color against color, from the printed table.

Both value a card by what it does against the colors the other side may show: a
mono-colored card plays its color, a multicolored one the best of its colors (its owner
declares after seeing the other card), a colorless one the best card left in hand (its
owner replaces it knowing the other card, DN-2).

``greedy`` counts only its own wins (cards into its pile) against colors drawn evenly.
``thoughtful`` counts wins minus losses (a lost pair puts a card in the other pile)
against the colors the other side is likely to show: the cards of theirs it saw go
back to their hand when they lose or tie, and the rest look like its own booster; and
the other side plays its good colors first. When it replaces or wins for sure, it spends
the card it needs least.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from packplay_clients.legal import fill
from packplay_clients.opponents.common import best, cards_of, first_legal
from packplay_protocol.cards import COLOR_ORDER, CardInstance, Color
from packplay_protocol.games.day_night import Declare, Replace, SeatView, View
from packplay_protocol.to_client import ViewMessage

BEATS: dict[Color, Color] = {"R": "G", "G": "U", "U": "R"}
"""Red beats green, green beats blue, blue beats red."""
SURE: dict[str, dict[Color, int]] = {"day": {"W": 1, "B": -1}, "night": {"B": 1, "W": -1}}
"""White always wins for Day and loses for Night; black the other way round."""

Dist = Mapping[Color | None, float]
"""A belief about the other side's color (None: a dud), weights summing to 1."""
EVEN: Dist = {color: 1 / len(COLOR_ORDER) for color in COLOR_ORDER}


def outcome(day: Color | None, night: Color | None) -> str:
    """The winner of a pair, "day", "night" or "tie" (None is a dud, DN-3)."""
    if day is None or night is None:
        return "tie" if day == night else ("night" if day is None else "day")
    day_sure, night_sure = SURE["day"].get(day, 0), SURE["night"].get(night, 0)
    if day_sure and night_sure:
        return "tie" if day_sure == night_sure else ("day" if day_sure > 0 else "night")
    if day_sure or night_sure:
        return "day" if day_sure > 0 or night_sure < 0 else "night"
    if day == night:
        return "tie"
    return "day" if BEATS[day] == night else "night"


def result(role: str, mine: Color | None, theirs: Color | None) -> int:
    """+1 when ``role`` wins the pair, -1 when it loses, 0 on a tie."""
    day, night = (mine, theirs) if role == "day" else (theirs, mine)
    won = outcome(day, night)
    return 0 if won == "tie" else (1 if won == role else -1)


class Judge:
    """Values a card for one seat, against a belief about the other side's color."""

    def __init__(self, role: str, hand: Sequence[CardInstance], dist: Dist, *, losses: bool) -> None:
        self.role, self.hand, self.dist, self.losses = role, hand, dist, losses

    def against(self, colors: Iterable[Color], theirs: Color | None) -> float:
        """The best of ``colors`` against one color: a win, and a loss when counted."""
        scores = [result(self.role, color, theirs) for color in colors]
        top = max(scores, default=-1)
        return float(top if self.losses else max(top, 0))

    def value(self, card: CardInstance, hand: Sequence[CardInstance] | None = None) -> float:
        """The card's expected result against the belief (DN-2 and DN-4 as said above)."""
        if card.colors:
            return sum(p * self.against(card.colors, theirs) for theirs, p in self.dist.items())
        spare = [c for c in (self.hand if hand is None else hand) if c.colors and c.id != card.id]
        palette = {color for c in spare for color in c.colors}
        return sum(p * self.against(palette, theirs) for theirs, p in self.dist.items()) - 0.05

    def plain(self, card: CardInstance) -> float:
        """The card's worth against even colors: what spending it costs later."""
        return sum(self.against(card.colors, color) for color in COLOR_ORDER) if card.colors else 0.0


def seats(view: View) -> tuple[SeatView, SeatView]:
    mine = next(s for s in view.seats if s.seat == view.seat)
    return mine, next(s for s in view.seats if s.seat != view.seat)


def belief(message: ViewMessage, thoughtful: bool) -> Dist:
    """What color the other side shows in a pair it chooses freely."""
    if not thoughtful:
        return EVEN
    view: View = message.view
    mine, theirs = seats(view)
    known = seen_in_their_hand(message, mine, theirs)
    counts: defaultdict[Color, float] = defaultdict(float)
    for card in known:
        for color, share in _shares(card).items():
            counts[color] += share
    own = cards_of(message, mine.hand or ())
    unknown = max(theirs.hand_count - len(known), 0)
    if own and unknown:
        for card in own:
            for color, share in _shares(card).items():
                counts[color] += share * unknown / len(own)
    other = "night" if view.role == "day" else "day"
    # They play their good colors first: weigh each color by its worth to them.
    weights = {c: w * (1.5 + sum(result(other, c, x) for x in COLOR_ORDER) / 5) for c, w in counts.items()}
    total = sum(weights.values())
    return {c: w / total for c, w in weights.items()} if total > 0 else EVEN


def _shares(card: CardInstance) -> dict[Color, float]:
    """A card's part in each color: split between its colors; a colorless card stands for any."""
    colors: Sequence[Color] = card.colors or COLOR_ORDER
    return dict.fromkeys(colors, 1 / len(colors))


def seen_in_their_hand(message: ViewMessage, mine: SeatView, theirs: SeatView) -> list[CardInstance]:
    """The other side's cards seen in earlier pairs that went back to its hand (lost or tied)."""
    gone = {*(mine.hand or ()), *mine.pile, *mine.discarded, *(mine.buried or ()), *mine.set_aside}
    gone |= {*theirs.pile, *theirs.discarded, *theirs.set_aside}
    gone |= {slot.card for seat in (mine, theirs) for slot in seat.row if slot.card is not None}
    return [card for i, card in message.cards.items() if i not in gone and card.magic_back]


def judge(message: ViewMessage, thoughtful: bool) -> Judge:
    view: View = message.view
    mine, _ = seats(view)
    hand = cards_of(message, mine.hand or ())
    return Judge(view.role or "day", hand, belief(message, thoughtful), losses=thoughtful)


def place(message: ViewMessage, rng: random.Random, thoughtful: bool) -> Any:
    """The k cards of best value; colorless ones last, so the hand is fullest when they turn."""
    choice = message.legal.choices[0]
    count = choice.min_count
    assess = judge(message, thoughtful)
    hand = cards_of(message, choice.options)
    noise = {card.id: rng.random() * 1e-6 for card in hand}
    ranked = sorted(hand, key=lambda card: assess.value(card) + noise[card.id], reverse=True)
    row = sorted(ranked[:count], key=lambda card: not card.colors)
    return fill(choice, [card.id for card in row])


def current_pair(message: ViewMessage) -> tuple[CardInstance | None, CardInstance | None, Color | None]:
    """My card and theirs in the pair being resolved, and their color once it is known."""
    view: View = message.view
    mine, theirs = seats(view)
    slot = view.slot
    my_slot = mine.row[slot] if slot < len(mine.row) else None
    their_slot = theirs.row[slot] if slot < len(theirs.row) else None
    my_card = message.cards.get(my_slot.card) if my_slot and my_slot.card else None
    their_card = message.cards.get(their_slot.card) if their_slot and their_slot.card else None
    their_color = their_slot.color if their_slot else None
    if their_color is None and their_card is not None and len(their_card.colors) == 1:
        their_color = their_card.colors[0]
    return my_card, their_card, their_color


def pair_belief(message: ViewMessage, thoughtful: bool) -> Dist:
    """What the other card of the current pair plays as, from what is shown of it."""
    _, their_card, their_color = current_pair(message)
    if their_color is not None:
        return {their_color: 1.0}
    if their_card is not None and their_card.colors:
        return dict.fromkeys(their_card.colors, 1 / len(their_card.colors))
    return belief(message, thoughtful)


def replace(message: ViewMessage, rng: random.Random, thoughtful: bool) -> Any:
    """The card that does best in this pair; between equals, the one worth least later."""
    assess = judge(message, thoughtful)
    assess.dist = pair_belief(message, thoughtful)
    _, their_card, their_color = current_pair(message)
    they_declare = their_color is None and their_card is not None and len(their_card.colors) > 1
    options = [a for a in message.legal.actions if isinstance(a, Replace)]

    def score(action: Replace) -> float:
        card = message.cards[action.card]
        if not card.colors:
            return -0.5
        if they_declare and len(card.colors) == 1 and their_card is not None:
            # They choose their color knowing mine (DN-4): my card meets their best answer.
            return min(assess.against(card.colors, color) for color in their_card.colors)
        now = assess.value(card)
        return now - (0.01 * assess.plain(card) if thoughtful else 0.0)

    return best(options, score, rng) if options else first_legal(message)


def declare(message: ViewMessage, rng: random.Random, thoughtful: bool) -> Any:
    """The color that does best against the other card's color, or its possible colors."""
    assess = judge(message, thoughtful)
    dist = pair_belief(message, thoughtful)
    options = [a for a in message.legal.actions if isinstance(a, Declare)]

    def score(action: Declare) -> float:
        return sum(p * assess.against([action.color], theirs) for theirs, p in dist.items())

    return best(options, score, rng) if options else first_legal(message)


def decide(message: ViewMessage, rng: random.Random, thoughtful: bool) -> Any:
    phase = message.view.phase
    if phase == "place" and message.legal.choices:
        return place(message, rng, thoughtful)
    if phase == "replace":
        return replace(message, rng, thoughtful)
    if phase == "declare":
        return declare(message, rng, thoughtful)
    return first_legal(message)


def greedy(message: ViewMessage, rng: random.Random) -> Any:
    return decide(message, rng, thoughtful=False)


def thoughtful(message: ViewMessage, rng: random.Random) -> Any:
    return decide(message, rng, thoughtful=True)
