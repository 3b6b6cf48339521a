"""Taking a belt card: which groups a card may join (MF-1), the cost of back cards
(MF-2, MF-8), and how the belt slides and refills (MF-3)."""

from __future__ import annotations

from typing import Any

from packplay.cards.model import Card
from packplay.games.base import RuleError
from packplay.games.mishra_factory.state import Collected, MishraFactoryState
from packplay_protocol.games.mishra_factory import FRONT_SIZE, GROUPS, Group, Take

BELT_SIZE = 4


def allowed_groups(card: Card) -> tuple[Group, ...]:
    """MF-1: a land may join any group, a multicolored card any of its colors;
    any other card joins its own color, or ``C`` when it is colorless (C-2, C-3)."""
    if card.is_land:
        return GROUPS
    if not card.colors:
        return ("C",)
    return tuple(g for g in GROUPS if g in card.colors)


def is_back(position: int) -> bool:
    """Positions 0-1 are the front, whatever the belt's length (MF-3)."""
    return position >= FRONT_SIZE


def validate_take(state: MishraFactoryState, seat: int, action: Any) -> Take:
    """Check a take by ``seat`` without changing anything.

    Raises:
        RuleError: not a take of this game, no such position, a group the card may
            not join (MF-1), a back card without a collected card to discard (MF-2),
            or a discard offered with a front card (MF-8).
    """
    if not isinstance(action, Take):
        raise RuleError("action", "not a Mishra's Factory action")
    position = action.belt_position
    if type(position) is not int or not 0 <= position < len(state.belt):
        raise RuleError("belt", f"no card at belt position {position!r}")
    if action.group not in allowed_groups(state.cards[state.belt[position]]):
        raise RuleError("MF-1", f"this card cannot join group {action.group!r}")
    if not is_back(position):
        if action.discard is not None:
            raise RuleError("MF-8", "a front card is free: no discard")
        return action
    if not state.collections[seat]:
        raise RuleError("MF-2", "a back card costs a collected card, and you have none")
    if action.discard is None:
        raise RuleError("MF-2", "a back card costs a collected card: name one to discard")
    if find_collected(state.collections[seat], action.discard) is None:
        raise RuleError("MF-2", "the discard must be a card of your collection")
    return action


def find_collected(collection: list[Collected], card_id: Any) -> int | None:
    """The index of the card ``card_id`` in a collection, or None."""
    for index, entry in enumerate(collection):
        if entry.card == card_id:
            return index
    return None


def take(state: MishraFactoryState, seat: int, action: Take) -> tuple[str, str | None]:
    """Apply a validated take: pay (MF-2), collect, slide the belt forward.

    Returns the id of the card taken and of the card discarded (None for a front card).
    """
    discarded = None
    collection = state.collections[seat]
    if action.discard is not None:
        index = find_collected(collection, action.discard)
        assert index is not None  # checked by validate_take
        discarded = collection.pop(index).card
        state.discarded.append(discarded)
    card = state.belt.pop(action.belt_position)
    collection.append(Collected(card=card, group=action.group))
    return card, discarded


def refill(state: MishraFactoryState) -> str | None:
    """Deal the deck's top card to the back of the belt: its id, or None when the deck
    is empty (MF-3)."""
    if not state.deck or len(state.belt) >= BELT_SIZE:
        return None
    card = state.deck.pop(0)
    state.belt.append(card)
    return card
