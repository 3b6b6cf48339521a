"""Base Race (Zendikar Rising) wire types: actions, the game view and events.

Board coordinates are absolute: rows 0-5 and columns 0-3; rows 0-2 are seat 0's
half and rows 3-5 seat 1's (RULES.md BR-5), so seat 0's front row is row 2 and
seat 1's is row 3. Mirroring the board for seat 1 is the client's job.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from packplay_protocol.cards import CardInstance

ROWS = 6
COLUMNS = 4
LAYOUT_SIZE = 12
"""Cards in one seat's layout: 4 columns x 3 rows."""

Phase = Literal["layout", "play", "over"]
BattleKind = Literal["land", "land_vs_land", "spell", "artifact", "creature"]
"""Which rule settled a battle: 1 (a land revealed; a land attacking a land), 2, 3 or 4."""


class Layout(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="base_race.layout"):
    """Lay out all 12 of your cards face down (C-5: held hidden until both seats have).

    ``cards[i]`` goes to row ``first + i // 4``, column ``i % 4``, where ``first`` is
    0 for seat 0 and 3 for seat 1.
    """

    cards: tuple[str, ...]


class Move(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="base_race.move"):
    """Move your card ``card`` one square orthogonally to (``row``, ``col``).

    Onto an empty square it is a plain move; onto an opponent's card, a battle.
    """

    card: str
    row: int
    col: int


Action = Layout | Move


class Piece(msgspec.Struct, frozen=True, kw_only=True):
    """A card on the board. ``card`` is None when the audience may not know it (BR-6)."""

    id: str
    owner: int
    row: int
    col: int
    face_up: bool
    card: CardInstance | None = None


class View(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="base_race.view"):
    """What one audience sees of a Base Race game.

    ``hand`` is the viewer's cards still to lay out (sorted by id). ``board`` lists
    the pieces the audience may place (during the layout phase, only the viewer's
    own committed layout), sorted by square. ``out`` (removed lands and undealt
    cards, face down) is only shown once the game is over; before that, ``out_count``.
    """

    seat: int | None
    phase: Phase
    laid_out: tuple[bool, ...]
    hand: tuple[CardInstance, ...]
    hand_counts: tuple[int, ...]
    board: tuple[Piece, ...]
    discard: tuple[CardInstance, ...]
    set_aside: tuple[CardInstance, ...]
    out_count: int
    out: tuple[CardInstance, ...]
    first_seat: int | None
    turn: int | None
    extra_turns: tuple[int, ...]
    moves: int
    move_limit: int
    winners: tuple[int, ...]
    end_reason: str | None


class LaidOut(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="base_race.laid_out"):
    """A seat committed its layout (its content stays hidden until both have, C-5)."""

    seat: int


class BoardSet(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="base_race.board_set"):
    """Both layouts are in: where every card is, face down, and who moves first."""

    pieces: tuple[Piece, ...]
    first_seat: int


class Moved(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="base_race.moved"):
    """A card moved onto an empty square."""

    seat: int
    card: str
    from_row: int
    from_col: int
    row: int
    col: int


class Battle(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="base_race.battle"):
    """A card attacked the card on (``row``, ``col``): both are revealed.

    ``discarded`` lists the ids that went to the discard pile, ``extra_turn`` the seat
    that gained an extra turn, ``moved`` whether the attacker entered the square (BR-2).
    """

    seat: int
    attacker: CardInstance
    defender: CardInstance
    from_row: int
    from_col: int
    row: int
    col: int
    kind: BattleKind
    discarded: tuple[str, ...]
    extra_turn: int | None
    moved: bool


class TurnStarted(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="base_race.turn"):
    """``seat`` moves next; ``extra`` when it is an extra turn (BR-3)."""

    seat: int
    extra: bool


class GameOver(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="base_race.game_over"):
    """The game ended; ``reason`` is ``land_revealed`` (rule 1: a land's owner loses),
    ``land_attacked_land`` (rule 1: the attacker wins) or ``move_limit`` (BR-7 draw)."""

    winners: tuple[int, ...]
    draw: bool
    reason: str


Event = LaidOut | BoardSet | Moved | Battle | TurnStarted | GameOver
