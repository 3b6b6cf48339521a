"""Taking belt cards: groups (MF-1), back cards (MF-2, MF-8), the belt (MF-3),
the end (MF-4), turn order and typed refusals (state unchanged)."""

from __future__ import annotations

import msgspec
import pytest
from mf_helpers import ENGINE, card, cards, ids, play, refused, stacked, step, take

from packplay_protocol.games.mishra_factory import GROUPS, Refilled, Take, Taken


class Foreign(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="other.take"):
    belt_position: int


# MF-1 -----------------------------------------------------------------------------


@pytest.mark.parametrize("group", GROUPS)
def test_mf1_land_may_join_any_of_the_six_groups(group: str) -> None:
    land = card("", land=True)
    state = play(stacked([land, *cards(5)]), take(0, group))  # type: ignore[arg-type]
    assert state.collections[0][0].group == group


def test_mf1_land_with_a_color_is_still_wild() -> None:
    arbor = card("G", land=True)  # C-2/C-3: judged as a land, wild
    state = play(stacked([arbor, *cards(5)]), take(0, "U"))
    assert state.collections[0][0].group == "U"


def test_mf1_multicolored_card_joins_one_of_its_colors() -> None:
    gold = card("WB", mv=2)
    state = stacked([gold, *cards(5)])
    assert play(state, take(0, "B")).collections[0][0].group == "B"
    assert play(state, take(0, "W")).collections[0][0].group == "W"
    for group in ("U", "R", "G", "C"):
        assert refused(state, 0, take(0, group)).rule == "MF-1"


def test_mf1_mono_colored_card_goes_to_its_own_group() -> None:
    red = card("R")
    state = stacked([red, *cards(5)])
    assert play(state, take(0, "R")).collections[0][0].group == "R"
    for group in ("W", "U", "B", "G", "C"):
        assert refused(state, 0, take(0, group)).rule == "MF-1"


def test_mf1_colorless_nonland_card_goes_to_the_colorless_group() -> None:
    relic = card("")
    state = stacked([relic, *cards(5)])
    assert play(state, take(0, "C")).collections[0][0].group == "C"
    assert refused(state, 0, take(0, "R")).rule == "MF-1"


def test_mf1_declared_group_stays() -> None:
    land = card("", land=True)
    state = play(stacked([land, *cards(8, "G")]), take(0, "W"), take(0, "G"), take(0, "G"))
    assert [(e.card, e.group) for e in state.collections[0]][0] == (land.id, "W")
    view = ENGINE.view(state, None)
    assert view.collections[0].groups["W"] == (land.id,)


# MF-2 / MF-8 ----------------------------------------------------------------------


def test_mf2_back_card_needs_a_collection() -> None:
    state = stacked(cards(6))
    for position in (2, 3):
        assert refused(state, 0, take(position, "R")).rule == "MF-2"
        assert refused(state, 0, take(position, "R", "id-anything")).rule == "MF-2"
    legal = ENGINE.legal_actions(state, 0)
    assert legal.choices == ()
    assert {a.belt_position for a in legal.actions} == {0, 1}


def test_mf2_back_card_without_a_discard_is_refused() -> None:
    state = play(stacked(cards(8)), take(0, "R"), take(0, "R"))
    assert refused(state, 0, take(2, "R")).rule == "MF-2"


def test_mf2_discard_must_be_own_collected_card() -> None:
    deck = cards(10)
    state = play(stacked(deck), take(0, "R"), take(0, "R"))
    opponents = state.collections[1][0].card
    on_belt = state.belt[0]
    in_deck = state.deck[0]
    for other in (opponents, on_belt, in_deck, "no-such-id"):
        assert refused(state, 0, take(3, "R", other)).rule == "MF-2"


def test_mf2_back_card_discards_a_collected_card_out_of_the_game() -> None:
    deck = cards(10)
    state = play(stacked(deck), take(0, "R"), take(0, "R"))
    mine = state.collections[0][0].card
    back = state.belt[3]
    transition = step(state, take(3, "R", mine))
    after = transition.state
    assert after.discarded == [mine] and mine == deck[0].id
    assert [e.card for e in after.collections[0]] == [back] and back == deck[5].id
    assert ENGINE.zones(after)["discarded"] == [mine]
    taken = transition.events[0].event
    assert isinstance(taken, Taken) and taken.discarded == mine and taken.card == back


def test_mf8_discard_with_a_front_card_is_refused() -> None:
    state = play(stacked(cards(10)), take(0, "R"), take(0, "R"))
    mine = state.collections[0][0].card
    for position in (0, 1):
        assert refused(state, 0, take(position, "R", mine)).rule == "MF-8"


# Belt: slide, refill, MF-3 ------------------------------------------------------------


@pytest.mark.parametrize("position", [0, 1])
def test_cards_slide_forward_and_the_deck_refills_the_back(position: int) -> None:
    deck = cards(8)
    transition = step(stacked(deck), take(position, "R"))
    belt = [c for i, c in enumerate(deck[:4]) if i != position] + [deck[4]]
    assert transition.state.belt == ids(belt)
    refill = transition.events[1].event
    assert refill == Refilled(belt_position=3, card=deck[4].id, deck_count=3)


def test_back_take_slides_and_refills() -> None:
    deck = cards(10)
    state = play(stacked(deck), take(0, "R"), take(0, "R"))  # belt: 2 3 4 5, deck 6..
    mine = state.collections[0][0].card
    after = play(state, take(2, "R", mine))
    assert after.belt == ids([deck[2], deck[3], deck[5], deck[6]])


def test_mf3_empty_deck_stops_refills_and_front_stays_at_0_and_1() -> None:
    deck = cards(6)
    state = play(stacked(deck), take(0, "R"), take(0, "R"))  # deck now empty
    assert state.deck == [] and len(state.belt) == 4
    transition = step(state, take(1, "R"))
    assert transition.state.belt == ids([deck[2], deck[4], deck[5]])
    assert not any(isinstance(e.event, Refilled) for e in transition.events)
    three = transition.state
    mine = three.collections[1][0].card
    # position 2 of a 3-card belt is still a back card; 0 and 1 stay free
    assert refused(three, 1, take(2, "R")).rule == "MF-2"
    assert refused(three, 1, take(1, "R", mine)).rule == "MF-8"
    assert refused(three, 1, take(3, "R", mine)).rule == "belt"
    after = play(three, take(2, "R", mine))
    assert after.belt == ids([deck[2], deck[4]])


def test_mf4_game_ends_when_deck_and_belt_are_empty() -> None:
    state = stacked(cards(5))
    for _ in range(4):
        state = play(state, take(0, "R"))
        assert ENGINE.result(state) is None and ENGINE.pending(state) == (state.turn,)
    last = step(state, take(0, "R"))
    assert last.state.belt == [] and last.state.deck == []
    assert ENGINE.result(last.state) is not None
    assert ENGINE.pending(last.state) == ()
    assert ENGINE.legal_actions(last.state, 0).empty


# Turns and refusals -------------------------------------------------------------


def test_turns_go_clockwise_in_seat_order_from_the_first_seat() -> None:
    state = stacked(cards(10), players=4, first_seat=2)
    seen = []
    for _ in range(6):
        seen.append(state.turn)
        transition = step(state, take(0, "R"))
        taken = transition.events[0].event
        assert isinstance(taken, Taken) and taken.next_seat == (seen[-1] + 1) % 4
        state = transition.state
    assert seen == [2, 3, 0, 1, 2, 3]


def test_out_of_turn_is_refused() -> None:
    state = stacked(cards(6))
    error = refused(state, 1, take(0, "R"))
    assert error.reason == "not_your_turn"


def test_foreign_action_and_bad_positions_are_refused() -> None:
    state = stacked(cards(6))
    assert refused(state, 0, Foreign(belt_position=0)).rule == "action"
    for position in (-1, 4, 9):
        assert refused(state, 0, take(position, "R")).rule == "belt"
    assert refused(state, 0, Take(belt_position="0", group="R")).rule == "belt"  # type: ignore[arg-type]
    assert refused(state, 0, Take(belt_position=0, group="X")).rule == "MF-1"  # type: ignore[arg-type]


def test_refusal_messages_never_name_a_deck_card_c6() -> None:
    secret = card("R", name="Secret Tron Land")
    state = stacked([*cards(6), secret])
    state = play(state, take(0, "R"), take(0, "R"))
    assert secret.id in state.deck
    error = refused(state, 0, take(3, "R", secret.id))
    assert "Secret" not in str(error) and secret.id not in str(error)


def test_game_over_refuses_everything() -> None:
    state = play(stacked(cards(4)), *[take(0, "R")] * 4)
    assert refused(state, state.turn, take(0, "R")).reason == "game_over"
