"""What leaves the engine: the view, the zones and the hidden cards (C-6).

Only the deck is hidden, from everyone (its count is public); the belt, the
collections, the discards and the set-aside cards are face up.
"""

from __future__ import annotations

from packplay.games.base import Audience
from packplay.games.mishra_factory.scoring import score_lines
from packplay.games.mishra_factory.state import MishraFactoryState
from packplay_protocol.games.mishra_factory import GROUPS, Collection, View


def collection_of(state: MishraFactoryState, seat: int) -> Collection:
    """One seat's collection by group, each group in the order taken."""
    entries = state.collections[seat]
    groups = {g: tuple(e.card for e in entries if e.group == g) for g in GROUPS}
    return Collection(seat=seat, groups=groups)


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
        collections=tuple(collection_of(state, seat) for seat in range(state.players)),
        discarded=tuple(state.discarded),
        set_aside=tuple(state.set_aside),
        scores=score_lines(state.collections),
        over=over,
        seed=state.seed if over else None,
    )


def zones(state: MishraFactoryState) -> dict[str, list[str]]:
    """Every card id under its zone: deck, belt, collection:<seat>, discarded, set_aside."""
    result = {
        "deck": [card.id for card in state.deck],
        "belt": [card.id for card in state.belt],
        "discarded": [card.id for card in state.discarded],
        "set_aside": [card.id for card in state.set_aside],
    }
    for seat, collection in enumerate(state.collections):
        result[f"collection:{seat}"] = [entry.card.id for entry in collection]
    return result


def hidden_from(state: MishraFactoryState, audience: Audience) -> frozenset[str]:
    """The deck's cards, for every audience alike."""
    return frozenset(card.id for card in state.deck)
