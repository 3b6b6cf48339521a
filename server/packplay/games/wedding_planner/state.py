"""The whole state of a Vampire Wedding Planner game, and the turn arithmetic on it."""

from __future__ import annotations

from typing import Literal

from packplay.games.base import GameConfig, GameState

TURNS_PER_PLAYER = 4
"""The game ends after every player has had this many turns (RULES.md)."""

HAND_SIZE = 4
"""Cards dealt to each player at setup."""

TurnPhase = Literal["pickup", "discard"]


class WeddingState(GameState, kw_only=True):
    """Everything about one game; mutated in place only on a private copy.

    ``draw`` lists the face-down draw pile top first; ``discard`` lists the
    face-up discard pile bottom first (its last card is the top). ``revealed``
    holds the hand cards whose identity is public because their holder took
    them face up from the discard pile. ``turns_done`` counts finished turns
    over all seats; ``phase`` tells which half of the current turn is awaited.
    """

    config: GameConfig
    seed: int
    hands: list[list[str]]
    themes: list[str | None]
    draw: list[str]
    discard: list[str]
    set_aside: list[str]
    revealed: list[str]
    first_seat: int
    turns_done: int = 0
    phase: TurnPhase = "pickup"


def players(state: WeddingState) -> int:
    return len(state.hands)


def total_turns(state: WeddingState) -> int:
    return TURNS_PER_PLAYER * players(state)


def is_over(state: WeddingState) -> bool:
    return state.turns_done >= total_turns(state)


def seat_after(state: WeddingState, turns_done: int) -> int:
    """The seat playing turn number ``turns_done``: counter-clockwise is reverse seat order."""
    return (state.first_seat - turns_done) % players(state)


def current_seat(state: WeddingState) -> int:
    return seat_after(state, state.turns_done)


def turns_taken(state: WeddingState, seat: int) -> int:
    """How many turns ``seat`` has finished so far."""
    n = players(state)
    position = (state.first_seat - seat) % n
    full, rest = divmod(state.turns_done, n)
    return full + (1 if position < rest else 0)
