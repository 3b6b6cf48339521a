"""What each audience sees (C-6), the card zones, and the hidden card ids.

Views name cards by id; the audience's card table (``known_cards``: every card not
in ``hidden_from``) carries their facts. A seat sees its own hand, row and buried
cards; everyone sees the pairs already revealed, piles, face-up discards and
set-aside cards (C-1). A face-down row card is shown by slot only, without its id: a
card revealed in an earlier round and taken back to hand stays in every card table,
but must not be traceable to its new slot. After the end all is shown.
"""

from __future__ import annotations

from packplay.games.base import Audience
from packplay.games.day_night.flow import scores
from packplay.games.day_night.state import SEATS, DayNightState
from packplay_protocol.games.day_night import SeatView, SlotView, View


def viewer_seat(audience: Audience) -> int | None:
    """The audience's seat, or None for a spectator (or a number that is no seat)."""
    return audience if audience is not None and 0 <= audience < SEATS else None


def build_view(state: DayNightState, audience: Audience) -> View:
    viewer = viewer_seat(audience)
    return View(
        seat=viewer,
        role=None if viewer is None else state.role(viewer),
        day_seat=state.day_seat,
        round=state.round,
        k=state.k,
        phase=state.phase,
        slot=state.slot,
        revealed=state.revealed,
        outcomes=tuple(state.outcomes),
        seats=tuple(seat_view(state, seat, viewer) for seat in range(SEATS)),
        scores=scores(state),
        over=state.over,
        seed=state.seed if state.over else None,
    )


def seat_view(state: DayNightState, seat: int, viewer: int | None) -> SeatView:
    own = state.over or viewer == seat
    return SeatView(
        seat=seat,
        role=state.role(seat),
        hand_count=len(state.hands[seat]),
        hand=tuple(state.hands[seat]) if own else None,
        row=row_view(state, seat, own),
        pile=tuple(state.piles[seat]),
        discarded=tuple(state.discards[seat]),
        buried=tuple(state.buried[seat]) if own else None,
        buried_count=len(state.buried[seat]),
        set_aside=tuple(state.set_aside[seat]),
        placed=bool(state.rows[seat]),
        committed=state.phase in ("replace", "declare") and state.choices[seat] is not None,
    )


def row_view(state: DayNightState, seat: int, own: bool) -> tuple[SlotView, ...]:
    """The seat's row: revealed slots for all, the rest for the owner only."""
    duds, colors = state.duds[seat], state.colors[seat]
    slots: list[SlotView] = []
    for slot, card in enumerate(state.rows[seat]):
        if slot < state.revealed:
            slots.append(SlotView(slot=slot, card=card, dud=duds[slot], color=colors[slot]))
        else:
            slots.append(SlotView(slot=slot, card=card if own else None))
    return tuple(slots)


def zones(state: DayNightState) -> dict[str, list[str]]:
    """Every card id by zone: hand, row, pile, discard (face up), buried, set_aside per seat."""
    found: dict[str, list[str]] = {}
    for seat in range(SEATS):
        for name, cards in (
            ("hand", state.hands[seat]),
            ("row", state.rows[seat]),
            ("pile", state.piles[seat]),
            ("discard", state.discards[seat]),
            ("buried", state.buried[seat]),
            ("set_aside", state.set_aside[seat]),
        ):
            found[f"{name}:{seat}"] = list(cards)
    return found


def hidden_from(state: DayNightState, audience: Audience) -> frozenset[str]:
    """Other seats' cards in hand, face down in a row or buried, never shown face up."""
    if state.over:
        return frozenset()
    viewer = viewer_seat(audience)
    hidden: set[str] = set()
    for seat in range(SEATS):
        if seat != viewer:
            hidden.update(state.hands[seat], state.rows[seat][state.revealed :], state.buried[seat])
    hidden.difference_update(state.public)
    return frozenset(hidden)


def known_cards(state: DayNightState, audience: Audience) -> list[str]:
    """Every card id not hidden from ``audience``, sorted (the audience's card table)."""
    return sorted(state.cards.keys() - hidden_from(state, audience))
