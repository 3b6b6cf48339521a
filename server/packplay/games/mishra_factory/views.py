"""What leaves the engine: the view, the zones and the hidden cards (C-6).

Only the deck is hidden, from everyone (its count is public); the belt, the
collections, the discards and the set-aside cards are face up. Views and events
name cards by id; the facts of every card not in the deck go in the card table.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from packplay.games.base import Audience
from packplay.games.layout import Changes, Part, ViewLayout, private, shared
from packplay.games.mishra_factory.scoring import score_lines
from packplay.games.mishra_factory.state import Collected, MishraFactoryState
from packplay_protocol.games import mishra_factory as events
from packplay_protocol.games.mishra_factory import GROUPS, Collection, Group, View


def collection_of(entries: Sequence[Collected], seat: int) -> Collection:
    """One seat's collection by group, each group in the order taken (every group present)."""
    groups: dict[Group, list[str]] = {group: [] for group in GROUPS}
    for entry in entries:
        groups[entry.group].append(entry.card)
    return Collection(seat=seat, groups={group: tuple(ids) for group, ids in groups.items()})


@cache
def layout(players: int) -> ViewLayout[MishraFactoryState]:
    """The view part by part, in the order of its fields: the deck only as a count."""
    over = ("deck", "belt")  # the game is over once both are empty (MF-4)
    parts: list[Part[MishraFactoryState]] = [
        private("/seat", lambda state, audience: audience, ()),
        shared("/players", lambda state: state.players, ("players",)),
        shared("/first_seat", lambda state: state.first_seat, ("first_seat",)),
        shared("/turn", lambda state: None if state.over else state.turn, ("turn", *over)),
        shared("/turn_number", lambda state: state.turn_number, ("turn_number",)),
        shared("/belt", lambda state: tuple(state.belt), ("belt",)),
        shared("/deck_count", lambda state: len(state.deck), ("deck",)),
    ]
    parts += [_collection_part(seat) for seat in range(players)]
    parts += [
        shared("/discarded", lambda state: tuple(state.discarded), ("discarded",)),
        shared("/set_aside", lambda state: tuple(state.set_aside), ("set_aside",)),
        shared("/scores", lambda state: score_lines(state.collections, state.cards), ("collections",)),
        shared("/over", lambda state: state.over, over),
        shared("/seed", lambda state: state.seed if state.over else None, ("seed", *over)),
    ]
    tag = View.__struct_config__.tag
    return ViewLayout(tag, MishraFactoryState.__struct_fields__, parts, ("deck",))  # type: ignore[arg-type]


def _collection_part(seat: int) -> Part[MishraFactoryState]:
    return shared(
        f"/collections/{seat}",
        lambda state: collection_of(state.collections[seat], seat),
        ("collections",),
        seat,
    )


def zones(state: MishraFactoryState) -> dict[str, list[str]]:
    """Every card id under its zone: deck, belt, collection:<seat>, discarded, set_aside."""
    result = {
        "deck": list(state.deck),
        "belt": list(state.belt),
        "discarded": list(state.discarded),
        "set_aside": list(state.set_aside),
    }
    for seat, collection in enumerate(state.collections):
        result[f"collection:{seat}"] = [entry.card for entry in collection]
    return result


def hidden_from(state: MishraFactoryState, audience: Audience) -> frozenset[str]:
    """The deck's cards, for every audience alike."""
    return frozenset(state.deck)


CHANGES: dict[type, Changes] = {
    events.Taken: Changes(
        own=("collections",), table=("belt", "discarded", "set_aside", "turn", "turn_number")
    ),
    events.Refilled: Changes(table=("belt", "deck")),
    events.Ended: Changes(table=("turn", "turn_number")),
}
"""What each of the game's events changes (see :class:`packplay.games.layout.Changes`)."""
