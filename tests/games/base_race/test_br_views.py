"""Views, zones and hidden cards (BR-6, C-5, C-6), checked on fixed boards and random playouts."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgspec
import pytest
from br_helpers import ENGINE, basic, board_game, creature, creatures, dealt, land, move, new_game

from packplay.cards.catalog import load_catalog
from packplay.games.base import GameConfig
from packplay.games.base_race.state import BaseRaceState
from packplay.games.playout import play, random_policy, replay
from packplay.rng import Rng
from packplay_protocol.cards import CardInstance
from packplay_protocol.games.base_race import View


def _instances(value: Any) -> Iterator[CardInstance]:
    """Every CardInstance inside a struct, tuple or list."""
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
    assert own[mine.id].card == mine and not own[mine.id].face_up
    assert other[mine.id].card is None and (other[mine.id].row, other[mine.id].col) == (2, 2)
    assert spectator[mine.id].card is None
    assert len(other) == len(spectator) == 24
    assert sum(p.card is not None for p in other.values()) == 12


def test_br6_base_camp_is_hidden_from_the_opponent() -> None:
    state = board_game()
    camp = state.camps[0]
    assert camp in ENGINE.hidden_from(state, 1) and camp in ENGINE.hidden_from(state, None)
    assert camp not in ENGINE.hidden_from(state, 0)
    assert all(c.id != camp for c in _instances(ENGINE.view(state, 1)))


def test_hands_are_private_and_sorted_during_layout() -> None:
    state = dealt([basic(), basic()], [creatures(11), creatures(11)])
    view = ENGINE.view(state, 1)
    assert [c.id for c in view.hand] == sorted(state.hands[1])
    assert view.hand_counts == (12, 12) and view.phase == "layout"
    assert ENGINE.view(state, None).hand == ()
    assert set(state.hands[0]) <= ENGINE.hidden_from(state, 1)


def test_out_cards_are_counted_not_shown_until_the_end() -> None:
    removed = land()
    state = new_game([[basic(), basic(), removed, *creatures(23)], [], []])
    for audience in (0, 1, None):
        view = ENGINE.view(state, audience)
        assert view.out_count == 2 and view.out == ()
        assert removed.id in ENGINE.hidden_from(state, audience)


def test_everything_is_revealed_after_the_end() -> None:
    state = board_game({(2, 0): creature("1")}, {(3, 0): basic()})
    done = move(state, (2, 0), (3, 0)).state
    view = ENGINE.view(done, 1)
    assert view.phase == "over" and view.winners == (0,) and view.turn is None
    assert all(p.card is not None for p in view.board)
    assert ENGINE.hidden_from(done, None) == frozenset()


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
        hidden = ENGINE.hidden_from(state, audience)
        assert not {c.id for c in _instances(ENGINE.view(state, audience))} & hidden
        seen = [e.event for e in events if e.visible_to(audience)]
        assert not {c.id for c in _instances(seen)} & hidden


def test_zones_and_no_leaks_at_every_step(playouts: list[tuple[Any, Any]]) -> None:
    """C-6: no view or event shows a card hidden from its audience; zones stay a partition."""
    config = GameConfig(game="base_race", players=2)
    for seed, (finished, catalog) in enumerate(playouts[:6]):
        state = ENGINE.setup(config, seed, catalog)
        every = set(state.cards)
        _check_step(state, (), every)
        for entry in finished.log:
            transition = ENGINE.apply(state, entry.seat, entry.action)
            state = transition.state
            _check_step(state, transition.events, every)
