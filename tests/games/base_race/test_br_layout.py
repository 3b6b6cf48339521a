"""The layout phase: simultaneous commit-style layouts (C-5), first to finish moves first."""

from __future__ import annotations

import msgspec
import pytest
import rules_checks
from br_helpers import ENGINE, basic, creatures, dealt

from packplay.games.base import RuleError
from packplay.games.base_race.state import BaseRaceState
from packplay.games.random_policy import fill_choice
from packplay.rng import Rng
from packplay_protocol.games.base_race import BoardSet, LaidOut, Layout, Move, TurnStarted


def _game() -> BaseRaceState:
    return dealt([basic(), basic()], [creatures(11), creatures(11)])


def _layout(state: BaseRaceState, seat: int) -> Layout:
    return Layout(cards=tuple(state.hands[seat]))


def test_c5_both_seats_lay_out_at_once() -> None:
    state = _game()
    assert ENGINE.pending(state) == (0, 1)
    state = ENGINE.apply(state, 1, _layout(state, 1)).state
    assert ENGINE.pending(state) == (0,)


@pytest.mark.parametrize("first", [0, 1])
def test_first_to_lay_out_moves_first(first: int) -> None:
    state = _game()
    state = ENGINE.apply(state, first, _layout(state, first)).state
    done = ENGINE.apply(state, 1 - first, _layout(state, 1 - first))
    assert ENGINE.pending(done.state) == (first,)
    starts = [e.event for e in done.events if isinstance(e.event, BoardSet)]
    assert starts[0].first_seat == first
    assert TurnStarted(seat=first, extra=False) in [e.event for e in done.events]
    assert ENGINE.roles(done.state) == tuple("first" if s == first else "second" for s in (0, 1))


def test_br5_layout_fills_the_seats_half_row_by_row() -> None:
    """BR-5: seat 0 fills rows 0-2, seat 1 rows 3-5; ``cards[i]`` -> row first + i//4, col i%4."""
    state = _game()
    layouts = {seat: _layout(state, seat) for seat in (0, 1)}
    for seat in (0, 1):
        state = ENGINE.apply(state, seat, layouts[seat]).state
    for seat, first_row in ((0, 0), (1, 3)):
        for i, card_id in enumerate(layouts[seat].cards):
            assert state.board[(first_row + i // 4) * 4 + i % 4] == card_id
    assert None not in state.board


def test_c5_committed_layout_is_hidden_until_both_are_in() -> None:
    state = _game()
    step = ENGINE.apply(state, 0, _layout(state, 0))
    assert [e.event for e in step.events] == [LaidOut(seat=0)]
    assert all(e.to is None for e in step.events)
    assert ENGINE.view(step.state, 1).board == ()
    assert ENGINE.view(step.state, None).board == ()
    own = ENGINE.view(step.state, 0).board
    assert len(own) == 12 and all(p.card is not None for p in own)
    assert ENGINE.view(step.state, 1).laid_out == (True, False)


def test_board_set_event_shows_positions_not_identities() -> None:
    state = _game()
    state = ENGINE.apply(state, 0, _layout(state, 0)).state
    done = ENGINE.apply(state, 1, _layout(state, 1))
    board_set = next(e.event for e in done.events if isinstance(e.event, BoardSet))
    assert len(board_set.pieces) == 24
    assert all(p.card is None and not p.face_up for p in board_set.pieces)


def test_layout_choice_is_ordered_12_of_12_and_accepted() -> None:
    state = _game()
    legal = ENGINE.legal_actions(state, 1)
    (choice,) = legal.choices
    assert legal.actions == ()
    assert choice.ordered and choice.min_count == choice.max_count == 12
    assert set(choice.options) == set(state.hands[1])
    assert list(choice.options) == sorted(choice.options)
    built = msgspec.convert(fill_choice(choice, Rng(3)), ENGINE.action_type)
    after = ENGINE.apply(state, 1, built).state
    assert 1 in after.laid_out


@pytest.mark.parametrize(
    "cards",
    [
        lambda s: tuple(s.hands[0][:11]),
        lambda s: tuple(s.hands[0][:11]) + (s.hands[0][0],),
        lambda s: tuple(s.hands[0][:11]) + (s.hands[1][0],),
        lambda s: tuple(s.hands[0][:11]) + ("nope",),
        lambda s: tuple(s.hands[0]) + (s.hands[1][0],),
    ],
)
def test_bad_layouts_are_refused(cards: object) -> None:
    state = _game()
    error = rules_checks.refused(ENGINE, state, 0, Layout(cards=cards(state)))  # type: ignore[operator]
    assert error.rule == "layout" and error.reason == "illegal_action"
    assert "id0" not in error.message and "nope" not in error.message


def test_move_during_layout_is_refused() -> None:
    state = _game()
    with pytest.raises(RuleError) as error:
        ENGINE.apply(state, 0, Move(card=state.hands[0][0], row=3, col=0))
    assert error.value.rule == "phase"


def test_second_layout_is_not_your_turn() -> None:
    state = _game()
    state = ENGINE.apply(state, 0, _layout(state, 0)).state
    with pytest.raises(RuleError) as error:
        ENGINE.apply(state, 0, Layout(cards=()))
    assert error.value.reason == "not_your_turn"
    assert ENGINE.legal_actions(state, 0).empty
