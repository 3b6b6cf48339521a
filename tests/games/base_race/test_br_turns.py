"""Turns: legal moves (BR-5), plain moves, refusals, extra turns (BR-3), the move limit (BR-7)."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from br_helpers import ENGINE, artifact, at, basic, board_game, creature, events_of, move, spell

from packplay.games.base import RuleError
from packplay.games.base_race.state import BaseRaceState
from packplay_protocol.games.base_race import Battle, GameOver, Move, Moved, TurnStarted
from packplay_protocol.games.mishra_factory import Take


def _opened() -> BaseRaceState:
    """Seat 0's instant on (2,0) hits seat 1's (3,0): both squares are empty, seat 1 to move."""
    return move(board_game({(2, 0): spell()}), (2, 0), (3, 0)).state


def test_br5_first_move_is_always_a_battle() -> None:
    """BR-5: the opening board is full, so seat 0's only moves are its front row attacking."""
    state = board_game(first=0)
    moves = ENGINE.legal_actions(state, 0).actions
    assert {(m.row, m.col) for m in moves} == {(3, c) for c in range(4)}
    assert all(at(state, m.row - 1, m.col) == m.card for m in moves)
    state = board_game(first=1)
    moves = ENGINE.legal_actions(state, 1).actions
    assert {(m.row, m.col) for m in moves} == {(2, c) for c in range(4)}


def test_plain_move_onto_an_empty_square_reveals_nothing() -> None:
    state = _opened()
    mover = at(state, 4, 0)
    assert mover is not None
    done = move(state, (4, 0), (3, 0))
    assert events_of(done, Moved) == [Moved(seat=1, card=mover, from_row=4, from_col=0, row=3, col=0)]
    assert not events_of(done, Battle)
    assert at(done.state, 3, 0) == mover and at(done.state, 4, 0) is None
    assert mover not in done.state.revealed
    assert all(p.card is None for p in ENGINE.view(done.state, 0).board if p.id == mover)
    assert mover not in ENGINE.known_cards(done.state, 0)


def test_br2_plain_move_into_the_opponents_half() -> None:
    """Seat 1 may walk into seat 0's half (rows 0-2) once a square there is empty."""
    state = move(_opened(), (3, 1), (3, 0)).state
    done = move(state, (1, 0), (2, 0))
    assert at(done.state, 2, 0) is not None and done.state.moves == 3


def test_turns_alternate() -> None:
    state = _opened()
    assert ENGINE.pending(state) == (1,)
    done = move(state, (4, 0), (3, 0))
    assert ENGINE.pending(done.state) == (0,)
    assert events_of(done, TurnStarted) == [TurnStarted(seat=0, extra=False)]


def test_every_built_move_is_accepted_and_every_other_refused() -> None:
    """Legal-action contract: a move is accepted exactly when legal_actions lists it."""
    state = _opened()
    listed = set(ENGINE.legal_actions(state, 1).actions)
    assert listed
    own = [c for c in state.board if c is not None and state.owners[c] == 1]
    for card in own:
        for row in range(-1, 7):
            for col in range(-1, 5):
                action = Move(card=card, row=row, col=col)
                try:
                    ENGINE.apply(state, 1, action)
                except RuleError:
                    assert action not in listed
                else:
                    assert action in listed


def _refusal(state: BaseRaceState, seat: int, action: Any) -> RuleError:
    before = msgspec.msgpack.encode(state)
    with pytest.raises(RuleError) as error:
        ENGINE.apply(state, seat, action)
    assert msgspec.msgpack.encode(state) == before
    return error.value


def test_refusals_leave_the_state_unchanged() -> None:
    state = _opened()
    mine, theirs = at(state, 4, 1), at(state, 2, 1)
    assert mine is not None and theirs is not None
    cases = {
        "move": [
            Move(card=mine, row=5, col=1),
            Move(card=mine, row=2, col=1),
            Move(card=mine, row=3, col=0),
            Move(card=mine, row=6, col=1),
        ],
        "card": [Move(card=theirs, row=3, col=1), Move(card="unknown", row=0, col=0)],
    }
    for rule, actions in cases.items():
        for action in actions:
            error = _refusal(state, 1, action)
            assert error.rule == rule and error.reason == "illegal_action"
            assert theirs not in error.message


def test_specific_move_refusals() -> None:
    state = _opened()
    mine = at(state, 4, 1)
    assert mine is not None
    assert "own card" in _refusal(state, 1, Move(card=mine, row=5, col=1)).message
    assert "one square" in _refusal(state, 1, Move(card=mine, row=2, col=1)).message
    assert "one square" in _refusal(state, 1, Move(card=mine, row=3, col=0)).message
    assert "off the board" in _refusal(state, 1, Move(card=at(state, 5, 0) or "", row=5, col=-1)).message


def test_discarded_card_cannot_move() -> None:
    state = _opened()
    loser = state.discard[1]
    assert _refusal(state, 1, Move(card=loser or "", row=3, col=1)).rule == "card"


def test_other_games_action_is_refused() -> None:
    state = board_game()
    assert _refusal(state, 0, Take(belt_position=0, group="W")).rule == "action"


def test_not_your_turn() -> None:
    state = board_game()
    error = _refusal(state, 1, ENGINE.legal_actions(state, 0).actions[0])
    assert error.reason == "not_your_turn"


def test_br3_extra_turn_is_taken_right_after_the_turn() -> None:
    state = board_game({(2, 0): artifact()})
    done = move(state, (2, 0), (3, 0))
    assert ENGINE.pending(done.state) == (0,)
    assert ENGINE.view(done.state, None).turn == 0
    after = move(done.state, (2, 1), (3, 1))
    assert ENGINE.pending(after.state) == (1,)


def test_br3_defender_gets_two_turns_in_a_row() -> None:
    """Seat 0 hits seat 1's artifact: seat 1 takes its extra turn, then its normal one."""
    state = board_game({(2, 0): creature("5")}, {(3, 0): artifact()})
    first = move(state, (2, 0), (3, 0))
    assert events_of(first, TurnStarted) == [TurnStarted(seat=1, extra=True)]
    extra = move(first.state, (3, 1), (3, 0))
    assert events_of(extra, TurnStarted) == [TurnStarted(seat=1, extra=False)]
    normal = move(extra.state, (4, 0), (3, 0))
    assert ENGINE.pending(normal.state) == (0,)


def test_br3_extra_turns_chain_and_queue() -> None:
    """An extra turn earned during an extra turn is queued and taken next."""
    state = board_game({(2, 0): artifact(), (2, 1): artifact()})
    state = move(state, (2, 0), (3, 0)).state
    state = move(state, (2, 1), (3, 1)).state
    assert state.turn == 0 and state.moves == 2
    state = move(state, (1, 0), (2, 0)).state
    assert state.turn == 1


def test_br7_move_limit_draw_counts_extra_turns() -> None:
    """BR-7: with move_limit 2, an artifact attack (extra turn) and one more move end in a draw."""
    state = board_game({(2, 0): artifact()}, move_limit=2)
    assert ENGINE.view(state, None).move_limit == 2
    state = move(state, (2, 0), (3, 0)).state
    assert ENGINE.result(state) is None
    done = move(state, (1, 0), (2, 0))
    result = ENGINE.result(done.state)
    assert result is not None and result.draw and result.winners == (0, 1) and result.scores == (0.5, 0.5)
    assert result.reason == "move_limit"
    assert events_of(done, GameOver) == [GameOver(winners=(0, 1), draw=True, reason="move_limit")]
    assert ENGINE.pending(done.state) == ()
    with pytest.raises(RuleError) as error:
        ENGINE.apply(done.state, 0, Move(card="x", row=0, col=0))
    assert error.value.reason == "game_over"


def test_br7_default_limit_is_200() -> None:
    assert board_game().move_limit == 200


def test_br7_land_battle_on_the_last_move_is_a_win() -> None:
    state = board_game({(2, 0): creature("1")}, {(3, 0): basic()}, move_limit=1)
    result = ENGINE.result(move(state, (2, 0), (3, 0)).state)
    assert result is not None and result.winners == (0,) and not result.draw
