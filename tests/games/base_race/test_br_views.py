"""Views, zones, hidden and known cards (BR-6, C-5, C-6), on fixed boards and random playouts.

Views and events name cards by id; an audience's card table (``known_cards``) holds the
facts of exactly the cards it may know.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgspec
import pytest
from br_helpers import (
    ENGINE,
    basic,
    board_game,
    creature,
    creatures,
    dealt,
    insert,
    land,
    move,
    new_game,
    shown_ids,
)

from packplay.cards.catalog import load_catalog
from packplay.games.base import GameConfig
from packplay.games.base_race.state import BaseRaceState
from packplay.games.playout import play, random_policy, replay
from packplay.rng import Rng
from packplay_protocol.cards import CardInstance
from packplay_protocol.games.base_race import Layout, View


def _instances(value: Any) -> Iterator[CardInstance]:
    """Every CardInstance inside a struct, tuple or list (views and events carry none)."""
    if isinstance(value, CardInstance):
        yield value
    elif isinstance(value, msgspec.Struct):
        for name in value.__struct_fields__:
            yield from _instances(getattr(value, name))
    elif isinstance(value, tuple | list):
        for item in value:
            yield from _instances(item)


def test_br6_owner_sees_own_face_down_cards_opponent_sees_only_where() -> None:
    mine = creature("4")
    state = board_game({(2, 2): mine})
    own = {p.id: p for p in ENGINE.view(state, 0).board}
    other = {p.id: p for p in ENGINE.view(state, 1).board}
    spectator = {p.id: p for p in ENGINE.view(state, None).board}
    assert own[mine.id].card == mine.id and not own[mine.id].face_up
    assert other[mine.id].card is None and (other[mine.id].row, other[mine.id].col) == (2, 2)
    assert spectator[mine.id].card is None
    assert len(other) == len(spectator) == 24
    assert sum(p.card is not None for p in other.values()) == 12
    assert mine.id in ENGINE.known_cards(state, 0)
    assert mine.id not in ENGINE.known_cards(state, 1) and mine.id not in ENGINE.known_cards(state, None)


def test_br6_base_camp_is_hidden_from_the_opponent() -> None:
    state = board_game()
    camp = state.camps[0]
    assert camp in ENGINE.hidden_from(state, 1) and camp in ENGINE.hidden_from(state, None)
    assert camp not in ENGINE.hidden_from(state, 0)
    assert camp not in shown_ids(ENGINE.view(state, 1)) and camp not in ENGINE.known_cards(state, 1)


def test_hands_are_private_and_sorted_during_layout() -> None:
    state = dealt([basic(), basic()], [creatures(11), creatures(11)])
    view = ENGINE.view(state, 1)
    assert view.hand == tuple(sorted(state.hands[1]))
    assert view.hand_counts == (12, 12) and view.phase == "layout"
    assert ENGINE.view(state, None).hand == ()
    assert set(state.hands[0]) <= ENGINE.hidden_from(state, 1)
    assert set(state.hands[1]) <= set(ENGINE.known_cards(state, 1))
    assert not set(state.hands[1]) & set(ENGINE.known_cards(state, 0))
    assert not set(state.hands[1]) & set(ENGINE.known_cards(state, None))


def test_out_cards_are_counted_not_shown_until_the_end() -> None:
    removed = land()
    state = new_game([[basic(), basic(), removed, *creatures(23)], [], []])
    for audience in (0, 1, None):
        view = ENGINE.view(state, audience)
        assert view.out_count == 2 and view.out == ()
        assert removed.id in ENGINE.hidden_from(state, audience)
        assert not set(state.out) & set(ENGINE.known_cards(state, audience))


def test_everything_is_revealed_after_the_end() -> None:
    state = board_game({(2, 0): creature("1")}, {(3, 0): basic()})
    done = move(state, (2, 0), (3, 0)).state
    view = ENGINE.view(done, 1)
    assert view.phase == "over" and view.winners == (0,) and view.turn is None
    assert all(p.card == p.id for p in view.board)
    assert set(view.out) == set(done.out) and len(view.out) == view.out_count
    assert ENGINE.hidden_from(done, None) == frozenset()
    for audience in (0, 1, None):
        assert ENGINE.known_cards(done, audience) == sorted(done.cards)


def test_layout_phase_card_tables_hold_own_cards_and_public_ones() -> None:
    """C-5: a committed layout stays its owner's; set-aside cards are public (C-1)."""
    token = insert()
    state = new_game([[token, basic(), basic(), *creatures(22)], [], []])
    state = ENGINE.apply(state, 0, Layout(cards=tuple(state.hands[0]))).state
    own_layout = {card_id for card_id in state.board if card_id is not None}
    known = {audience: set(ENGINE.known_cards(state, audience)) for audience in (0, 1, None)}
    assert own_layout <= known[0] and not own_layout & (known[1] | known[None])
    assert set(state.hands[1]) <= known[1] and not set(state.hands[1]) & (known[0] | known[None])
    assert all(token.id in known[audience] for audience in known)
    assert ENGINE.view(state, None).set_aside == (token.id,)


def test_card_tables_in_play_hold_own_revealed_and_public_cards_only() -> None:
    """BR-6: own face-down cards, face-up, discarded and set-aside cards; never the other's
    face-down cards nor the cards out of play."""
    token, removed, top, bottom = insert(), land(), creature("3"), creature("1")
    hands = [[top, *creatures(10)], [bottom, *creatures(10)]]
    state = new_game([[basic(), basic(), token, removed, *hands[0], *hands[1]], [], []])
    front_left = [*state.hands[0][1:9], top.id, *state.hands[0][9:]]
    state = ENGINE.apply(state, 0, Layout(cards=tuple(front_left))).state
    state = ENGINE.apply(state, 1, Layout(cards=tuple(state.hands[1]))).state
    state = move(state, (2, 0), (3, 0)).state
    assert state.revealed == [top.id] and state.discard == [bottom.id] and state.out == [removed.id]
    public = {top.id, bottom.id, token.id}
    for audience in (0, 1, None):
        own = {c for c in state.board if c is not None and state.owners[c] == audience}
        known = set(ENGINE.known_cards(state, audience))
        assert known == public | own
        view = ENGINE.view(state, audience)
        assert shown_ids(view) == known
        assert view.discard == (bottom.id,) and view.set_aside == (token.id,) and view.out == ()


def test_view_shows_turn_scores_and_counts() -> None:
    state = board_game(first=1)
    view = ENGINE.view(state, 0)
    assert isinstance(view, View)
    assert view.seat == 0 and view.phase == "play" and view.turn == 1 and view.first_seat == 1
    assert view.moves == 0 and view.laid_out == (True, True) and view.winners == ()
    assert msgspec.json.decode(msgspec.json.encode(view), type=View) == view


@pytest.fixture(scope="module")
def playouts() -> list[tuple[Any, Any]]:
    """Random games: explicit stacked boosters and opened ZNR boosters."""
    catalog = load_catalog()
    games = []
    for seed in range(12):
        config = GameConfig(game="base_race", players=2)
        state = ENGINE.setup(config, seed, catalog)
        rng = Rng(seed)
        finished = play(ENGINE, state, [random_policy(ENGINE, rng)] * 2, rng)
        games.append((finished, catalog))
    return games


def test_random_games_end_and_replay(playouts: list[tuple[Any, Any]]) -> None:
    config = GameConfig(game="base_race", players=2)
    for seed, (finished, catalog) in enumerate(playouts):
        assert ENGINE.result(finished.state) is not None
        assert finished.steps <= 2 + 200
        assert replay(ENGINE, config, seed, catalog, finished.log) == finished.state


def _check_step(state: BaseRaceState, events: Any, every: set[str]) -> None:
    zones = ENGINE.zones(state)
    listed = [card_id for ids in zones.values() for card_id in ids]
    assert len(listed) == len(set(listed)) and set(listed) == every
    for audience in (0, 1, None):
        known = ENGINE.known_cards(state, audience)
        assert known == sorted(every - ENGINE.hidden_from(state, audience))
        view = ENGINE.view(state, audience)
        seen = [e.event for e in events if e.visible_to(audience)]
        assert not list(_instances(view)) and not list(_instances(seen))
        assert all(p.card in (None, p.id) for p in view.board)
        assert shown_ids(view) <= set(known) and shown_ids(seen) <= set(known)


def test_zones_and_no_leaks_at_every_step(playouts: list[tuple[Any, Any]]) -> None:
    """C-6: views and events name cards by id only, and every card they show is in the
    audience's card table of the state right after them; zones stay a partition."""
    config = GameConfig(game="base_race", players=2)
    for seed, (finished, catalog) in enumerate(playouts[:6]):
        state = ENGINE.setup(config, seed, catalog)
        every = set(state.cards)
        _check_step(state, (), every)
        for entry in finished.log:
            transition = ENGINE.apply(state, entry.seat, entry.action)
            state = transition.state
            _check_step(state, transition.events, every)
