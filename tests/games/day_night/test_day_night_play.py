"""Views (C-6), legal actions, refusals, configuration and random play of Day vs Night."""

from __future__ import annotations

from itertools import permutations
from typing import Any

import msgspec
import pytest
from dn_helpers import (
    DAY,
    ENGINE,
    NIGHT,
    act,
    all_strings,
    card,
    encoded,
    named_cards,
    new_game,
    place,
    public,
    rendered_cards,
)

from packplay.cards.catalog import load_catalog
from packplay.games.base import GameConfig, RuleError, without_cards
from packplay.games.day_night import DayNightState
from packplay.rng import Rng
from packplay_protocol.games.common import ChooseCards
from packplay_protocol.games.day_night import Declare, Place, Replace
from packplay_protocol.games.mishra_factory import Take

AUDIENCES = (DAY, NIGHT, None)


def big_game() -> DayNightState:
    day = [card(f"d{c}{i}", c) for c in "WURG" for i in range(2)] + [card("dL", land=True)]
    night = [card(f"n{c}{i}", c) for c in "WUBG" for i in range(2)] + [card("nL", land=True)]
    return new_game(day, night)


# --- views -----------------------------------------------------------------------------


def test_view_during_placement_shows_own_hand_only() -> None:
    """C-6: a seat sees its own hand; the opponent and spectators see counts only."""
    state = big_game()
    for audience in AUDIENCES:
        view = ENGINE.view(state, audience)
        assert view.seat == audience and view.phase == "place" and view.k == 3 and view.round == 1
        assert view.role == {DAY: "day", NIGHT: "night", None: None}[audience]
        for seat_view in view.seats:
            assert seat_view.hand_count == 9
            own = seat_view.seat == audience
            assert (seat_view.hand is not None) == own
        hidden = ENGINE.hidden_from(state, audience)
        assert not hidden & all_strings(view)
    assert ENGINE.hidden_from(state, DAY) == frozenset(state.hands[NIGHT])
    assert ENGINE.hidden_from(state, None) == frozenset(c for h in state.hands for c in h)


def test_view_after_the_end_reveals_everything_and_the_seed() -> None:
    """After the end every card (buried ones too) and the seed are shown to everyone."""
    transition = place(new_game([card("dL", land=True), card("dR", "R")], [card("nG", "G")]), ["dR"], ["nG"])
    state = transition.state
    assert state.over and state.buried[DAY] == ["dL"]
    result = ENGINE.result(state)
    assert result is not None and result.winners == (DAY,) and result.scores == (1.0, 0.0)
    for audience in AUDIENCES:
        view = ENGINE.view(state, audience)
        assert view.over and view.seed == 1 and view.scores == (1, 0)
        assert view.seats[DAY].buried == ("dL",)
        assert all(s.hand is not None for s in view.seats)
        assert ENGINE.hidden_from(state, audience) == frozenset()
        assert ENGINE.known_cards(state, audience) == ["dL", "dR", "nG"]
    assert ENGINE.view(big_game(), None).seed is None


def test_buried_cards_hidden_while_the_game_goes_on() -> None:
    """DN-5 + C-6: while play goes on, buried cards are seen by their owner only."""
    day = [card("dG", "G"), card("dU", "U"), card("dW", "W"), card("dR", "R")]
    night = [card("nG", "G"), card("nG2", "G")]
    state = place(new_game(day, night), ["dG", "dU"], ["nG", "nG2"]).state
    # slot 0 ties (G/G), slot 1 is Night's (green beats blue): dG and dU go back to hand.
    assert not state.over and state.round == 2 and state.k == 1
    assert set(state.buried[DAY]) == {"dR", "dW"}
    for audience in (NIGHT, None):
        seat_view = ENGINE.view(state, audience).seats[DAY]
        assert seat_view.buried is None and seat_view.buried_count == 2
        assert {"dR", "dW"} <= ENGINE.hidden_from(state, audience)
        assert not {"dR", "dW"} & set(ENGINE.known_cards(state, audience))
        assert not {"dR", "dW"} & all_strings(ENGINE.view(state, audience))
    assert ENGINE.view(state, DAY).seats[DAY].buried == ("dR", "dW")
    assert {"dR", "dW"} <= set(ENGINE.known_cards(state, DAY))


def test_face_down_slot_of_a_known_card_shows_no_id() -> None:
    """C-6: a card revealed earlier and taken back to hand cannot be traced to its new slot."""
    day = [card("dR", "R"), card("dG", "G"), card("dU", "U"), card("dW", "W")]
    night = [card("nR", "R"), card("nG", "G"), card("nU", "U"), card("nW", "W")]
    state = place(new_game(day, night), ["dR", "dG", "dU"], ["nR", "nG", "nU"]).state
    assert "dR" in state.hands[DAY]  # tied in round 1, known to all
    assert "dR" not in ENGINE.hidden_from(state, NIGHT)
    placed = act(state, DAY, Place(cards=("dW", "dR", "dG")))
    for audience in (NIGHT, None):
        assert "dR" not in all_strings(ENGINE.view(placed.state, audience))
        assert not named_cards(placed.state, public(placed.events, audience))
        assert "dR" in ENGINE.known_cards(placed.state, audience)  # its facts, not its slot


def test_card_tables_hold_exactly_what_each_audience_may_know() -> None:
    """C-6: each audience's card table holds its own cards and every card shown face up;
    a card revealed and tied goes back to hand and stays known, even placed face down."""
    day = [card("dR", "R"), card("dG", "G"), card("dU", "U"), card("dW", "W"), card("dT", magic_back=False)]
    night = [card("nR", "R"), card("nG", "G"), card("nU", "U"), card("nW", "W")]
    state = new_game(day, night)
    assert ENGINE.known_cards(state, DAY) == ["dG", "dR", "dT", "dU", "dW"]
    assert ENGINE.known_cards(state, NIGHT) == ["dT", "nG", "nR", "nU", "nW"]
    assert ENGINE.known_cards(state, None) == ["dT"]
    tied = place(state, ["dR", "dG", "dU"], ["nR", "nG", "nU"])
    state = tied.state
    assert state.hands[DAY] == ["dG", "dR", "dU", "dW"] and state.round == 2
    shown = {"dR", "dG", "dU", "nR", "nG", "nU", "dT"}
    assert set(ENGINE.known_cards(state, NIGHT)) == shown | {"nW"}
    assert set(ENGINE.known_cards(state, None)) == shown
    assert set(ENGINE.known_cards(state, DAY)) == shown | {"dW"}
    placed = act(state, DAY, Place(cards=("dW", "dR", "dG"))).state
    assert set(ENGINE.known_cards(placed, NIGHT)) == shown | {"nW"}
    assert [slot.card for slot in ENGINE.view(placed, NIGHT).seats[DAY].row] == [None, None, None]
    for audience in AUDIENCES:
        hidden = ENGINE.hidden_from(placed, audience)
        assert set(ENGINE.known_cards(placed, audience)) == placed.cards.keys() - hidden


def test_no_hidden_card_in_any_view_or_event_in_random_games() -> None:
    """C-6 over random play with real boosters: no hidden id in views or visible events;
    every card they name is in the audience's card table; no card facts travel in them."""
    catalog = load_catalog()
    for seed in range(25):
        state = ENGINE.setup(GameConfig(game="day_night", players=2), seed, catalog)
        rng = Rng(seed)
        while ENGINE.result(state) is None:
            seat = rng.choice(ENGINE.pending(state))
            transition = ENGINE.apply(state, seat, random_action(state, seat, rng))
            state = transition.state
            for audience in AUDIENCES:
                hidden = ENGINE.hidden_from(state, audience)
                known = set(ENGINE.known_cards(state, audience))
                assert known == state.cards.keys() - hidden
                view, events = ENGINE.view(state, audience), public(transition.events, audience)
                assert not hidden & all_strings(view)
                assert not hidden & all_strings(events)
                assert named_cards(state, view) <= known and named_cards(state, events) <= known
                assert not rendered_cards(view) and not rendered_cards(events)
            check_zones(state)


# --- legal actions -------------------------------------------------------------------------


def random_action(state: DayNightState, seat: int, rng: Rng) -> Any:
    """What a generic random bot builds from the legal actions."""
    legal = ENGINE.legal_actions(state, seat)
    options: list[Any] = [*legal.actions, *legal.choices]
    picked = rng.choice(options)
    if not isinstance(picked, ChooseCards):
        return picked
    pool = list(picked.options)
    rng.shuffle(pool)
    count = picked.min_count + rng.below(picked.max_count - picked.min_count + 1)
    filled = dict(picked.template)
    filled[picked.field] = pool[0] if picked.single else pool[:count]
    return msgspec.convert(filled, ENGINE.action_type)


def check_zones(state: DayNightState) -> None:
    """Every card of the table in exactly one zone, by id; the zones hold no card facts."""
    every = [card_id for zone in ENGINE.zones(state).values() for card_id in zone]
    assert len(every) == len(set(every)) == 32
    assert set(every) == state.cards.keys()
    assert not rendered_cards(without_cards(state))


def test_placement_of_a_big_hand_is_an_ordered_choice() -> None:
    """DN-1: any k distinct hand cards in order: a ChooseCards; every filling is accepted."""
    state = big_game()
    legal = ENGINE.legal_actions(state, DAY)
    assert legal.actions == ()
    (choice,) = legal.choices
    assert choice.template == {"type": "day_night.place"} and choice.field == "cards"
    assert choice.ordered and choice.min_count == choice.max_count == 3
    assert set(choice.options) == set(state.hands[DAY])
    rng = Rng(3)
    for _ in range(20):
        action = random_action(state, DAY, rng)
        assert isinstance(action, Place)
        assert ENGINE.apply(state, DAY, action).state.rows[DAY]


def test_placement_of_a_small_hand_is_the_same_card_choice() -> None:
    """DN-1: whatever the hand size a row is one ordered card choice, never a list of
    rows; all 6 orders of 3 cards built from it are accepted."""
    state = new_game([card("a", "R"), card("b", "G"), card("c", "U")], [card(f"n{i}", "W") for i in range(3)])
    legal = ENGINE.legal_actions(state, DAY)
    assert legal.actions == () and len(legal.choices) == 1
    choice = legal.choices[0]
    assert (choice.field, choice.ordered, choice.min_count, choice.max_count) == ("cards", True, 3, 3)
    assert choice.template == {"type": "day_night.place"} and choice.options == ("a", "b", "c")
    for row in permutations("abc"):
        assert ENGINE.apply(state, DAY, Place(cards=row)).state.rows[DAY] == list(row)


def test_every_legal_replacement_and_declaration_is_accepted() -> None:
    """DN-2/DN-4: the listed replacements and declarations are exactly the accepted ones."""
    day = [card("dL", land=True), card("dR", "R"), card("dU", "U"), card("dWB", "WB"), card("dG", "G")]
    night = [card("nR", "R"), card("nG", "G"), card("nB", "B"), card("nU", "U")]
    state = place(new_game(day, night), ["dL", "dR", "dU"], ["nR", "nG", "nB"]).state
    legal = ENGINE.legal_actions(state, DAY)
    assert {a.card for a in legal.actions} == {"dWB", "dG"}
    assert ENGINE.legal_actions(state, NIGHT).empty
    for action in legal.actions:
        ENGINE.apply(state, DAY, action)
    declaring = act(state, DAY, Replace(card="dWB")).state
    declarations = ENGINE.legal_actions(declaring, DAY).actions
    assert declarations == (Declare(color="W"), Declare(color="B"))
    for action in declarations:
        ENGINE.apply(declaring, DAY, action)
    for color in ("U", "R", "G"):
        with pytest.raises(RuleError):
            ENGINE.apply(declaring, DAY, Declare(color=color))


# --- refusals ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seat", "action", "rule", "reason"),
    [
        (DAY, Place(cards=("dW0", "dW1")), "DN-5", "illegal_action"),
        (DAY, Place(cards=("dW0", "dW1", "dW1")), "DN-1", "illegal_action"),
        (DAY, Place(cards=("dW0", "dW1", "nW0")), "card", "illegal_action"),
        (DAY, Place(cards=("dW0", "dW1", "zzz")), "card", "illegal_action"),
        (DAY, Replace(card="dW0"), "action", "illegal_action"),
        (DAY, Declare(color="W"), "action", "illegal_action"),
        (DAY, Take(belt_position=0, group="W"), "action", "illegal_action"),
        (DAY, "nonsense", "action", "illegal_action"),
        (NIGHT, Place(cards=("nW0", "nW1", "nU0")), "turn", "not_your_turn"),
        (5, Place(cards=("dW0", "dW1", "dU0")), "turn", "not_your_turn"),
    ],
)
def test_refusals_are_typed_and_leave_the_state_unchanged(
    seat: int, action: Any, rule: str, reason: str
) -> None:
    """Refused actions raise RuleError (rule, reason) and never name a hidden card (C-6)."""
    state = big_game()
    state = act(state, NIGHT, Place(cards=("nW0", "nW1", "nU0"))).state
    before = encoded(state)
    with pytest.raises(RuleError) as refused:
        ENGINE.apply(state, seat, action)
    assert (refused.value.rule, refused.value.reason) == (rule, reason)
    assert "nW0" not in str(refused.value)
    assert encoded(state) == before


def test_no_action_after_the_end() -> None:
    state = place(new_game([card("dW", "W")], [card("nB", "B")]), ["dW"], ["nB"]).state
    state = place(state, ["dW"], ["nB"]).state
    state = place(state, ["dW"], ["nB"]).state
    assert state.over and ENGINE.pending(state) == ()
    with pytest.raises(RuleError) as refused:
        ENGINE.apply(state, DAY, Place(cards=("dW",)))
    assert refused.value.reason == "game_over"


def test_a_seat_that_committed_cannot_act_again() -> None:
    """C-5: a committed choice is final; the seat has nothing pending until the step ends."""
    state = act(big_game(), DAY, Place(cards=("dW0", "dW1", "dU0"))).state
    assert ENGINE.legal_actions(state, DAY).empty
    with pytest.raises(RuleError) as refused:
        ENGINE.apply(state, DAY, Place(cards=("dU1", "dR0", "dR1")))
    assert refused.value.reason == "not_your_turn"


# --- configuration ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "options",
    [{"shuffle": False}, {"day_seat": 2}, {"day_seat": True}, {"day_seat": "0"}, {"day_seat": -1}],
)
def test_bad_options_are_refused(options: dict[str, Any]) -> None:
    config = GameConfig(game="day_night", players=2, options=options)
    with pytest.raises(RuleError) as refused:
        ENGINE.setup(config, 1, None, [[card("d", "W")], [card("n", "B")]])
    assert refused.value.reason == "bad_config"


def test_bad_boosters_sets_and_players_are_refused() -> None:
    config = GameConfig(game="day_night", players=2)
    bad_boosters = ([[card("d", "W")]], [[card("x", "W")], [card("x", "B")]])
    for boosters in bad_boosters:
        with pytest.raises(RuleError) as refused:
            ENGINE.setup(config, 1, None, boosters)
        assert refused.value.reason == "bad_config"
    with pytest.raises(RuleError) as refused:
        ENGINE.setup(GameConfig(game="day_night", players=2, sets=("NOPE",)), 1, load_catalog())
    assert refused.value.reason == "bad_config"
    with pytest.raises(RuleError) as refused:
        ENGINE.setup(GameConfig(game="day_night", players=3), 1, None, [[], [], []])
    assert refused.value.reason == "bad_config"


def test_sets_alternate_per_booster() -> None:
    """Booster i uses sets[i % len(sets)]."""
    config = GameConfig(game="day_night", players=2, sets=("MID", "VOW"))
    state = ENGINE.setup(config, 4, load_catalog())
    assert {state.cards[c].set for c in state.hands[0]} == {"MID"}
    assert {state.cards[c].set for c in state.hands[1]} == {"VOW"}


def test_replay_from_seed_and_actions_gives_the_same_game() -> None:
    """C-4: a game is reproducible from its seed and its action log."""
    catalog = load_catalog()
    config = GameConfig(game="day_night", players=2)
    state = ENGINE.setup(config, 11, catalog)
    rng = Rng(5)
    log = []
    while ENGINE.result(state) is None:
        seat = rng.choice(ENGINE.pending(state))
        action = random_action(state, seat, rng)
        log.append((seat, action))
        state = ENGINE.apply(state, seat, action).state
    replayed = ENGINE.setup(config, 11, catalog)
    for seat, action in log:
        replayed = ENGINE.apply(replayed, seat, action).state
    assert encoded(replayed) == encoded(state)
