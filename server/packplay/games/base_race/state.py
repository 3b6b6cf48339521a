"""The Base Race game state and the geometry of its 4 x 6 board (RULES.md BR-5)."""

from __future__ import annotations

import msgspec

from packplay.games.base import GameConfig, GameState
from packplay_protocol.games.base_race import COLUMNS, LAYOUT_SIZE, ROWS

SQUARES = ROWS * COLUMNS
NOBODY = -1
SEATS = (0, 1)


class BaseRaceState(GameState, kw_only=True):
    """Everything about one game.

    ``board`` has one entry per square (``row * 4 + col``): a card id or None.
    ``hands`` hold each seat's cards until it commits its layout; a committed layout
    is already on ``board`` but shown to nobody else until both are in (C-5).
    ``laid_out`` lists the seats in the order they committed: the first moves first.
    ``revealed`` lists the face-up cards on the board; ``turn`` is the seat to move,
    ``normal_seat`` the seat of the last normal (not extra) turn, ``extra_turns`` the
    queue of extra turns to take (BR-3); ``moves`` counts every move made (BR-7).
    ``out`` holds the removed lands and the undealt cards (face down, out of play).
    """

    seed: int
    config: GameConfig
    move_limit: int
    owners: dict[str, int]
    set_aside: list[str]
    out: list[str]
    camps: list[str]
    hands: list[list[str]]
    board: list[str | None]
    laid_out: list[int] = msgspec.field(default_factory=list)
    revealed: list[str] = msgspec.field(default_factory=list)
    discard: list[str] = msgspec.field(default_factory=list)
    turn: int = NOBODY
    normal_seat: int = NOBODY
    extra_turns: list[int] = msgspec.field(default_factory=list)
    moves: int = 0
    winner: int = NOBODY
    draw: bool = False
    end_reason: str = ""

    @property
    def board_set(self) -> bool:
        """Both layouts are in: the play phase has begun (or ended)."""
        return len(self.laid_out) == len(SEATS)

    @property
    def over(self) -> bool:
        return self.winner != NOBODY or self.draw


def square(row: int, col: int) -> int:
    return row * COLUMNS + col


def row_col(index: int) -> tuple[int, int]:
    return divmod(index, COLUMNS)


def on_board(row: int, col: int) -> bool:
    return 0 <= row < ROWS and 0 <= col < COLUMNS


def layout_squares(seat: int) -> range:
    """The squares of a seat's layout in ``Layout.cards`` order (BR-5)."""
    first = 0 if seat == 0 else SQUARES - LAYOUT_SIZE
    return range(first, first + LAYOUT_SIZE)


def neighbours(index: int) -> list[int]:
    """The squares one step up, down, left or right of ``index``."""
    row, col = row_col(index)
    steps = ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1))
    return [square(r, c) for r, c in steps if on_board(r, c)]


NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(tuple(neighbours(i)) for i in range(SQUARES))
ROW_COL: tuple[tuple[int, int], ...] = tuple(row_col(i) for i in range(SQUARES))
"""The (row, col) of every square, by index."""
