"""What leaves the engine: the view, the zones and the hidden cards (C-6).

Only the deck is hidden, from everyone (its count is public); the belt, the
collections, the discards and the set-aside cards are face up. Views and events
name cards by id; the facts of every card not in the deck go in the card table.
"""

from __future__ import annotations

from collections.abc import Sequence

from packplay.games.base import Audience
from packplay.games.mishra_factory.scoring import score_lines
from packplay.games.mishra_factory.state import Collected, MishraFactoryState
from packplay_protocol.games.mishra_factory import GROUPS, Collection, Group, View


def collection_of(entries: Sequence[Collected], seat: int) -> Collection:
    """One seat's collection by group, each group in the order taken (every group present)."""
    groups: dict[Group, list[str]] = {group: [] for group in GROUPS}
    for entry in entries:
        groups[entry.group].append(entry.card)
    return Collection(seat=seat, groups={group: tuple(ids) for group, ids in groups.items()})


def build_view(state: MishraFactoryState, audience: Audience) -> View:
    """The table as ``audience`` sees it: the deck only as a count."""
    over = state.over
    return View(
        seat=audience,
        players=state.players,
        first_seat=state.first_seat,
        turn=None if over else state.turn,
        turn_number=state.turn_number,
        belt=tuple(state.belt),
        deck_count=len(state.deck),
        collections=tuple(collection_of(entries, seat) for seat, entries in enumerate(state.collections)),
        discarded=tuple(state.discarded),
        set_aside=tuple(state.set_aside),
        scores=score_lines(state.collections, state.cards),
        over=over,
        seed=state.seed if over else None,
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
