"""Hand-built cards and stacked games for the Vampire Wedding Planner tests (no catalog, no files)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import msgspec
import rules_checks
from card_factory import make_card

from packplay.cards.model import CardInstance
from packplay.games.base import Emitted, GameConfig, RuleError, Transition
from packplay.games.wedding_planner import WeddingPlanner
from packplay.games.wedding_planner.state import WeddingState
from packplay_protocol.games.wedding_planner import Discard, Draw, Take

ENGINE = WeddingPlanner()


def card(
    colors: str = "",
    *,
    mv: float = 1,
    types: Sequence[str] = ("Creature",),
    foil: bool = False,
    magic_back: bool = True,
    name: str | None = None,
    card_id: str | None = None,
) -> CardInstance:
    """A card: ``colors`` like "WU"; ``types`` its front-face card types."""
    return make_card(
        colors=colors,
        types=types,
        name=name,
        card_id=card_id,
        mana_value=mv,
        foil=foil,
        magic_back=magic_back,
    )


def land(colors: str = "", *, foil: bool = False) -> CardInstance:
    return card(colors, mv=0, types=("Land",), foil=foil)


def artifact(*, mv: float = 2, foil: bool = False) -> CardInstance:
    return card("", mv=mv, types=("Artifact",), foil=foil)


def insert() -> CardInstance:
    """A booster card without a Magic back (token, ad card): set aside (C-1)."""
    return card("", mv=0, types=(), magic_back=False, name="Token or ad card")


def dull(n: int, *, mv: float = 9) -> list[CardInstance]:
    """Colorless non-artifact cards that score on no line (and are never themes)."""
    return [card("", mv=mv, types=("Creature",)) for _ in range(n)]


def config(players: int, **options: Any) -> GameConfig:
    return GameConfig(game="wedding_planner", players=players, options=options)


def new_game(
    boosters: Sequence[Sequence[CardInstance]],
    *,
    seed: int = 7,
    **options: Any,
) -> WeddingState:
    return ENGINE.setup(config(len(boosters), **options), seed, None, boosters)


def stacked(
    hands: Sequence[Sequence[CardInstance]],
    top: CardInstance,
    draw: Sequence[CardInstance],
    themes: Sequence[CardInstance],
    *,
    first_seat: int = 0,
    inserts: Sequence[CardInstance] = (),
) -> WeddingState:
    """A game whose hands, discard top and draw pile (top first) are exactly as given.

    Seat ``s`` gets ``themes[s]``; booster 0 also holds every pile card (the pile is
    built unshuffled from booster 0), plus ``inserts`` (set aside, C-1).
    """
    pile = [c for hand in hands for c in hand] + [top, *draw]
    boosters = [[themes[0], *inserts, *pile]] + [[theme] for theme in themes[1:]]
    themes_option = [theme.id for theme in themes]
    return new_game(boosters, shuffle=False, first_seat=first_seat, themes=themes_option)


def simple(players: int = 2, *, first_seat: int = 0, draw: int = 20) -> WeddingState:
    """A stacked game of dull cards: each seat a red 3-drop theme."""
    hands = [dull(4) for _ in range(players)]
    themes = [card("R", mv=3) for _ in range(players)]
    return stacked(hands, dull(1)[0], dull(draw), themes, first_seat=first_seat)


def act(state: WeddingState, seat: int, action: Any) -> Transition[WeddingState]:
    return ENGINE.apply(state, seat, action)


def current(state: WeddingState) -> int:
    (seat,) = ENGINE.pending(state)
    return seat


def turn(state: WeddingState, pickup: Draw | Take, card_id: str) -> WeddingState:
    """One whole turn of the seat to play: pick up, then discard ``card_id``."""
    seat = current(state)
    state = act(state, seat, pickup).state
    return act(state, seat, Discard(card=card_id)).state


def hand_of(state: WeddingState, seat: int) -> list[str]:
    return sorted(state.hands[seat])


def refused(state: WeddingState, seat: int, action: Any) -> RuleError:
    """Assert that ``action`` is refused and changes nothing; return the error."""
    return rules_checks.refused(ENGINE, state, seat, action)


def encoded(obj: Any) -> str:
    return msgspec.json.encode(obj).decode()


def public_events(events: Iterable[Emitted]) -> list[Any]:
    return [e.event for e in events if e.to is None]


def finish(state: WeddingState) -> WeddingState:
    """Play every remaining turn by drawing and discarding the drawn card (hands unchanged)."""
    while ENGINE.result(state) is None:
        seat = current(state)
        drawn = state.draw[0]
        state = act(state, seat, Draw()).state
        state = act(state, seat, Discard(card=drawn)).state
    return state
