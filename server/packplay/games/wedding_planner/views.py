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

from functools import cache

from packplay.games.base import Audience
from packplay.games.layout import Changes, Part, ViewLayout, private, shared
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
from packplay_protocol.games import wedding_planner as events
from packplay_protocol.games.wedding_planner import Score, View

OVER = ("turns_done", "hands")
"""What tells whether the game is over (every seat has had its turns)."""


@cache
def layout(count: int) -> ViewLayout[WeddingState]:
    """The view part by part, in the order of its fields, for ``count`` players."""
    parts: list[Part[WeddingState]] = [
        private("/viewer", lambda state, audience: viewer_of(state, audience), ()),
        shared("/players", players, ()),
        shared("/phase", lambda state: "over" if is_over(state) else state.phase, ("phase", *OVER)),
        shared(
            "/current_seat",
            lambda state: None if is_over(state) else current_seat(state),
            ("first_seat", *OVER),
        ),
        shared("/first_seat", lambda state: state.first_seat, ("first_seat",)),
        shared("/turns_per_player", lambda state: TURNS_PER_PLAYER, ()),
        shared("/turns_done", lambda state: state.turns_done, ("turns_done",)),
        shared("/draw_count", lambda state: len(state.draw), ("draw",)),
        shared("/discard", lambda state: tuple(state.discard), ("discard",)),
        shared("/set_aside", lambda state: tuple(sorted(state.set_aside)), ("set_aside",)),
    ]
    for seat in range(count):
        parts += _seat_parts(seat)
    parts += [
        shared("/draw_pile", lambda state: tuple(state.draw) if is_over(state) else (), ("draw", *OVER)),
        shared(
            "/winners",
            lambda state: winners(final_scores(state)) if is_over(state) else (),
            ("themes", *OVER),
        ),
    ]
    tag = View.__struct_config__.tag
    known = ("draw", "revealed", "themes", *OVER)
    return ViewLayout(tag, WeddingState.__struct_fields__, parts, known)  # type: ignore[arg-type]


def _winners(state: WeddingState) -> tuple[int, ...]:
    return winners(final_scores(state)) if is_over(state) else ()


def viewer_of(state: WeddingState, audience: Audience) -> int | None:
    """The audience's seat, or None for a spectator (or any number that is no seat)."""
    return audience if audience is not None and 0 <= audience < players(state) else None


def _seat_parts(seat: int) -> list[Part[WeddingState]]:
    """One seat: its count, the cards the audience may see, its theme (its owner's until the end)."""
    at = f"/seats/{seat}"

    def sees_all(state: WeddingState, audience: Audience) -> bool:
        return is_over(state) or viewer_of(state, audience) == seat

    def cards(state: WeddingState, audience: Audience) -> tuple[str, ...]:
        hand = state.hands[seat]
        visible = hand if sees_all(state, audience) else [card for card in hand if card in state.revealed]
        return tuple(sorted(visible))

    def theme(state: WeddingState, audience: Audience) -> str | None:
        return state.themes[seat] if sees_all(state, audience) else None

    def score(state: WeddingState) -> Score | None:
        return final_scores(state)[seat] if is_over(state) else None

    return [
        shared(f"{at}/seat", lambda state: seat, (), seat),
        shared(f"{at}/hand_count", lambda state: len(state.hands[seat]), ("hands",), seat),
        private(f"{at}/cards", cards, ("revealed", *OVER), seat),
        shared(f"{at}/has_theme", lambda state: state.themes[seat] is not None, ("themes",), seat),
        private(f"{at}/theme", theme, ("themes", *OVER), seat),
        shared(
            f"{at}/turns_taken", lambda state: turns_taken(state, seat), ("first_seat", "turns_done"), seat
        ),
        shared(f"{at}/score", score, ("themes", *OVER), seat),
    ]


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


CHANGES: dict[type, Changes] = {
    events.Drew: Changes(own=("hands",), table=("draw", "phase")),
    events.Took: Changes(own=("hands",), table=("discard", "phase", "revealed")),
    events.Discarded: Changes(own=("hands",), table=("discard", "phase", "revealed", "turns_done")),
    events.Revealed: Changes(table=("phase", "revealed")),
}
"""What each of the game's events changes (see :class:`packplay.games.layout.Changes`)."""
