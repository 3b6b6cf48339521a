"""Vampire Wedding Planner opponents: keep the hand that scores best for the theme.

Both score a hand as the printed rules do (WP-1: +1 for a card sharing a color or the
mana value of the theme, +1 for an artifact or a foil, +1 for one land, -1 for a card
that scores on no line; WP-2: the land line goes to the land it helps most), and
discard the card whose loss costs the least.

``greedy`` takes from the discard pile when the cards taken (less the best discard)
raise its score now, and draws otherwise. ``thoughtful`` weighs a draw by what an
unknown card is worth to it, judging the unknown cards by the cards it has seen outside
its hand, at half that gain (a sure card beats a hoped one), and takes only what beats
that; between discards of equal cost it throws the card the next
player needs least (what that player took from the pile shows its theme, and an artifact,
a foil or a first land helps anyone).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from packplay_clients.opponents.common import best, cards_of, first_legal
from packplay_protocol.cards import CardInstance
from packplay_protocol.games.wedding_planner import Discard, Draw, SeatView, Take, View
from packplay_protocol.to_client import ViewMessage


def lines(card: CardInstance, theme: CardInstance | None) -> int:
    """The points a card scores on the theme and shiny lines (WP-1)."""
    matches = theme is not None and (
        bool(set(card.colors) & set(theme.colors)) or card.mana_value == theme.mana_value
    )
    shiny = "Artifact" in card.types or card.foil
    return int(matches) + int(shiny)


def score(hand: Sequence[CardInstance], theme: CardInstance | None) -> int:
    """A hand's score: the lines, -1 per card on none, the land line to its best land (WP-2)."""
    total, venue = 0, 0
    for card in hand:
        points = lines(card, theme)
        total += points if points else -1
        if card.is_land:
            venue = max(venue, 2 if points == 0 else 1)
    return total + venue


def best_kept(hand: Sequence[CardInstance], theme: CardInstance | None) -> int:
    """The score of ``hand`` after its best discard."""
    return max(score([c for c in hand if c.id != out.id], theme) for out in hand)


def me(view: View) -> SeatView:
    return next(s for s in view.seats if s.seat == view.viewer)


def draw_worth(message: ViewMessage, hand: Sequence[CardInstance], theme: CardInstance | None) -> float:
    """What a draw is worth on average: each card seen elsewhere than in the hand (which was
    kept for the theme) stands for the unknown ones."""
    held = {c.id for c in hand} | ({theme.id} if theme is not None else set())
    seen = [c for i, c in message.cards.items() if c.magic_back and i not in held]
    if not seen:
        return float(score(hand, theme))
    return sum(best_kept([*hand, card], theme) for card in seen) / len(seen)


def pickup(message: ViewMessage, rng: random.Random, thoughtful: bool) -> Any:
    view: View = message.view
    seat = me(view)
    hand = cards_of(message, seat.cards)
    theme = message.cards.get(seat.theme) if seat.theme else None
    now = float(score(hand, theme))
    # A sure card beats a hoped one: a draw counts half its average gain.
    draw_value = (now + draw_worth(message, hand, theme)) / 2 if thoughtful else now

    def value(action: Any) -> float:
        if isinstance(action, Draw):
            return draw_value
        if isinstance(action, Take):
            pile = list(view.discard)
            taken = cards_of(message, pile[pile.index(action.card) :])
            return best_kept([*hand, *taken], theme) - 1e-3 * len(taken)
        return -99.0

    return best(message.legal.actions, value, rng)


def need(card: CardInstance, player: Sequence[CardInstance]) -> float:
    """How much a player whose visible cards are ``player`` would want ``card``."""
    wanted = float(lines(card, None) > 0)
    if card.is_land and not any(c.is_land for c in player):
        wanted += 1
    if any(set(card.colors) & set(c.colors) or card.mana_value == c.mana_value for c in player):
        wanted += 0.5
    return wanted


def discard(message: ViewMessage, rng: random.Random, thoughtful: bool) -> Any:
    view: View = message.view
    seat = me(view)
    hand = cards_of(message, seat.cards)
    theme = message.cards.get(seat.theme) if seat.theme else None
    following = (seat.seat - 1) % view.players  # counter-clockwise: reverse seat order
    their_cards = cards_of(message, view.seats[following].cards) if thoughtful else []

    def value(action: Any) -> float:
        if not isinstance(action, Discard):
            return -99.0
        kept = score([c for c in hand if c.id != action.card], theme)
        return kept - (0.1 * need(message.cards[action.card], their_cards) if thoughtful else 0.0)

    return best(message.legal.actions, value, rng)


def decide(message: ViewMessage, rng: random.Random, thoughtful: bool) -> Any:
    phase = message.view.phase
    if phase == "pickup" and message.legal.actions:
        return pickup(message, rng, thoughtful)
    if phase == "discard" and message.legal.actions:
        return discard(message, rng, thoughtful)
    return first_legal(message)


def greedy(message: ViewMessage, rng: random.Random) -> Any:
    return decide(message, rng, thoughtful=False)


def thoughtful(message: ViewMessage, rng: random.Random) -> Any:
    return decide(message, rng, thoughtful=True)
