"""Wire types shared by every game: legal-action descriptions, results, seats."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Generic, TypeVar

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
    """A legal action completed by choosing cards: fill `field` of `template` with card ids.

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
    one entry of `choices`. Both empty means the seat has nothing to decide. Each kind
    of decision always comes in the same form, whatever the hand size: a row of Day vs
    Night, a back card of Mishra's Factory (with the card to discard) and a Base Race
    layout are choices; every other decision is a list of concrete actions.
    """

    actions: tuple[ActionT, ...] = ()
    choices: tuple[ChooseCards, ...] = ()

    @property
    def empty(self) -> bool:
        return not self.actions and not self.choices


RESULT_REASONS: dict[str, dict[str, str]] = {
    "day_night": {
        "most_cards_in_pile": "most cards in pile after three rounds",
        "equal_piles": "equal piles after three rounds",
    },
    "mishra_factory": {
        "all_cards_collected": "every card is collected: the highest score wins",
    },
    "wedding_planner": {
        "highest_hand_score": "the highest hand score after four turns each",
        "all_scores_tied": "every hand scores the same after four turns each",
    },
    "base_race": {
        "land_revealed": "a land was revealed in a battle: its owner loses",
        "land_attacked_land": "a land attacked a land: the attacker wins",
        "move_limit": "the move limit was reached: a draw",
    },
}
"""Every game's result reasons: the identifier, then its text in English."""

ResultReason = Annotated[
    str,
    msgspec.Meta(
        pattern=r"^[a-z][a-z0-9_]*$",
        max_length=40,
        description=(
            "Why the game ended, as an identifier to branch on. Day vs Night: most_cards_in_pile, "
            "equal_piles. Mishra's Factory: all_cards_collected. Vampire Wedding Planner: "
            "highest_hand_score, all_scores_tied. Base Race: land_revealed, land_attacked_land, "
            "move_limit. A new game may bring new reasons."
        ),
    ),
]

Score = Annotated[
    int | float,
    msgspec.Meta(
        description=(
            "A seat's score. A whole number in every game but Base Race, which scores 1 for "
            "the winner and 0 for the loser, or 0.5 each on a draw."
        )
    ),
]


class GameResult(msgspec.Struct, frozen=True, kw_only=True):
    """The outcome of a finished game.

    `winners` lists the winning seats, in seat order: several when they share the win.
    `draw` is true exactly when every seat is a winner (a draw and a win shared by all
    seats are the same thing). `scores` has one score per seat, in seat order: what
    each game counts (cards in pile, points, hand score; 1, 0 or 0.5 in Base Race).
    `reason` is an identifier; `reason_text` says the same in English words, for
    people.
    """

    winners: tuple[int, ...]
    draw: bool
    scores: tuple[Score, ...]
    reason: ResultReason
    reason_text: str


def game_result(game: str, winners: tuple[int, ...], scores: tuple[Score, ...], reason: str) -> GameResult:
    """A result with its reason's text; ``draw`` when every seat is a winner."""
    return GameResult(
        winners=winners,
        draw=len(winners) == len(scores),
        scores=scores,
        reason=reason,
        reason_text=RESULT_REASONS[game][reason],
    )
