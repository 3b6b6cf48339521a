"""What each audience may see (C-6, WP-3, WP-5), and where every card is.

During play an audience sees: the discard pile (public, ordered), the set-aside
cards (public), the draw pile's count only, its own hand and theme, and of every
other hand its count and the cards that seat took face up from the discard pile.
After the end everything is shown, draw pile included.

Views name cards by id; the facts of the cards an audience may know travel in
the card table beside the view (``Game.known_cards``: every card not in
``hidden_from``), so every id a view or event names is outside ``hidden_from``.
"""

from __future__ import annotations

from packplay.games.base import Audience
from packplay.games.wedding_planner.moves import final_scores
from packplay.games.wedding_planner.scoring import winners
from packplay.games.wedding_planner.state import (
    TURNS_PER_PLAYER,
    WeddingState,
    current_seat,
    is_over,
    players,
    turns_taken,
)
from packplay_protocol.games.wedding_planner import Phase, Score, SeatView, View


def render(state: WeddingState, audience: Audience) -> View:
    """The view of ``audience``: a seat, or None (or any non-seat) for a spectator."""
    viewer = audience if audience is not None and 0 <= audience < players(state) else None
    over = is_over(state)
    scores = final_scores(state) if over else None
    phase: Phase = "over" if over else state.phase
    return View(
        viewer=viewer,
        players=players(state),
        phase=phase,
        current_seat=None if over else current_seat(state),
        first_seat=state.first_seat,
        turns_per_player=TURNS_PER_PLAYER,
        turns_done=state.turns_done,
        draw_count=len(state.draw),
        discard=tuple(state.discard),
        set_aside=tuple(sorted(state.set_aside)),
        seats=tuple(_seat(state, seat, viewer, scores) for seat in range(players(state))),
        draw_pile=tuple(state.draw) if over else (),
        winners=winners(scores) if scores else (),
    )


def _seat(state: WeddingState, seat: int, viewer: int | None, scores: tuple[Score, ...] | None) -> SeatView:
    sees_all = scores is not None or seat == viewer
    hand = state.hands[seat]
    visible = hand if sees_all else [card for card in hand if card in state.revealed]
    theme = state.themes[seat]
    return SeatView(
        seat=seat,
        hand_count=len(hand),
        cards=tuple(sorted(visible)),
        has_theme=theme is not None,
        theme=theme if sees_all else None,
        turns_taken=turns_taken(state, seat),
        score=None if scores is None else scores[seat],
    )


def zones(state: WeddingState) -> dict[str, list[str]]:
    """Every card of the game under its zone: hands, themes, piles, set-aside."""
    result: dict[str, list[str]] = {
        "draw": list(state.draw),
        "discard": list(state.discard),
        "set_aside": list(state.set_aside),
    }
    for seat, hand in enumerate(state.hands):
        result[f"hand:{seat}"] = list(hand)
        theme = state.themes[seat]
        result[f"theme:{seat}"] = [] if theme is None else [theme]
    return result


def hidden_from(state: WeddingState, audience: Audience) -> frozenset[str]:
    """The draw pile, other seats' themes and the hand cards they did not take face up."""
    if is_over(state):
        return frozenset()
    hidden = set(state.draw)
    for seat, hand in enumerate(state.hands):
        if seat == audience:
            continue
        hidden.update(card for card in hand if card not in state.revealed)
        theme = state.themes[seat]
        if theme is not None:
            hidden.add(theme)
    return frozenset(hidden)
