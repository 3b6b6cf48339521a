"""What each audience sees (C-6), the card zones, and the hidden card ids.

Views name cards by id; the audience's card table (``known_cards``: every card not
in ``hidden_from``) carries their facts. A seat sees its own hand, row and buried
cards; everyone sees the pairs already revealed, piles, face-up discards and
set-aside cards (C-1). A face-down row card is shown by slot only, without its id: a
card revealed in an earlier round and taken back to hand stays in every card table,
but must not be traceable to its new slot. After the end all is shown.
"""

from __future__ import annotations

from functools import cache

from packplay.games.base import Audience
from packplay.games.day_night.flow import scores
from packplay.games.day_night.state import SEATS, DayNightState
from packplay.games.layout import Changes, Part, ViewLayout, private, shared
from packplay_protocol.games import day_night as events
from packplay_protocol.games.day_night import Role, SlotView, View


def viewer_seat(audience: Audience) -> int | None:
    """The audience's seat, or None for a spectator (or a number that is no seat)."""
    return audience if audience is not None and 0 <= audience < SEATS else None


@cache
def layout(players: int) -> ViewLayout[DayNightState]:
    """The view part by part, in the order of its fields (``players`` is always 2)."""
    parts: list[Part[DayNightState]] = [
        private("/seat", lambda state, audience: viewer_seat(audience), ()),
        private("/role", _viewer_role, ("day_seat",)),
        shared("/day_seat", lambda state: state.day_seat, ("day_seat",)),
        shared("/round", lambda state: state.round, ("round",)),
        shared("/k", lambda state: state.k, ("k",)),
        shared("/phase", lambda state: state.phase, ("phase",)),
        shared("/slot", lambda state: state.slot, ("slot",)),
        shared("/revealed", lambda state: state.revealed, ("revealed",)),
        shared("/outcomes", lambda state: tuple(state.outcomes), ("outcomes",)),
    ]
    for seat in range(SEATS):
        parts += seat_parts(seat)
    parts += [
        shared("/scores", scores, ("piles",)),
        shared("/over", lambda state: state.over, ("phase",)),
        shared("/seed", lambda state: state.seed if state.over else None, ("phase", "seed")),
    ]
    tag = View.__struct_config__.tag
    return ViewLayout(tag, DayNightState.__struct_fields__, parts, KNOWN)  # type: ignore[arg-type]


KNOWN = ("hands", "rows", "revealed", "buried", "public", "phase")
"""The fields of the state that say which cards are hidden from whom (``hidden_from``)."""


def seat_parts(seat: int) -> list[Part[DayNightState]]:
    """One seat's side of the table: its hand, row and buried cards are its own (all
    of it is shown once the game is over)."""
    at = f"/seats/{seat}"

    def own(state: DayNightState, audience: Audience) -> bool:
        return state.over or viewer_seat(audience) == seat

    def hand(state: DayNightState, audience: Audience) -> tuple[str, ...] | None:
        return tuple(state.hands[seat]) if own(state, audience) else None

    def buried(state: DayNightState, audience: Audience) -> tuple[str, ...] | None:
        return tuple(state.buried[seat]) if own(state, audience) else None

    return [
        shared(f"{at}/seat", lambda state: seat, (), seat),
        shared(f"{at}/role", lambda state: state.role(seat), ("day_seat",), seat),
        shared(f"{at}/hand_count", lambda state: len(state.hands[seat]), ("hands",), seat),
        private(f"{at}/hand", hand, ("hands", "phase"), seat),
        private(
            f"{at}/row",
            lambda state, audience: row_view(state, seat, own(state, audience)),
            ("rows", "revealed", "duds", "colors", "phase"),
            seat,
        ),
        shared(f"{at}/pile", lambda state: tuple(state.piles[seat]), ("piles",), seat),
        shared(f"{at}/discarded", lambda state: tuple(state.discards[seat]), ("discards",), seat),
        private(f"{at}/buried", buried, ("buried", "phase"), seat),
        shared(f"{at}/buried_count", lambda state: len(state.buried[seat]), ("buried",), seat),
        shared(f"{at}/set_aside", lambda state: tuple(state.set_aside[seat]), ("set_aside",), seat),
        shared(f"{at}/placed", lambda state: bool(state.rows[seat]), ("rows",), seat),
        shared(
            f"{at}/committed",
            lambda state: state.phase in ("replace", "declare") and state.choices[seat] is not None,
            ("phase", "choices"),
            seat,
        ),
    ]


def _viewer_role(state: DayNightState, audience: Audience) -> Role | None:
    viewer = viewer_seat(audience)
    return None if viewer is None else state.role(viewer)


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


_ROUND = (
    "round", "k", "phase", "hands", "rows", "piles", "discards", "buried", "set_aside",
    "revealed", "slot", "duds", "colors", "outcomes", "need", "choices", "public",
)  # fmt: skip
CHANGES: dict[type, Changes] = {
    events.RowPlaced: Changes(own=("hands", "rows")),
    events.HandDiscarded: Changes(own=("hands", "discards", "buried", "set_aside"), table=("public",)),
    events.ChoiceCommitted: Changes(own=("choices",)),
    events.CardReplaced: Changes(
        own=("choices", "discards", "hands", "rows", "colors", "duds"), table=("need", "phase", "public")
    ),
    events.ColorDeclared: Changes(own=("choices", "colors"), table=("need", "phase", "public")),
    events.CardIsDud: Changes(own=("duds", "colors"), table=("public",)),
    events.PairRevealed: Changes(
        table=("revealed", "slot", "colors", "duds", "need", "phase", "public", "choices")
    ),
    events.PairResolved: Changes(
        table=(
            "outcomes",
            "piles",
            "slot",
            "duds",
            "revealed",
            "need",
            "phase",
            "public",
            "choices",
            "colors",
            "k",
        )
    ),
    events.RoundEnded: Changes(table=_ROUND),
    events.RoundStarted: Changes(table=_ROUND),
    events.GameEnded: Changes(table=_ROUND),
}
"""What each of the game's events changes (see :class:`packplay.games.layout.Changes`)."""
