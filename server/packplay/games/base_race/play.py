"""The two kinds of action: laying out the cards, then moving them (rules, BR-2, BR-3, BR-7, BR-9)."""

from __future__ import annotations

from packplay.games.base import Emitted, RuleError
from packplay.games.base_race.battle import resolve
from packplay.games.base_race.state import (
    NEIGHBOURS,
    ROW_COL,
    SEATS,
    BaseRaceState,
    layout_squares,
    on_board,
    square,
)
from packplay_protocol.games.base_race import (
    LAYOUT_SIZE,
    Battle,
    BoardSet,
    GameOver,
    LaidOut,
    Layout,
    Move,
    Moved,
    Piece,
    TurnStarted,
)

END_REASONS = {"land": "land_revealed", "land_vs_land": "land_attacked_land"}
"""GameResult.reason of a land battle (rule 1); BR-7's draw is ``move_limit``."""


def check_layout(state: BaseRaceState, seat: int, action: Layout) -> None:
    """Refuse a layout that is not exactly the seat's 12 cards, each once."""
    if state.board_set:
        raise RuleError("phase", "the cards are already laid out")
    if len(action.cards) != LAYOUT_SIZE or set(action.cards) != set(state.hands[seat]):
        raise RuleError("layout", f"a layout lists each of your {LAYOUT_SIZE} cards exactly once")


def lay_out(state: BaseRaceState, seat: int, action: Layout) -> list[Emitted]:
    """C-5: commit the layout (hidden until both are in); the first to commit moves first."""
    check_layout(state, seat, action)
    for index, card_id in zip(layout_squares(seat), action.cards, strict=True):
        state.board[index] = card_id
    state.hands[seat] = []
    state.laid_out.append(seat)
    events = [Emitted(LaidOut(seat=seat))]
    if state.board_set:
        events += _start(state)
    return events


def _start(state: BaseRaceState) -> list[Emitted]:
    first = state.laid_out[0]
    state.turn = state.normal_seat = first
    pieces = tuple(
        Piece(id=card_id, owner=state.owners[card_id], row=row, col=col, face_up=False)
        for (row, col), card_id in zip(ROW_COL, state.board, strict=True)
        if card_id is not None
    )
    return [Emitted(BoardSet(pieces=pieces, first_seat=first)), Emitted(TurnStarted(seat=first, extra=False))]


def legal_moves(state: BaseRaceState, seat: int) -> list[Move]:
    """Every move of one own card one square orthogonally, not onto an own card."""
    moves = []
    owners = state.owners
    for index, card_id in enumerate(state.board):
        if card_id is None or owners[card_id] != seat:
            continue
        for target in NEIGHBOURS[index]:
            other = state.board[target]
            if other is None or owners[other] != seat:
                row, col = ROW_COL[target]
                moves.append(Move(card=card_id, row=row, col=col))
    return moves


def check_move(state: BaseRaceState, seat: int, action: Move) -> tuple[int, int]:
    """The (from, to) squares of a legal move; RuleError otherwise."""
    if not state.board_set:
        raise RuleError("phase", "lay out your cards first")
    origin = _square_of(state, seat, action.card)
    if not on_board(action.row, action.col):
        raise RuleError("move", "that square is off the board")
    target = square(action.row, action.col)
    if target not in NEIGHBOURS[origin]:
        raise RuleError("move", "a card moves one square up, down, left or right")
    other = state.board[target]
    if other is not None and state.owners[other] == seat:
        raise RuleError("move", "a card cannot move onto your own card")
    return origin, target


def _square_of(state: BaseRaceState, seat: int, card_id: str) -> int:
    if state.owners.get(card_id) == seat:
        try:
            return state.board.index(card_id)
        except ValueError:
            pass
    raise RuleError("card", "that is not one of your cards on the board")


def move(state: BaseRaceState, seat: int, action: Move) -> list[Emitted]:
    """Move or battle, then end the turn (BR-7 counts every move)."""
    origin, target = check_move(state, seat, action)
    state.moves += 1
    if state.board[target] is None:
        events = [Emitted(_step(state, seat, origin, target))]
    else:
        events = [Emitted(_battle(state, seat, origin, target))]
    return events + _end_turn(state)


def _step(state: BaseRaceState, seat: int, origin: int, target: int) -> Moved:
    card_id = state.board[origin]
    assert card_id is not None
    state.board[target], state.board[origin] = card_id, None
    (from_row, from_col), (row, col) = ROW_COL[origin], ROW_COL[target]
    return Moved(seat=seat, card=card_id, from_row=from_row, from_col=from_col, row=row, col=col)


def _battle(state: BaseRaceState, seat: int, origin: int, target: int) -> Battle:
    """Reveal both cards and apply rules 1-4: BR-9 (land), discards, BR-3, BR-2."""
    attacker, defender = state.board[origin], state.board[target]
    assert attacker is not None and defender is not None
    outcome = resolve(state.cards[attacker], state.cards[defender], seat)
    state.revealed += [card_id for card_id in (attacker, defender) if card_id not in state.revealed]
    discarded = [attacker] * outcome.attacker_lost + [defender] * outcome.defender_lost
    if outcome.game_winner is not None:
        state.winner, state.end_reason = outcome.game_winner, END_REASONS[outcome.kind]
    else:
        _discard(state, discarded)
        if outcome.extra_turn is not None:
            state.extra_turns.append(outcome.extra_turn)
    moved = outcome.game_winner is None and not outcome.attacker_lost and outcome.defender_lost
    if moved:
        state.board[target], state.board[origin] = attacker, None
    (from_row, from_col), (row, col) = ROW_COL[origin], ROW_COL[target]
    return Battle(
        seat=seat,
        attacker=attacker,
        defender=defender,
        from_row=from_row,
        from_col=from_col,
        row=row,
        col=col,
        kind=outcome.kind,
        discarded=tuple(discarded),
        extra_turn=outcome.extra_turn,
        moved=moved,
    )


def _discard(state: BaseRaceState, card_ids: list[str]) -> None:
    for card_id in card_ids:
        state.board[state.board.index(card_id)] = None
        state.revealed.remove(card_id)
        state.discard.append(card_id)


def _end_turn(state: BaseRaceState) -> list[Emitted]:
    """The game ends (land battle, BR-7 limit) or the next turn starts (BR-3 extra turns first)."""
    if state.winner < 0 and state.moves >= state.move_limit:
        state.draw, state.end_reason = True, "move_limit"
    if state.over:
        winners = (state.winner,) if state.winner >= 0 else SEATS
        return [Emitted(GameOver(winners=winners, draw=state.draw, reason=state.end_reason))]
    extra = bool(state.extra_turns)
    if extra:
        state.turn = state.extra_turns.pop(0)
    else:
        state.normal_seat = 1 - state.normal_seat
        state.turn = state.normal_seat
    return [Emitted(TurnStarted(seat=state.turn, extra=extra))]
