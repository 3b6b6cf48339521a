"""Every ruling of Day vs Night (DN-1..DN-7) and the common rulings that apply (C-1..C-5)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec
import pytest
from dn_helpers import DAY, ENGINE, NIGHT, act, card, encoded, new_game, of_type, place, public

from packplay.cards.catalog import load_catalog
from packplay.games.base import Emitted, GameConfig, RuleError
from packplay_protocol.cards import CardInstance
from packplay_protocol.games.common import LegalActions
from packplay_protocol.games.day_night import (
    CardIsDud,
    CardReplaced,
    ChoiceCommitted,
    ColorDeclared,
    Declare,
    GameEnded,
    HandDiscarded,
    PairResolved,
    PairRevealed,
    Place,
    Replace,
    RoundStarted,
    RowPlaced,
)


def outcomes(events: Sequence[Emitted]) -> list[str]:
    return [e.outcome for e in of_type(events, PairResolved)]


# --- the round ---------------------------------------------------------------------


def test_round_winners_to_pile_losers_and_ties_back_to_hand() -> None:
    """Winning cards go to the winner's pile; lost and tied cards return to their owner's hand."""
    state = new_game(
        [card("dR", "R"), card("dG", "G"), card("dW", "W"), card("dX", "U")],
        [card("nU", "U"), card("nG", "G"), card("nR", "R"), card("nX", "U")],
    )
    after = place(state, ["dR", "dG", "dW"], ["nU", "nG", "nR"]).state
    assert after.piles[DAY] == ["dW"]
    assert after.piles[NIGHT] == ["nU"]
    assert after.hands[DAY] == ["dG", "dR", "dX"]
    assert after.hands[NIGHT] == ["nG", "nR", "nX"]
    assert after.round == 2 and after.k == 3


def test_three_rounds_3_3_6_then_most_cards_in_pile_wins() -> None:
    """k = 3, 3, then 6; after round 3 the seat with more cards in pile wins."""
    day = [card(f"dW{i:02}", "W") for i in range(12)]
    night = [card(f"nU{i:02}", "U") for i in range(12)]
    state = new_game(day, night)
    sizes = []
    for _ in range(3):
        sizes.append(state.k)
        day_row = state.hands[DAY][: state.k]
        night_row = state.hands[NIGHT][: state.k]
        state = place(state, day_row, night_row).state
    assert sizes == [3, 3, 6]
    result = ENGINE.result(state)
    assert result is not None
    assert result.winners == (DAY,) and not result.draw and result.scores == (12.0, 0.0)


def test_equal_piles_is_a_draw() -> None:
    """Equal piles after round 3: a draw, both seats listed as winners."""
    state = new_game([card("dG", "G")], [card("nG", "G")])
    transition = place(state, ["dG"], ["nG"])
    state = transition.state
    assert state.round == 2
    for _ in range(2):
        state = place(state, ["dG"], ["nG"]).state
    result = ENGINE.result(state)
    assert result is not None and result.draw and result.winners == (0, 1)
    assert result.scores == (0.0, 0.0)


# --- DN-1 slots --------------------------------------------------------------------


def test_dn1_slot_i_of_day_meets_slot_i_of_night_in_order() -> None:
    """DN-1: rows are ordered lists; pairs are revealed and resolved in slot order."""
    day = [card("dR", "R"), card("dG", "G"), card("dW", "W"), card("dX", "U")]
    night = [card("nU", "U"), card("nG", "G"), card("nR", "R"), card("nX", "U")]
    events = place(new_game(day, night), ["dR", "dG", "dW"], ["nU", "nG", "nR"]).events
    reveals = of_type(events, PairRevealed)
    assert [(e.slot, e.day, e.night) for e in reveals] == [
        (0, "dR", "nU"),
        (1, "dG", "nG"),
        (2, "dW", "nR"),
    ]
    assert outcomes(events) == ["night", "tie", "day"]
    other = place(new_game(day, night), ["dW", "dG", "dR"], ["nU", "nG", "nR"]).events
    assert outcomes(other) == ["day", "tie", "tie"]


def test_dn1_roles_follow_day_seat_not_seat_order() -> None:
    """DN-1: with seat 1 as Day, its row is the Day row of every pair."""
    state = new_game([card("dW", "W")], [card("nW", "W")], day_seat=1)
    assert state.day_seat == 1 and state.role(1) == "day"
    events = place(state, ["dW"], ["nW"]).events
    assert outcomes(events) == ["day"]
    reveal = of_type(events, PairRevealed)[0]
    assert (reveal.day, reveal.night) == ("dW", "nW")


def test_dn1_a_card_fills_one_slot_only() -> None:
    """DN-1: the k cards of a row are distinct."""
    state = new_game([card(f"d{i}", "R") for i in range(4)], [card(f"n{i}", "G") for i in range(4)])
    with pytest.raises(RuleError) as refused:
        act(state, DAY, Place(cards=("d0", "d0", "d1")))
    assert refused.value.rule == "DN-1"


# --- DN-2 colorless replacement ------------------------------------------------------


def test_dn2_one_colorless_card_is_replaced_by_its_owner_knowing_the_other() -> None:
    """DN-2: only the owner decides, seeing the opponent's card; the colorless card is discarded."""
    day = [card("dL", land=True), card("dR", "R"), card("dU", "U"), card("dG", "G"), card("dW", "W")]
    night = [card("nG", "G"), card("nB", "B"), card("nR", "R"), card("nU", "U")]
    transition = place(new_game(day, night), ["dL", "dR", "dU"], ["nG", "nB", "nR"])
    state = transition.state
    assert ENGINE.pending(state) == (DAY,)
    assert state.phase == "replace" and state.slot == 0
    assert outcomes(transition.events) == []
    assert ENGINE.view(state, DAY).seats[NIGHT].row[0].card == "nG"
    assert "nG" in ENGINE.known_cards(state, DAY)
    legal = ENGINE.legal_actions(state, DAY)
    assert legal.actions == (Replace(card="dG"), Replace(card="dW"))
    done = act(state, DAY, Replace(card="dW"))
    replaced = of_type(done.events, CardReplaced)
    assert replaced == [CardReplaced(slot=0, seat=DAY, discarded="dL", card="dW")]
    assert outcomes(done.events) == ["day", "night", "day"]
    assert done.state.discards[DAY] == ["dL"]
    assert done.state.piles[DAY] == ["dW", "dU"]


def test_dn2_both_colorless_replace_hidden_and_revealed_together() -> None:
    """DN-2 + C-5: both owners choose hidden; the first choice is kept secret until both chose."""
    day = [card("dL", land=True), card("dR", "R"), card("dU", "U"), card("dW", "W")]
    night = [card("nL", land=True), card("nG", "G"), card("nB", "B"), card("nU", "U")]
    state = place(new_game(day, night), ["dL", "dR", "dU"], ["nL", "nG", "nB"]).state
    assert ENGINE.pending(state) == (DAY, NIGHT)
    first = act(state, DAY, Replace(card="dW"))
    assert ENGINE.pending(first.state) == (NIGHT,)
    assert of_type(first.events, CardReplaced) == []
    mine = of_type(first.events, ChoiceCommitted, DAY)
    theirs = of_type(first.events, ChoiceCommitted, NIGHT)
    assert mine == [ChoiceCommitted(seat=DAY, step="replace", card="dW")]
    assert theirs == [ChoiceCommitted(seat=DAY, step="replace")]
    night_view = ENGINE.view(first.state, NIGHT)
    assert night_view.seats[DAY].committed and night_view.seats[DAY].row[0].card == "dL"
    assert "dW" in ENGINE.hidden_from(first.state, NIGHT)
    assert "dW" not in ENGINE.known_cards(first.state, NIGHT)
    second = act(first.state, NIGHT, Replace(card="nU"))
    replaced = of_type(second.events, CardReplaced)
    assert [(e.seat, e.card) for e in replaced] == [(DAY, "dW"), (NIGHT, "nU")]
    assert {"dW", "nU"} <= set(ENGINE.known_cards(second.state, None))
    assert outcomes(second.events)[0] == "day"
    assert second.state.discards[DAY] == ["dL"] and second.state.discards[NIGHT] == ["nL"]


def test_dn2_a_colorless_replacement_is_replaced_in_turn() -> None:
    """DN-2: a colorless replacement is itself replaced; both colorless cards are discarded."""
    day = [card("dL", land=True), card("dR", "R"), card("dU", "U"), card("dL2", land=True), card("dG", "G")]
    night = [card("nG", "G"), card("nB", "B"), card("nR", "R"), card("nU", "U")]
    state = place(new_game(day, night), ["dL", "dR", "dU"], ["nG", "nB", "nR"]).state
    state = act(state, DAY, Replace(card="dL2")).state
    assert ENGINE.pending(state) == (DAY,) and state.phase == "replace" and state.slot == 0
    assert ENGINE.legal_actions(state, DAY).actions == (Replace(card="dG"),)
    done = act(state, DAY, Replace(card="dG"))
    assert outcomes(done.events)[0] == "tie"
    assert done.state.discards[DAY] == ["dL", "dL2"]


def test_dn2_replacement_must_come_from_hand() -> None:
    """DN-2: a card in the row, the opponent's card or an unknown id is refused; state unchanged."""
    day = [card("dL", land=True), card("dR", "R"), card("dU", "U"), card("dW", "W")]
    night = [card("nG", "G"), card("nB", "B"), card("nR", "R"), card("nU", "U")]
    state = place(new_game(day, night), ["dL", "dR", "dU"], ["nG", "nB", "nR"]).state
    before = encoded(state)
    for bad in ("dR", "nU", "nope"):
        with pytest.raises(RuleError) as refused:
            act(state, DAY, Replace(card=bad))
        assert refused.value.rule == "DN-2" and bad not in str(refused.value)
    assert encoded(state) == before


# --- DN-3 duds ------------------------------------------------------------------------


def test_dn3_colorless_card_with_empty_hand_is_a_dud_and_loses() -> None:
    """DN-3: no card in hand: the colorless card stays, loses to a colored card, then is discarded."""
    day = [card("dL", land=True), card("dR", "R"), card("dG", "G")]
    night = [card("nU", "U"), card("nW", "W"), card("nB", "B")]
    transition = place(new_game(day, night), ["dL", "dR", "dG"], ["nU", "nW", "nB"])
    duds = of_type(transition.events, CardIsDud)
    assert duds == [CardIsDud(slot=0, seat=DAY, card="dL")]
    resolved = of_type(transition.events, PairResolved)
    assert (resolved[0].day_color, resolved[0].outcome) == (None, "night")
    assert outcomes(transition.events) == ["night", "day", "night"]
    state = transition.state
    assert state.discards[DAY] == ["dL"]
    assert "dL" not in state.hands[DAY] and state.hands[DAY] == ["dG"]


def test_dn3_dud_ties_with_a_dud_and_both_are_discarded() -> None:
    """DN-3: two duds tie; a dud is never returned to hand, even after a tie."""
    transition = place(new_game([card("dL", land=True)], [card("nA")]), ["dL"], ["nA"])
    assert outcomes(transition.events) == ["tie"]
    state = transition.state
    assert state.discards[DAY] == ["dL"] and state.discards[NIGHT] == ["nA"]
    assert state.hands == [[], []] and state.over


def test_dn3_dud_against_a_multicolored_card() -> None:
    """DN-3 + DN-4: the multicolored card still declares, then beats the dud."""
    state = place(new_game([card("dL", land=True)], [card("nWB", "WB")]), ["dL"], ["nWB"]).state
    assert ENGINE.pending(state) == (NIGHT,) and state.phase == "declare"
    done = act(state, NIGHT, Declare(color="W"))
    assert outcomes(done.events) == ["night"]


# --- DN-4 multicolored ----------------------------------------------------------------


def test_dn4_one_multicolored_card_declared_knowing_the_other_color() -> None:
    """DN-4: only the owner declares, one of its colors, seeing the opponent's card."""
    day = [card("dWB", "WB"), card("dR", "R"), card("dG", "G"), card("dU", "U")]
    night = [card("nR", "R"), card("nG", "G"), card("nU", "U"), card("nW", "W")]
    state = place(new_game(day, night), ["dWB", "dR", "dG"], ["nR", "nG", "nU"]).state
    assert ENGINE.pending(state) == (DAY,) and state.phase == "declare"
    assert ENGINE.view(state, DAY).seats[NIGHT].row[0].color == "R"
    assert ENGINE.legal_actions(state, DAY).actions == (Declare(color="W"), Declare(color="B"))
    with pytest.raises(RuleError) as refused:
        act(state, DAY, Declare(color="G"))
    assert refused.value.rule == "DN-4"
    done = act(state, DAY, Declare(color="W"))
    assert of_type(done.events, ColorDeclared) == [ColorDeclared(slot=0, seat=DAY, color="W")]
    resolved = of_type(done.events, PairResolved)[0]
    assert (resolved.day_color, resolved.night_color, resolved.outcome) == ("W", "R", "day")


def test_dn4_both_multicolored_declare_hidden_and_simultaneously() -> None:
    """DN-4 + C-5: both declare; the first declaration stays hidden until the second."""
    day = [card("dWB", "WB"), card("dR", "R")]
    night = [card("nUB", "UB"), card("nG", "G")]
    state = place(new_game(day, night), ["dWB", "dR"], ["nUB", "nG"]).state
    assert ENGINE.pending(state) == (DAY, NIGHT)
    first = act(state, DAY, Declare(color="B"))
    assert [e.color for e in of_type(first.events, ChoiceCommitted, DAY)] == ["B"]  # no redacted copy
    assert of_type(first.events, ChoiceCommitted, NIGHT) == [ChoiceCommitted(seat=DAY, step="declare")]
    assert of_type(first.events, ColorDeclared) == []
    assert ENGINE.view(first.state, NIGHT).seats[DAY].row[0].color is None
    assert "B" not in {e.color for e in public(first.events, NIGHT) if isinstance(e, ChoiceCommitted)}
    second = act(first.state, NIGHT, Declare(color="U"))
    assert [(e.seat, e.color) for e in of_type(second.events, ColorDeclared)] == [(DAY, "B"), (NIGHT, "U")]
    assert outcomes(second.events) == ["night", "day"]


def test_dn4_declaration_comes_after_replacement() -> None:
    """DN-4: a multicolored replacement is declared once the replacements are done."""
    day = [card("dL", land=True), card("dR", "R"), card("dU", "U"), card("dWB", "WB")]
    night = [card("nR", "R"), card("nG", "G"), card("nB", "B"), card("nU", "U")]
    state = place(new_game(day, night), ["dL", "dR", "dU"], ["nR", "nG", "nB"]).state
    assert state.phase == "replace"
    state = act(state, DAY, Replace(card="dWB")).state
    assert state.phase == "declare" and ENGINE.pending(state) == (DAY,) and state.slot == 0


# --- DN-5 short hands ----------------------------------------------------------------


def test_dn5_k_is_the_smallest_hand_and_unplaced_cards_are_discarded() -> None:
    """DN-5: k = min(3, hands); the other unplaced cards are discarded face down before the
    reveal, so a colorless card of that round is a dud."""
    day = [card("dL", land=True), card("dR", "R"), card("dU", "U"), card("dG", "G"), card("dW", "W")]
    night = [card("nR", "R"), card("nG", "G")]
    state = new_game(day, night)
    assert state.k == 2
    with pytest.raises(RuleError) as refused:
        act(state, DAY, Place(cards=("dL", "dR", "dU")))
    assert refused.value.rule == "DN-5"
    transition = place(state, ["dL", "dR"], ["nR", "nG"])
    discarded = of_type(transition.events, HandDiscarded)
    assert discarded == [HandDiscarded(seat=DAY, count=3)]
    mine = of_type(transition.events, HandDiscarded, DAY)
    assert mine == [HandDiscarded(seat=DAY, count=3, cards=("dG", "dU", "dW"))]
    kinds = [type(e).__name__ for e in public(transition.events)]
    assert kinds.index("HandDiscarded") < kinds.index("PairRevealed")
    assert [e.seat for e in of_type(transition.events, CardIsDud)] == [DAY]
    assert outcomes(transition.events) == ["night", "day"]
    assert transition.state.buried[DAY] == ["dG", "dU", "dW"]


def test_dn5_round_with_k_zero_is_skipped_and_discards_nothing() -> None:
    """DN-5: Day's hand is empty after round 1, so rounds 2 and 3 are skipped; Night keeps its hand."""
    day = [card("dL", land=True), card("dR", "R"), card("dU", "U"), card("dG", "G"), card("dW", "W")]
    night = [card("nR", "R"), card("nG", "G")]
    transition = place(new_game(day, night), ["dL", "dR"], ["nR", "nG"])
    started = of_type(transition.events, RoundStarted)
    assert started == [RoundStarted(round=2, k=0, skipped=True), RoundStarted(round=3, k=0, skipped=True)]
    state = transition.state
    assert state.over and state.hands[NIGHT] == ["nG"] and state.buried[NIGHT] == []
    assert of_type(transition.events, GameEnded) == [GameEnded(scores=(1, 1), winners=(0, 1), draw=True)]


def test_dn5_printed_round_3_rule_plays_the_smaller_hand() -> None:
    """DN-5 (printed round-3 rule): with fewer than six cards, both play as many as the
    smaller hand and the extra cards are discarded."""
    day = [card(f"dW{i}", "W") for i in range(9)]
    night = [card(f"nU{i}", "U") for i in range(9)]
    state = new_game(day, night)
    for _ in range(2):
        state = place(state, state.hands[DAY][:3], state.hands[NIGHT][:3]).state
    assert state.round == 3 and len(state.hands[DAY]) == 3 and len(state.hands[NIGHT]) == 9
    assert state.k == 3
    done = place(state, state.hands[DAY], state.hands[NIGHT][:3])
    assert of_type(done.events, HandDiscarded) == [HandDiscarded(seat=NIGHT, count=6)]
    assert done.state.over and len(done.state.buried[NIGHT]) == 6


def test_dn5_full_round_3_discards_nothing() -> None:
    """DN-5: when both hands hold six or more, round 3 uses 6 cards and nothing is discarded."""
    state = new_game([card(f"dG{i:02}", "G") for i in range(10)], [card(f"nG{i:02}", "G") for i in range(10)])
    for _ in range(2):
        state = place(state, state.hands[DAY][:3], state.hands[NIGHT][:3]).state
    assert state.k == 6
    done = place(state, state.hands[DAY][:6], state.hands[NIGHT][:6])
    assert of_type(done.events, HandDiscarded) == []
    assert len(done.state.hands[DAY]) == 10


# --- DN-6 order inside a round -----------------------------------------------------------


def test_dn6_replacement_used_in_slot_0_is_gone_for_slot_1() -> None:
    """DN-6: pairs resolve in slot order; slot 1 is still face down while slot 0 waits."""
    day = [card("dL1", land=True), card("dL2", land=True), card("dR", "R"), card("dW", "W")]
    night = [card("nR", "R"), card("nG", "G"), card("nU", "U"), card("nB", "B")]
    state = place(new_game(day, night), ["dL1", "dL2", "dR"], ["nR", "nG", "nU"]).state
    assert state.slot == 0 and state.revealed == 1
    assert [s.card for s in ENGINE.view(state, DAY).seats[NIGHT].row[1:]] == [None, None]
    done = act(state, DAY, Replace(card="dW"))
    assert [(e.slot, e.seat) for e in of_type(done.events, CardIsDud)] == [(1, DAY)]
    assert outcomes(done.events) == ["day", "night", "night"]


def test_dn6_lost_and_tied_cards_return_only_after_the_last_pair() -> None:
    """DN-6: a card tied in slot 0 cannot replace the colorless card of slot 1."""
    day = [card("dG", "G"), card("dL", land=True), card("dR", "R")]
    night = [card("nG", "G"), card("nR", "R"), card("nU", "U"), card("nW", "W")]
    transition = place(new_game(day, night), ["dG", "dL", "dR"], ["nG", "nR", "nU"])
    assert [e.slot for e in of_type(transition.events, CardIsDud)] == [1]
    assert outcomes(transition.events) == ["tie", "night", "night"]
    assert transition.state.hands[DAY] == ["dG", "dR"]


# --- DN-7 one-sided chains -----------------------------------------------------------------


def test_dn7_both_colorless_one_hand_empty_only_the_other_replaces() -> None:
    """DN-7: the empty-handed seat's card is a dud; the other replaces alone, knowing the dud."""
    day = [card("dL", land=True), card("dR", "R"), card("dU", "U")]
    night = [card("nL", land=True), card("nR", "R"), card("nU", "U"), card("nG", "G")]
    transition = place(new_game(day, night), ["dL", "dR", "dU"], ["nL", "nR", "nU"])
    state = transition.state
    assert [(e.seat, e.slot) for e in of_type(transition.events, CardIsDud)] == [(DAY, 0)]
    assert ENGINE.pending(state) == (NIGHT,)
    assert ENGINE.view(state, NIGHT).seats[DAY].row[0].dud
    done = act(state, NIGHT, Replace(card="nG"))
    assert of_type(done.events, ChoiceCommitted) == []
    assert outcomes(done.events)[0] == "night"


def test_dn7_each_step_of_a_chain_is_judged_afresh() -> None:
    """DN-7: after a simultaneous step, only the seat whose new card is colorless replaces."""
    day = [card("dL", land=True), card("dR", "R"), card("dU", "U"), card("dL2", land=True), card("dW", "W")]
    night = [card("nL", land=True), card("nR", "R"), card("nU", "U"), card("nG", "G")]
    state = place(new_game(day, night), ["dL", "dR", "dU"], ["nL", "nR", "nU"]).state
    assert ENGINE.pending(state) == (DAY, NIGHT)
    state = act(state, DAY, Replace(card="dL2")).state
    step = act(state, NIGHT, Replace(card="nG"))
    assert ENGINE.pending(step.state) == (DAY,)
    assert ENGINE.view(step.state, DAY).seats[NIGHT].row[0].card == "nG"
    done = act(step.state, DAY, Replace(card="dW"))
    assert outcomes(done.events)[0] == "day"


def test_dn7_chain_ends_in_a_dud_when_the_hand_runs_out() -> None:
    """DN-7: both replacements colorless; Night's hand is empty, so Night's is a dud."""
    day = [card("dL", land=True), card("dR", "R"), card("dU", "U"), card("dL2", land=True), card("dW", "W")]
    night = [card("nL", land=True), card("nR", "R"), card("nU", "U"), card("nL2", land=True)]
    state = place(new_game(day, night), ["dL", "dR", "dU"], ["nL", "nR", "nU"]).state
    state = act(state, DAY, Replace(card="dL2")).state
    step = act(state, NIGHT, Replace(card="nL2"))
    assert [(e.seat, e.card) for e in of_type(step.events, CardIsDud)] == [(NIGHT, "nL2")]
    assert ENGINE.pending(step.state) == (DAY,)
    done = act(step.state, DAY, Replace(card="dW"))
    assert outcomes(done.events)[0] == "day"
    assert done.state.discards[NIGHT] == ["nL", "nL2"]


# --- common rulings --------------------------------------------------------------------------


def test_c1_cards_without_a_magic_back_are_set_aside() -> None:
    """C-1: a card without a Magic back is never in hand; it sits in set_aside, in view."""
    token = card("dT", "G", magic_back=False)
    state = new_game([card("dR", "R"), token], [card("nG", "G")])
    assert state.hands[DAY] == ["dR"] and state.set_aside[DAY] == ["dT"]
    assert ENGINE.zones(state)["set_aside:0"] == ["dT"]
    assert ENGINE.view(state, NIGHT).seats[DAY].set_aside == ("dT",)
    assert state.cards["dT"] == token
    assert ENGINE.known_cards(state, None) == ["dT"]


def test_c2_lands_and_colorless_cards_are_replaced_multicolor_is_two_colors() -> None:
    """C-2: a land is colorless even with a color; a colorless non-land too; 2+ colors declare."""
    day = [card("dL", "G", land=True), card("dA"), card("dR", "R"), card("dW", "W"), card("dU", "U")]
    night = [card("nR", "R"), card("nG", "G"), card("nUB", "UB"), card("nU", "U")]
    state = place(new_game(day, night), ["dL", "dA", "dR"], ["nR", "nG", "nUB"]).state
    assert state.phase == "replace" and state.slot == 0
    state = act(state, DAY, Replace(card="dW")).state
    assert state.phase == "replace" and state.slot == 1
    state = act(state, DAY, Replace(card="dU")).state
    assert state.phase == "declare" and state.slot == 2 and ENGINE.pending(state) == (NIGHT,)


def test_c3_a_double_faced_card_with_a_spell_front_plays_its_color() -> None:
    """C-3: a modal double-faced card whose front is not a land is no land: it plays its color."""
    mdfc = CardInstance(
        set="MID",
        number="1",
        name="Spell // Land",
        rarity="uncommon",
        layout="modal_dfc",
        colors=("G",),
        types=("Instant",),
        id="dM",
    )
    state = new_game([mdfc, card("dX", "U")], [card("nU", "U"), card("nY", "U")])
    transition = place(state, ["dM", "dX"], ["nU", "nY"])
    assert of_type(transition.events, CardReplaced) == []
    assert outcomes(transition.events) == ["day", "tie"]


def test_c4_setup_is_reproducible_and_roles_are_drawn() -> None:
    """C-4: same seed, same boosters and roles; both roles come up over seeds; the option fixes it."""
    catalog = load_catalog()
    config = GameConfig(game="day_night", players=2)
    first = ENGINE.setup(config, 7, catalog)
    assert encoded(first) == encoded(ENGINE.setup(config, 7, catalog))
    assert len(first.hands[0]) == 15 and len(first.set_aside[0]) == 1
    assert first.cards[first.hands[0][0]].set == "MID"
    day_seats = {ENGINE.setup(config, seed, catalog).day_seat for seed in range(12)}
    assert day_seats == {0, 1}
    fixed = GameConfig(game="day_night", players=2, options={"day_seat": 1})
    assert {ENGINE.setup(fixed, seed, catalog).day_seat for seed in range(6)} == {1}


SEED_1_HAND_0 = [
    "c028a9a021e",
    "c0507d4bedc",
    "c1af1fd42a2",
    "c447204e52d",
    "c51e6c3f339",
    "c973a902931",
    "c9b6ec9d286",
    "ca606839eb9",
    "caf619699cf",
    "cb2008a05a6",
    "cb96c0fd4f5",
    "cc4c324c985",
    "ccdb8b6d8fe",
    "ce1f06c144a",
    "cf837730edf",
]


def first_choice(legal: LegalActions[Any]) -> Any:
    """The first listed action, or the first options of the first choice."""
    if legal.actions:
        return legal.actions[0]
    choice = legal.choices[0]
    picked = choice.options[0] if choice.single else list(choice.options[: choice.min_count])
    return msgspec.convert({**choice.template, choice.field: picked}, ENGINE.action_type)


def test_c4_a_seed_always_deals_and_plays_the_same_game() -> None:
    """C-4: seed 1 gives this deal and, played by first choices, this end (pinned ids)."""
    state = ENGINE.setup(GameConfig(game="day_night", players=2), 1, load_catalog())
    assert state.day_seat == DAY and state.hands[DAY] == SEED_1_HAND_0
    assert state.set_aside == [["c87076f3787"], ["c64815a47c5"]]
    assert state.cards["c028a9a021e"].name == "Bounding Wolf"
    while pending := ENGINE.pending(state):
        state = act(state, pending[0], first_choice(ENGINE.legal_actions(state, pending[0]))).state
    assert state.piles == [
        ["c1af1fd42a2", "c447204e52d", "ca606839eb9"],
        ["c30ab99254a", "c484da98f1d", "c80b610a9f7", "c816c0f3459"],
    ]
    assert state.discards == [["c9b6ec9d286", "caf619699cf"], ["ca12f978d87"]]
    result = ENGINE.result(state)
    assert result is not None and result.winners == (NIGHT,)


def test_c5_first_row_stays_hidden_until_both_are_placed() -> None:
    """C-5: the first row is stored face down; the others only learn that the seat placed."""
    day = [card(f"d{i}", "R") for i in range(4)]
    night = [card(f"n{i}", "G") for i in range(4)]
    state = new_game(day, night)
    placed = act(state, DAY, Place(cards=("d2", "d0", "d1")))
    assert ENGINE.pending(placed.state) == (NIGHT,)
    assert public(placed.events, DAY) == [RowPlaced(seat=DAY, count=3, cards=("d2", "d0", "d1"))]
    for audience in (NIGHT, None):
        assert public(placed.events, audience) == [RowPlaced(seat=DAY, count=3)]
        row = ENGINE.view(placed.state, audience).seats[DAY].row
        assert [s.card for s in row] == [None, None, None]
        assert not {"d0", "d1", "d2"} & set(ENGINE.known_cards(placed.state, audience))
    assert [s.card for s in ENGINE.view(placed.state, DAY).seats[DAY].row] == ["d2", "d0", "d1"]
    assert ENGINE.view(placed.state, NIGHT).seats[DAY].placed
