"""Hand-built cards and games for the Mishra's Factory tests (no catalog, no files)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import rules_checks
from card_factory import make_card

from packplay.cards.model import CardInstance
from packplay.games.base import GameConfig, RuleError, Transition
from packplay.games.mishra_factory import MishraFactory, MishraFactoryState
from packplay_protocol.games.mishra_factory import Group, Take

ENGINE = MishraFactory()


def card(
    colors: str = "",
    *,
    mv: float = 0,
    land: bool = False,
    name: str | None = None,
    magic_back: bool = True,
    card_id: str | None = None,
) -> CardInstance:
    """A card: ``colors`` like "WU"; ``land`` makes it a Land (colors kept as given)."""
    types = ("Land",) if land else ("Creature",)
    return make_card(
        colors=colors, types=types, name=name, card_id=card_id, mana_value=mv, magic_back=magic_back
    )


def cards(n: int, colors: str = "R", mv: float = 1) -> list[CardInstance]:
    return [card(colors, mv=mv) for _ in range(n)]


def new_game(
    boosters: Sequence[Sequence[CardInstance]],
    *,
    first_seat: int = 0,
    shuffle: bool = False,
    seed: int = 7,
    **options: Any,
) -> MishraFactoryState:
    """A game from the given boosters, unshuffled and seat ``first_seat`` first by default."""
    opts = {"shuffle": shuffle, "first_seat": first_seat, **options}
    config = GameConfig(game="mishra_factory", players=len(boosters), options=opts)
    return ENGINE.setup(config, seed, None, boosters)


def stacked(deck: Sequence[CardInstance], players: int = 2, first_seat: int = 0) -> MishraFactoryState:
    """A game whose deck is exactly ``deck`` in order (booster 0 holds it all)."""
    boosters: list[list[CardInstance]] = [list(deck)] + [[] for _ in range(players - 1)]
    return new_game(boosters, first_seat=first_seat)


def take(position: int, group: Group, discard: str | None = None) -> Take:
    return Take(belt_position=position, group=group, discard=discard)


def play(state: MishraFactoryState, *actions: Take) -> MishraFactoryState:
    """Apply ``actions`` in turn order; returns the final state."""
    for action in actions:
        state = ENGINE.apply(state, state.turn, action).state
    return state


def step(state: MishraFactoryState, action: Take) -> Transition[MishraFactoryState]:
    return ENGINE.apply(state, state.turn, action)


def refused(state: MishraFactoryState, seat: int, action: Any) -> RuleError:
    """Assert that ``action`` is refused and changes nothing; return the error."""
    return rules_checks.refused(ENGINE, state, seat, action)


def ids(items: Sequence[CardInstance]) -> list[str]:
    return [c.id for c in items]
