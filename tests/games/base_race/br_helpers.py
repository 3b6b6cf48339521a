"""Hand-built cards and stacked Base Race games (no catalog, no files)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from card_factory import make_card

from packplay.cards.model import CardInstance
from packplay.games.base import Emitted, GameConfig, Transition
from packplay.games.base_race import BaseRace
from packplay.games.base_race.state import BaseRaceState, layout_squares, row_col
from packplay_protocol.games.base_race import Battle, BoardSet, Layout, Move, Piece, View

ENGINE = BaseRace()

Square = tuple[int, int]


def make(
    types: Sequence[str],
    *,
    name: str | None = None,
    toughness: str | None = None,
    loyalty: str | None = None,
    supertypes: Sequence[str] = (),
    basic: bool = False,
    magic_back: bool = True,
    layout: str = "normal",
) -> CardInstance:
    return make_card(
        types=types,
        name=name,
        layout=layout,
        supertypes=tuple(supertypes),
        toughness=toughness,
        loyalty=loyalty,
        basic_land=basic,
        magic_back=magic_back,
    )


def creature(toughness: str = "2", *, legendary: bool = False, extra: Sequence[str] = ()) -> CardInstance:
    supertypes = ("Legendary",) if legendary else ()
    return make((*extra, "Creature"), toughness=toughness, supertypes=supertypes)


def planeswalker(loyalty: str = "3") -> CardInstance:
    return make(("Planeswalker",), loyalty=loyalty, supertypes=("Legendary",))


def artifact() -> CardInstance:
    return make(("Artifact",))


def spell(kind: str = "Instant") -> CardInstance:
    return make((kind,))


def basic(name: str = "Forest") -> CardInstance:
    return make(("Land",), name=name, supertypes=("Basic",), basic=True)


def land() -> CardInstance:
    return make(("Land",))


def insert() -> CardInstance:
    return make((), magic_back=False)


def creatures(n: int, toughness: str = "1") -> list[CardInstance]:
    return [creature(toughness) for _ in range(n)]


def config(**options: Any) -> GameConfig:
    return GameConfig(game="base_race", players=2, options=options)


def new_game(
    boosters: Sequence[Sequence[CardInstance]], *, shuffle: bool = False, **options: Any
) -> BaseRaceState:
    return ENGINE.setup(config(shuffle=shuffle, **options), 7, None, boosters)


def dealt(
    camps: Sequence[CardInstance], hands: Sequence[Sequence[CardInstance]], **options: Any
) -> BaseRaceState:
    """Unshuffled: seat s gets ``camps[s]`` and ``hands[s]`` (11 cards each)."""
    return new_game([[*camps, *hands[0], *hands[1]], [], []], **options)


def seat_cards(seat: int, placed: Mapping[Square, CardInstance]) -> list[CardInstance]:
    """A seat's 12 cards in layout order: ``placed`` ones, a camp at the back-left unless
    ``placed`` holds a basic land, and 1-toughness creatures elsewhere."""
    back_left = (0, 0) if seat == 0 else (5, 0)
    has_camp = any(c.basic_land for c in placed.values())
    cards = []
    for index in layout_squares(seat):
        spot = row_col(index)
        if spot in placed:
            cards.append(placed[spot])
        elif spot == back_left and not has_camp:
            cards.append(basic())
        else:
            cards.append(creature("1"))
    return cards


def board_game(
    top: Mapping[Square, CardInstance] | None = None,
    bottom: Mapping[Square, CardInstance] | None = None,
    *,
    first: int = 0,
    **options: Any,
) -> BaseRaceState:
    """A game in play whose board has seat 0's ``top`` and seat 1's ``bottom`` cards at
    the given squares (fillers elsewhere); ``first`` laid out first, so moves first."""
    layouts = [seat_cards(0, top or {}), seat_cards(1, bottom or {})]
    camps = [next(c for c in cards if c.basic_land) for cards in layouts]
    hands = [[c for c in cards if not c.basic_land] for cards in layouts]
    state = dealt(camps, hands, **options)
    for seat in (first, 1 - first):
        state = ENGINE.apply(state, seat, Layout(cards=tuple(c.id for c in layouts[seat]))).state
    return state


def at(state: BaseRaceState, row: int, col: int) -> str | None:
    return state.board[row * 4 + col]


def move(state: BaseRaceState, origin: Square, target: Square) -> Transition[BaseRaceState]:
    """The seat to move moves its card on ``origin`` to ``target``."""
    card = at(state, *origin)
    assert card is not None
    return ENGINE.apply(state, state.turn, Move(card=card, row=target[0], col=target[1]))


def events_of(transition: Transition[BaseRaceState], kind: type) -> list[Any]:
    return [e.event for e in transition.events if isinstance(e.event, kind)]


def all_public(events: Iterable[Emitted]) -> bool:
    return all(e.to is None for e in events)


def shown_ids(value: Any) -> set[str]:
    """The card ids a view or event (or a list of them) names so that their facts be shown.

    A piece's ``id`` and a move's ``card`` only say where a card is; ``Piece.card``,
    the view's card lists and a battle's two cards show what it is.
    """
    if isinstance(value, list | tuple):
        return {card_id for item in value for card_id in shown_ids(item)}
    if isinstance(value, View):
        listed = (*value.hand, *value.discard, *value.set_aside, *value.out)
        return set(listed) | shown_ids(value.board)
    if isinstance(value, BoardSet):
        return shown_ids(value.pieces)
    if isinstance(value, Piece):
        return set() if value.card is None else {value.card}
    if isinstance(value, Battle):
        return {value.attacker, value.defender}
    return set()
