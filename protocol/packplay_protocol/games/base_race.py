"""Base Race (Zendikar Rising) wire types: actions, the game view and events.

Board coordinates are absolute: rows 0-5 and columns 0-3; rows 0-2 are seat 0's
half and rows 3-5 seat 1's (RULES.md BR-5), so seat 0's front row is row 2 and
seat 1's is row 3. Mirroring the board for seat 1 is the client's job.

Views and events name cards by id only. A client looks an id up in the cards
table of the view message it came with, which holds the facts of exactly the
cards the audience may know (RULES.md BR-6).
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from packplay_protocol.cards import CardId
from packplay_protocol.games.common import GameFacts

FACTS = GameFacts(title="Base Race", min_players=2, max_players=2, default_sets=("ZNR",), simultaneous=True)
DEFAULT_MOVE_LIMIT = 200
"""BR-7: moves after which a game still running is a draw, unless the option says otherwise."""

ROWS = 6
COLUMNS = 4
LAYOUT_SIZE = 12
"""Cards in one seat's layout: 4 columns x 3 rows."""

Phase = Literal["layout", "play", "over"]
BattleKind = Literal["land", "land_vs_land", "spell", "artifact", "creature"]
"""Which rule settled a battle: 1 (a land revealed; a land attacking a land), 2, 3 or 4."""


class Options(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """The options of a Base Race game; each one left out takes its default."""

    shuffle: Annotated[
        bool,
        msgspec.Meta(
            description="Shuffle the basic lands and the other cards (true); false keeps pool order: "
            "the first two basic lands are the base camps of seats 0 and 1, and the other cards "
            "are dealt in order, 11 to seat 0, then 11 to seat 1."
        ),
    ] = True
    move_limit: Annotated[
        int,
        msgspec.Meta(
            ge=1,
            le=100_000,
            description="The number of moves after which a game still running is a draw (BR-7).",
        ),
    ] = DEFAULT_MOVE_LIMIT

    def check(self, players: int) -> None:
        """Nothing to check beyond the types."""


class Layout(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="base_race.layout"):
    """Lay out all 12 of your cards face down (C-5: held hidden until both seats have).

    cards lists the ids of your cards: the card at index i goes to row first + i // 4,
    column i % 4, where first is 0 for seat 0 and 3 for seat 1.
    """

    cards: tuple[str, ...]


class Move(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="base_race.move"):
    """Move your card (card is its id) one square orthogonally to (row, col).

    Onto an empty square it is a plain move; onto an opponent's card, a battle.
    """

    card: str
    row: int
    col: int


Action = Layout | Move


class Piece(msgspec.Struct, frozen=True, kw_only=True):
    """A card on the board, named by its id wherever it is shown.

    card is the same id when the audience may know the card (look its facts up in
    the view message's cards table), and null for a face-down card it may not
    know (BR-6): then only its square and owner are shown.
    """

    id: CardId
    owner: int
    row: int
    col: int
    face_up: bool
    card: CardId | None = None


class View(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="base_race.view"):
    """What one audience sees of a Base Race game.

    Every card is named by its id; its facts are in the view message's cards
    table. hand lists the ids of the viewer's cards still to lay out (sorted).
    board lists the pieces the audience may place (during the layout phase, only
    the viewer's own committed layout), sorted by square. discard and set_aside
    are public. out (removed lands and undealt cards, face down) is only listed
    once the game is over; before that, only out_count is shown.
    """

    seat: int | None
    phase: Phase
    laid_out: tuple[bool, ...]
    hand: tuple[CardId, ...]
    hand_counts: tuple[int, ...]
    board: tuple[Piece, ...]
    discard: tuple[CardId, ...]
    set_aside: tuple[CardId, ...]
    out_count: int
    out: tuple[CardId, ...]
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
    """Both layouts are in: where every card is, face down, and who moves first.

    Every piece's card is null here, the owner's own included: the owner finds its
    cards in its view.
    """

    pieces: tuple[Piece, ...]
    first_seat: int


class Moved(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="base_race.moved"):
    """A card moved onto an empty square (card is its id; the move shows nothing more)."""

    seat: int
    card: CardId
    from_row: int
    from_col: int
    row: int
    col: int


class Battle(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="base_race.battle"):
    """A card attacked the card on (row, col): both are revealed.

    attacker and defender are card ids. Both cards are in every audience's cards
    table from the version this battle leads to on (a revealed card stays face up,
    a discarded one is public). discarded lists the ids that went to the discard
    pile, extra_turn the seat that gained an extra turn, moved whether the attacker
    entered the square (BR-2).
    """

    seat: int
    attacker: CardId
    defender: CardId
    from_row: int
    from_col: int
    row: int
    col: int
    kind: BattleKind
    discarded: tuple[CardId, ...]
    extra_turn: int | None
    moved: bool


class TurnStarted(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="base_race.turn"):
    """seat moves next; extra is true when it is an extra turn (BR-3)."""

    seat: int
    extra: bool


class GameOver(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="base_race.game_over"):
    """The game ended; reason is land_revealed (rule 1: a land's owner loses),
    land_attacked_land (rule 1: the attacker wins) or move_limit (BR-7 draw)."""

    winners: tuple[int, ...]
    draw: bool
    reason: str


Event = LaidOut | BoardSet | Moved | Battle | TurnStarted | GameOver
