"""Scoring: color points (MF-5), group points (MF-6), winners (MF-7), with 2, 3 and
4 players played to the end."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from mf_helpers import ENGINE, card, play, refused, stacked, take

from packplay.cards.model import CardInstance
from packplay.games.mishra_factory.scoring import score_lines, winners
from packplay.games.mishra_factory.state import Collected
from packplay_protocol.games.mishra_factory import Ended, Group

Spec = tuple[str, float]  # (group, mana value)

CARDS: dict[str, CardInstance] = {}
"""The facts of every card the collections below are built of (ids are unique)."""


def entry(collected_card: CardInstance, group: Group) -> Collected:
    """A collection entry for ``collected_card``, its facts kept in ``CARDS``."""
    CARDS[collected_card.id] = collected_card
    return Collected(card=collected_card.id, group=group)


def collected(*specs: Spec) -> list[Collected]:
    """A collection: each spec is a card of that group and mana value (a land for wild groups)."""
    out = []
    for group, mv in specs:
        colors = "" if group == "C" else group
        out.append(entry(card(colors, mv=mv), group))  # type: ignore[arg-type]
    return out


def points(group: Group, *collections: list[Collected]) -> list[int]:
    return [line.group_points[group] for line in score_lines(collections, CARDS)]


# MF-5 -------------------------------------------------------------------------


def test_mf5_largest_group_3_second_2_others_0() -> None:
    three, two, one = collected(*[("R", 1)] * 3), collected(*[("R", 1)] * 2), collected(("R", 9))
    assert points("R", three, two, one) == [3, 2, 0]


def test_mf5_only_players_with_a_card_in_the_group_rank() -> None:
    assert points("G", collected(("G", 1)), collected(("R", 1))) == [3, 0]
    assert points("G", collected(("R", 1)), collected(("R", 2)), collected(("G", 1))) == [0, 0, 3]


def test_mf5_size_tie_is_broken_by_the_highest_mana_value_card() -> None:
    low, high = collected(("U", 3), ("U", 3)), collected(("U", 5), ("U", 0))
    assert points("U", low, high) == [2, 3]


def test_mf5_tie_break_uses_the_single_highest_card_not_the_sum() -> None:
    spiky, even = collected(("B", 6), ("B", 0), ("B", 0)), collected(("B", 5), ("B", 5), ("B", 5))
    assert points("B", spiky, even) == [3, 2]


def test_mf5_size_beats_mana_value() -> None:
    big, rich = collected(("W", 0), ("W", 0)), collected(("W", 16))
    assert points("W", big, rich) == [3, 2]


def test_mf5_tie_that_survives_the_tie_break_shares_first_half_rounded_up() -> None:
    a, b = collected(("R", 4), ("R", 1)), collected(("R", 4), ("R", 2))
    assert points("R", a, b) == [2, 2]


def test_mf5_after_two_tied_firsts_the_next_player_is_third() -> None:
    a, b, c = collected(("R", 4), ("R", 1)), collected(("R", 4), ("R", 2)), collected(("R", 9))
    assert points("R", a, b, c) == [2, 2, 0]


def test_mf5_tied_seconds_share_2_points_as_1_each() -> None:
    first = collected(*[("G", 1)] * 3)
    second = [collected(("G", 2), ("G", 1)) for _ in range(2)]
    fourth = collected(("G", 7))
    assert points("G", first, *second, fourth) == [3, 1, 1, 0]


def test_mf5_three_tied_firsts_each_get_2() -> None:
    tied = [collected(("U", 2)) for _ in range(3)]
    assert points("U", *tied) == [2, 2, 2]
    assert points("U", *tied, collected(("R", 1))) == [2, 2, 2, 0]


def test_mf5_colorless_is_a_scored_group() -> None:
    assert points("C", collected(("C", 2), ("C", 1)), collected(("C", 5))) == [3, 2]


def test_mf5_lands_count_with_their_mana_value_in_the_declared_group() -> None:
    land = entry(card("", land=True, mv=0), "R")
    red = entry(card("R", mv=0), "R")
    assert points("R", [land, red], collected(("R", 1))) == [3, 2]


def test_mf5_mana_value_tie_break_accepts_fractions() -> None:
    assert points("W", collected(("W", 0.5)), collected(("W", 0))) == [3, 2]


# MF-6 / MF-7 --------------------------------------------------------------------


@pytest.mark.parametrize(("count", "bonus"), [(0, 0), (1, 0), (3, 0), (4, 2), (5, 4), (6, 6)])
def test_mf6_points_for_the_number_of_groups(count: int, bonus: int) -> None:
    groups = ["W", "U", "B", "R", "G", "C"][:count]
    mine = collected(*[(g, 1) for g in groups], *[(g, 1) for g in groups])  # two cards each
    line = score_lines([mine, collected()], CARDS)[0]
    assert line.groups_bonus == bonus
    assert line.total == 3 * count + bonus


def test_mf7_tied_top_scores_share_the_win() -> None:
    lines = score_lines([collected(("R", 1)), collected(("G", 1)), collected(("G", 0))], CARDS)
    assert [line.total for line in lines] == [3, 3, 2]
    assert winners(lines) == (0, 1)


# Played to the end ---------------------------------------------------------------


def deal(hands: Sequence[Sequence[CardInstance]]) -> list[CardInstance]:
    """A deck that, always taking position 0 from seat 0 on, gives seat i ``hands[i]``."""
    return [hand[k] for k in range(len(hands[0])) for hand in hands]


def play_out(hands: Sequence[Sequence[CardInstance]], groups: Sequence[Sequence[Group]]):  # type: ignore[no-untyped-def]
    state = stacked(deal(hands), players=len(hands))
    for k in range(len(hands[0])):
        for seat in range(len(hands)):
            state = play(state, take(0, groups[seat][k]))
    return state


def test_mf7_two_players_full_game() -> None:
    hands = [
        [card("W", mv=1), card("W", mv=2), card("U", mv=3), card("B", mv=1), card("R", mv=1)],
        [card("W", mv=5), card("U", mv=1), card("G", mv=2), card("", land=True), card("R", mv=1)],
    ]
    groups: list[list[Group]] = [["W", "W", "U", "B", "R"], ["W", "U", "G", "G", "R"]]
    state = play_out(hands, groups)
    result = ENGINE.result(state)
    assert result is not None
    # s0: W 3 + U 3 (3 > 1) + B 3 + R 2 (tie survives) + 4 groups 2 = 13
    # s1: W 2 + U 2 + G 3 + R 2 + 4 groups 2 = 11
    assert result.scores == (13.0, 11.0)
    assert result.winners == (0,) and not result.draw


def test_mf7_three_players_share_the_win() -> None:
    hands = [
        [card("R", mv=2), card("W", mv=1)],
        [card("R", mv=2), card("B", mv=1)],
        [card("U", mv=1), card("U", mv=0)],
    ]
    groups: list[list[Group]] = [["R", "W"], ["R", "B"], ["U", "U"]]
    result = ENGINE.result(play_out(hands, groups))
    assert result is not None
    assert result.scores == (5.0, 5.0, 3.0)  # R shared 2 + 3 each; U 3
    assert result.winners == (0, 1) and not result.draw


def test_mf5_four_players_tied_seconds_and_fourth_full_game() -> None:
    hands = [
        [card("R", mv=1), card("R", mv=1), card("R", mv=1)],
        [card("R", mv=3), card("R", mv=1), card("W", mv=1)],
        [card("R", mv=3), card("R", mv=2), card("U", mv=1)],
        [card("R", mv=1), card("G", mv=1), card("G", mv=1)],
    ]
    groups: list[list[Group]] = [["R", "R", "R"], ["R", "R", "W"], ["R", "R", "U"], ["R", "G", "G"]]
    state = play_out(hands, groups)
    result = ENGINE.result(state)
    assert result is not None
    assert [line.group_points["R"] for line in score_lines(state.collections, state.cards)] == [3, 1, 1, 0]
    assert result.scores == (3.0, 4.0, 4.0, 3.0)
    assert result.winners == (1, 2)


def test_mf7_everyone_tied_is_a_draw_and_ended_event_reports_it() -> None:
    deck = [card("R", mv=1), card("R", mv=1)]
    state = play(stacked(deck), take(0, "R"))
    transition = ENGINE.apply(state, 1, take(0, "R"))
    result = ENGINE.result(transition.state)
    assert result is not None and result.winners == (0, 1) and result.draw
    ended = transition.events[-1].event
    assert isinstance(ended, Ended) and ended.winners == (0, 1)
    assert [line.total for line in ended.scores] == [2, 2]


def test_mf2_discarded_cards_no_longer_score() -> None:
    deck = [card("G", mv=1), card("R", mv=1), card("G", mv=1), card("R", mv=1), card("B", mv=4)]
    state = play(stacked(deck), take(0, "G"), take(0, "R"))
    mine = state.collections[0][0].card
    state = play(state, take(2, "B", mine))  # seat 0 trades its G for the B
    assert refused(state, 0, take(0, "G")).reason == "not_your_turn"
    lines = score_lines(state.collections, state.cards)
    assert lines[0].group_points == {"W": 0, "U": 0, "B": 3, "R": 0, "G": 0, "C": 0}
