"""Wire types shared by every game: legal-action descriptions, results, seats."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import msgspec


@dataclass(frozen=True)
class GameFacts:
    """What a game is, besides its wire types: the game-types answer is built from these.

    `simultaneous` is true when the game has decisions that several seats make at the
    same time, each kept secret until all have chosen (RULES.md C-5).
    """

    title: str
    min_players: int
    max_players: int
    default_sets: tuple[str, ...]
    simultaneous: bool


def seat_out_of_range(seat: int | None, players: int, option: str) -> None:
    """Refuse a seat option naming a seat the game does not have.

    The message ends as msgspec's own do (" - at `$.options.<name>`"), so every
    refusal of a create-game body names the member at fault the same way.

    Raises:
        ValueError: `seat` is not below `players`.
    """
    if seat is not None and seat >= players:
        raise ValueError(f"Expected a seat of this game, 0 to {players - 1} - at `$.options.{option}`")


class ChooseCards(msgspec.Struct, frozen=True, kw_only=True, tag="choose_cards"):
    """A legal action too large to enumerate: fill `field` of `template` with card ids.

    `template` is an action message (a dict with its `type`) complete but for
    `field`. The chosen ids come from `options`; between `min_count` and
    `max_count` of them, all distinct. When `ordered` the order of the list
    matters (slot order); when `max_count` is 1 and `single` is true the field
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

    A client may send any action in `actions` as it is, or any action built from
    one entry of `choices`. Both empty means the seat has nothing to decide.
    """

    actions: tuple[ActionT, ...] = ()
    choices: tuple[ChooseCards, ...] = ()

    @property
    def empty(self) -> bool:
        return not self.actions and not self.choices


class GameResult(msgspec.Struct, frozen=True, kw_only=True):
    """The outcome of a finished game.

    `winners` lists the winning seats (several when they share the win; all seats
    on a draw, with `draw` true). `scores` is per seat in seat order.
    """

    winners: tuple[int, ...]
    draw: bool
    scores: tuple[float, ...]
    reason: str
