"""Turns: order, the two decisions, the discard pile, the end (WP-3, WP-4), legal actions, refusals."""

from __future__ import annotations

import msgspec
import pytest
from wp_helpers import (
    ENGINE,
    act,
    card,
    current,
    dull,
    hand_of,
    refused,
    simple,
    stacked,
    turn,
)

from packplay.cards.catalog import load_catalog
from packplay.games.base import GameConfig
from packplay.games.playout import play, random_policy
from packplay.games.wedding_planner.state import WeddingState
from packplay.rng import Rng
from packplay_protocol.games.wedding_planner import Discard, Draw, Take


class OtherGameTake(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="other_game.take"):
    """An action of another game that happens to carry a ``card`` field."""

    card: str


def draw_and_discard_drawn(state: WeddingState) -> WeddingState:
    seat = current(state)
    drawn = state.draw[0]
    state = act(state, seat, Draw()).state
    return act(state, seat, Discard(card=drawn)).state


def test_turns_go_counter_clockwise_from_first_seat() -> None:
    """Counter-clockwise = reverse seat order, starting from the first seat."""
    state = simple(4, first_seat=1)
    order = []
    for _ in range(8):
        order.append(current(state))
        state = draw_and_discard_drawn(state)
    assert order == [1, 0, 3, 2, 1, 0, 3, 2]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_game_ends_after_four_turns_each(players: int) -> None:
    """The game ends once every player has had 4 turns (2-6 players)."""
    state = simple(players, first_seat=players - 1, draw=4 * players)
    for done in range(4 * players):
        assert ENGINE.result(state) is None
        assert state.turns_done == done
        state = draw_and_discard_drawn(state)
    assert ENGINE.result(state) is not None
    assert ENGINE.pending(state) == ()
    error = refused(state, 0, Take(card=state.discard[-1]))
    assert error.reason == "game_over"


def test_draw_takes_the_top_card_then_discard_is_due() -> None:
    state = simple(2)
    top = state.draw[0]
    after = act(state, 0, Draw()).state
    assert top in after.hands[0]
    assert after.draw == state.draw[1:]
    assert after.phase == "discard"
    assert ENGINE.pending(after) == (0,)


def test_pickup_then_discard_order_is_enforced() -> None:
    """A turn is pick up then discard: neither twice, nor discard first."""
    state = simple(2)
    error = refused(state, 0, Discard(card=state.hands[0][0]))
    assert (error.rule, error.reason) == ("turn", "illegal_action")
    picked = act(state, 0, Draw()).state
    assert refused(picked, 0, Draw()).rule == "turn"
    assert refused(picked, 0, Take(card=picked.discard[-1])).rule == "turn"


def test_not_your_turn() -> None:
    state = simple(3, first_seat=0)
    assert refused(state, 1, Draw()).reason == "not_your_turn"


def test_wp3_take_any_discard_card_with_all_above_it() -> None:
    """WP-3: taking a card takes every card above it too; hands may grow."""
    state = simple(2, first_seat=0)
    for _ in range(3):
        state = draw_and_discard_drawn(state)
    pile = list(state.discard)
    assert len(pile) == 4
    seat = current(state)
    after = act(state, seat, Take(card=pile[1])).state
    assert after.discard == pile[:1]
    assert set(pile[1:]) <= set(after.hands[seat])
    assert len(after.hands[seat]) == 4 + 3


def test_wp3_card_just_taken_may_be_discarded_again() -> None:
    """WP-3: the card just taken may be discarded again at once."""
    state = simple(2)
    top = state.discard[-1]
    after = turn(state, Take(card=top), top)
    assert after.discard == [top]
    assert after.hands[0] == state.hands[0]
    assert after.turns_done == 1


def test_wp3_take_refuses_a_card_not_in_the_discard_pile() -> None:
    """WP-3: only discard-pile cards can be taken; the message names no card."""
    state = simple(2)
    for hidden in (state.hands[1][0], state.draw[0], state.hands[0][0], "nonsense"):
        error = refused(state, 0, Take(card=hidden))
        assert error.rule == "WP-3"
        assert hidden not in str(error)
        assert state.cards.get(hidden) is None or state.cards[hidden].name not in str(error)


def test_discard_refuses_a_card_not_in_hand() -> None:
    state = act(simple(2), 0, Draw()).state
    for other in (state.hands[1][0], state.draw[0], state.discard[0], "nonsense"):
        error = refused(state, 0, Discard(card=other))
        assert error.rule == "card"
        assert other not in str(error)


def test_wp4_no_draw_from_an_empty_draw_pile() -> None:
    """WP-4: with the draw pile empty, drawing is refused and not offered."""
    themes = [card("R"), card("U")]
    state = stacked([dull(4), dull(4)], dull(1)[0], [], themes)
    assert state.draw == []
    error = refused(state, 0, Draw())
    assert error.rule == "WP-4"
    legal = ENGINE.legal_actions(state, 0)
    assert legal.actions == (Take(card=state.discard[0]),)
    after = turn(state, Take(card=state.discard[0]), state.hands[0][0])
    assert after.discard == [state.hands[0][0]]


def test_other_game_action_is_refused() -> None:
    state = simple(2)
    error = refused(state, 0, OtherGameTake(card=state.discard[0]))
    assert error.rule == "action"


def test_legal_actions_pickup_and_discard() -> None:
    state = simple(2)
    legal = ENGINE.legal_actions(state, 0)
    assert legal.actions == (Draw(), Take(card=state.discard[0]))
    assert ENGINE.legal_actions(state, 1).empty
    picked = act(state, 0, Draw()).state
    discards = ENGINE.legal_actions(picked, 0).actions
    assert discards == tuple(Discard(card=c) for c in hand_of(picked, 0))


def test_every_legal_action_is_accepted_and_others_refused() -> None:
    """Contract: each action in LegalActions applies; ids outside it are refused."""
    catalog = load_catalog()
    for players in (2, 3, 6):
        state = ENGINE.setup(GameConfig(game="wedding_planner", players=players), players, catalog)
        rng = Rng(players)
        while ENGINE.result(state) is None:
            (seat,) = ENGINE.pending(state)
            legal = ENGINE.legal_actions(state, seat).actions
            for action in legal:
                ENGINE.apply(state, seat, msgspec.convert(msgspec.to_builtins(action), ENGINE.action_type))
            offered = set(legal)
            for card_id in list(state.cards)[:12]:
                for action in (Take(card=card_id), Discard(card=card_id)):
                    if action not in offered:
                        refused(state, seat, action)
            state = ENGINE.apply(state, seat, legal[rng.below(len(legal))]).state


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_playouts_end_with_zones_intact(players: int) -> None:
    """Random play ends after 8 decisions per seat; every card stays in exactly one zone."""
    catalog = load_catalog()
    for seed in range(5):
        cfg = GameConfig(game="wedding_planner", players=players)
        state = ENGINE.setup(cfg, seed, catalog)
        all_ids = sorted(state.cards)
        policies = [random_policy(ENGINE, Rng(seed * 7 + i)) for i in range(players)]
        played = play(ENGINE, state, policies, Rng(seed))
        assert played.steps == 8 * players
        zones = ENGINE.zones(played.state)
        assert sorted(c for ids in zones.values() for c in ids) == all_ids
        result = ENGINE.result(played.state)
        assert result is not None and len(result.scores) == players
