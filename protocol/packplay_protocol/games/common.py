"""Wire types shared by every game: legal-action descriptions, results, seats."""

from __future__ import annotations

from typing import Any, Generic, TypeVar

import msgspec


class ChooseCards(msgspec.Struct, frozen=True, kw_only=True, tag="choose_cards"):
    """A legal action too large to enumerate: fill ``field`` of ``template`` with card ids.

    ``template`` is an action message (a dict with its ``type``) complete but for
    ``field``. The chosen ids come from ``options``; between ``min_count`` and
    ``max_count`` of them, all distinct. When ``ordered`` the order of the list
    matters (slot order); when ``max_count`` is 1 and ``single`` is true the field
    holds one id instead of a list.
    """

    template: dict[str, Any]
    field: str
    options: tuple[str, ...]
    min_count: int
    max_count: int
    ordered: bool = False
    single: bool = False


ActionT = TypeVar("ActionT")


class LegalActions(msgspec.Struct, Generic[ActionT], frozen=True, kw_only=True):
    """What one seat may do now: concrete actions, and choices with constraints.

    A client may send any action in ``actions`` as it is, or any action built from
    one entry of ``choices``. Both empty means the seat has nothing to decide.
    """

    actions: tuple[ActionT, ...] = ()
    choices: tuple[ChooseCards, ...] = ()

    @property
    def empty(self) -> bool:
        return not self.actions and not self.choices


class GameResult(msgspec.Struct, frozen=True, kw_only=True):
    """The outcome of a finished game.

    ``winners`` lists the winning seats (several when they share the win; all seats
    on a draw, with ``draw`` true). ``scores`` is per seat in seat order.
    """

    winners: tuple[int, ...]
    draw: bool
    scores: tuple[float, ...]
    reason: str
