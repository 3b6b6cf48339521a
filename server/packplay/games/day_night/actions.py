"""Checking and applying the three actions: place a row, replace, declare.

Each ``apply_*`` validates fully (raising :class:`RuleError`) before changing the
state. Messages never name a card: an unknown id may be a hidden card (C-6).
"""

from __future__ import annotations

from typing import Any

from packplay.cards.model import COLOR_ORDER, Color
from packplay.games.base import Emitted, RuleError, told_apart
from packplay.games.day_night import flow
from packplay.games.day_night.state import SEATS, DayNightState
from packplay_protocol.games.day_night import (
    CardReplaced,
    ChoiceCommitted,
    ColorDeclared,
    Declare,
    Place,
    Replace,
    RowPlaced,
)

COLORS: dict[str, Color] = {color: color for color in COLOR_ORDER}


def apply_action(state: DayNightState, seat: int, action: Any) -> list[Emitted]:
    """Check and apply one action of ``seat`` (a seat the current step waits for).

    Raises:
        RuleError: not a Day vs Night action, the wrong step, or a bad choice.
    """
    if isinstance(action, Place):
        return apply_place(state, seat, action)
    if isinstance(action, Replace):
        return apply_replace(state, seat, action)
    if isinstance(action, Declare):
        return apply_declare(state, seat, action)
    raise RuleError("action", "not a Day vs Night action")


def check_phase(state: DayNightState, phase: str, what: str) -> None:
    if state.phase != phase:
        raise RuleError("action", f"{what} is not awaited now (the game awaits: {state.phase})")


def apply_place(state: DayNightState, seat: int, action: Place) -> list[Emitted]:
    """DN-1: an ordered row of exactly k distinct cards from hand, hidden until both are placed."""
    check_phase(state, "place", "a row")
    ids = action.cards
    if not isinstance(ids, tuple | list) or not all(isinstance(card_id, str) for card_id in ids):
        raise RuleError("action", "cards must be a list of card ids")
    if len(ids) != state.k:
        raise RuleError("DN-5", f"place exactly {state.k} cards this round")
    chosen = set(ids)
    if len(chosen) != len(ids):
        raise RuleError("DN-1", "a card can fill only one slot")
    hand = state.hands[seat]
    if not chosen.issubset(hand):
        raise RuleError("card", "a chosen card is not in your hand")
    row = tuple(ids)
    state.rows[seat] = list(row)
    state.hands[seat] = [card_id for card_id in hand if card_id not in chosen]
    events = told_apart(
        seat, RowPlaced(seat=seat, count=len(row), cards=row), RowPlaced(seat=seat, count=len(row))
    )
    if all(state.rows[other] for other in range(SEATS)):
        flow.reveal_rows(state, events)
    return events


def apply_replace(state: DayNightState, seat: int, action: Replace) -> list[Emitted]:
    """DN-2: the replacement is a card from hand; both replacements are revealed together."""
    check_phase(state, "replace", "a replacement")
    card = action.card
    if not isinstance(card, str) or card not in state.hands[seat]:
        raise RuleError("DN-2", "the replacement must be a card from your hand")
    state.choices[seat] = card
    if state.pending():
        return commit_events(seat, ChoiceCommitted(seat=seat, step="replace", card=card))
    events: list[Emitted] = []
    for needy in state.need:
        replace(state, needy, events)
    flow.resolve(state, events)
    return events


def replace(state: DayNightState, seat: int, events: list[Emitted]) -> None:
    """The colorless card leaves the game (face up); the chosen card takes its slot."""
    card = str(state.choices[seat])
    old = state.rows[seat][state.slot]
    state.hands[seat].remove(card)
    state.discards[seat].append(old)
    state.rows[seat][state.slot] = card
    state.public.add(card)
    events.append(Emitted(CardReplaced(slot=state.slot, seat=seat, discarded=old, card=card)))


def apply_declare(state: DayNightState, seat: int, action: Declare) -> list[Emitted]:
    """DN-4: one of the card's colors; two declarations are revealed together."""
    check_phase(state, "declare", "a declaration")
    card = state.cards[state.rows[seat][state.slot]]
    color = COLORS.get(action.color) if isinstance(action.color, str) else None
    if color is None or color not in card.colors:
        raise RuleError("DN-4", "declare one of your card's colors")
    state.choices[seat] = color
    if state.pending():
        return commit_events(seat, ChoiceCommitted(seat=seat, step="declare", color=color))
    events: list[Emitted] = []
    for needy in state.need:
        declared = COLORS[str(state.choices[needy])]
        state.colors[needy][state.slot] = declared
        events.append(Emitted(ColorDeclared(slot=state.slot, seat=needy, color=declared)))
    flow.resolve(state, events)
    return events


def commit_events(seat: int, private: ChoiceCommitted) -> list[Emitted]:
    """C-5: the choice goes to its owner only; everyone learns that the seat committed."""
    public = ChoiceCommitted(seat=seat, step=private.step)
    return told_apart(seat, private, public)
