"""Views, zones, hidden cards (C-6) and the legal-actions contract, over stacked
games and random games opened from the packaged catalog."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from mf_helpers import ENGINE, card, cards, ids, play, stacked, take

from packplay.cards.catalog import load_catalog
from packplay.games.base import GameConfig, RuleError, clone, events_for
from packplay.games.mishra_factory import MishraFactoryState
from packplay.games.mishra_factory.rules import allowed_groups
from packplay.rng import Rng
from packplay_protocol.games.mishra_factory import GROUPS, Refilled, Take, Taken, View

AUDIENCES = (None, 0, 1)


@pytest.fixture(scope="module")
def catalog():  # type: ignore[no-untyped-def]
    return load_catalog()


def encoded(obj: Any) -> bytes:
    return msgspec.json.encode(obj)


def test_deck_is_hidden_from_everyone_only_its_count_is_public() -> None:
    deck = cards(9)
    state = play(stacked(deck), take(0, "R"))
    for audience in AUDIENCES:
        view = ENGINE.view(state, audience)
        assert view.deck_count == 4 and view.seat == audience
        text = encoded(view)
        assert all(card_id.encode() not in text for card_id in state.deck)
        assert ENGINE.hidden_from(state, audience) == frozenset(state.deck)


def test_belt_collections_discards_and_set_aside_are_public() -> None:
    token = card("", magic_back=False)
    deck = cards(10)
    state = play(stacked([*deck, token]), take(0, "R"), take(1, "R"))
    mine = state.collections[0][0].card
    state = play(state, take(3, "R", mine))
    for audience in AUDIENCES:
        view = ENGINE.view(state, audience)
        assert list(view.belt) == state.belt
        assert view.collections[1].groups["R"] == (deck[2].id,)
        assert view.collections[0].groups["R"] == (deck[5].id,)
        assert view.discarded == (mine,) and view.set_aside == (token.id,)
        assert set(view.collections[0].groups) == set(GROUPS)
        assert view.turn == 1 and view.turn_number == 3 and view.first_seat == 0


def test_view_scores_stand_as_now_and_seed_waits_for_the_end_c4() -> None:
    state = play(stacked(cards(4, "G")), take(0, "G"))
    view = ENGINE.view(state, 1)
    assert [line.total for line in view.scores] == [3, 0]
    assert view.seed is None and not view.over
    end = play(state, take(0, "G"), take(0, "G"), take(0, "G"))
    final = ENGINE.view(end, None)
    assert final.over and final.turn is None and final.seed == end.seed
    assert [line.total for line in final.scores] == [2, 2]
    assert ENGINE.hidden_from(end, None) == frozenset()


def test_events_are_public_and_show_the_refill() -> None:
    deck = cards(6)
    transition = ENGINE.apply(stacked(deck), 0, take(0, "R"))
    assert all(e.to is None for e in transition.events)
    assert encoded(events_for(transition.events, None)).count(deck[4].id.encode()) == 1
    assert deck[5].id.encode() not in encoded(events_for(transition.events, 1))


def test_known_cards_of_every_audience_are_every_card_but_the_deck() -> None:
    token = card("", magic_back=False)
    deck = cards(10)
    state = play(stacked([*deck, token]), take(0, "R"), take(0, "R"))
    state = play(state, take(2, "R", state.collections[0][0].card))
    assert state.discarded and state.set_aside and state.deck
    for audience in AUDIENCES:
        known = ENGINE.known_cards(state, audience)
        assert known == sorted(set(ids([*deck, token])) - set(state.deck))
        assert not set(known) & ENGINE.hidden_from(state, audience)


def test_a_card_dealt_from_the_deck_to_the_belt_becomes_known() -> None:
    deck = cards(6)
    state = stacked(deck)
    for audience in AUDIENCES:
        assert deck[4].id not in ENGINE.known_cards(state, audience)
    transition = ENGINE.apply(state, 0, take(0, "R"))
    refill = transition.events[1].event
    assert isinstance(refill, Refilled) and refill.card == deck[4].id
    for audience in AUDIENCES:
        known = ENGINE.known_cards(transition.state, audience)
        assert deck[4].id in known and deck[5].id not in known
        assert ENGINE.view(transition.state, audience).belt[3] == deck[4].id


def test_views_and_events_name_cards_by_id_without_their_facts() -> None:
    deck = cards(8)
    state = play(stacked(deck), take(0, "R"), take(0, "R"))
    transition = ENGINE.apply(state, 0, take(3, "R", state.collections[0][0].card))
    for audience in AUDIENCES:
        for payload in (ENGINE.view(transition.state, audience), events_for(transition.events, audience)):
            assert b"Test card" not in encoded(payload) and b'"name"' not in encoded(payload)
            assert named(transition.state, payload) <= set(ENGINE.known_cards(transition.state, audience))
    taken = transition.events[0].event
    assert isinstance(taken, Taken) and (taken.card, taken.discarded) == (deck[5].id, deck[0].id)


def named(state: MishraFactoryState, payload: Any) -> set[str]:
    """The card ids a view or events name: every string in them that is a card of the game."""
    found: set[str] = set()
    pending = [msgspec.to_builtins(payload)]
    while pending:
        value = pending.pop()
        if isinstance(value, str) and value in state.cards:
            found.add(value)
        elif isinstance(value, dict):
            pending.extend([*value.keys(), *value.values()])
        elif isinstance(value, list):
            pending.extend(value)
    return found


def test_zones_hold_every_card_once() -> None:
    token = card("", magic_back=False)
    deck = cards(10)
    state = stacked([*deck, token])
    state = play(state, take(0, "R"), take(0, "R"), take(2, "R", deck[0].id))
    zones = ENGINE.zones(state)
    flat = [i for zone in zones.values() for i in zone]
    assert sorted(flat) == sorted(ids([*deck, token]))
    assert zones["collection:0"] == [deck[4].id] and zones["discarded"] == [deck[0].id]


def described(state: MishraFactoryState, seat: int) -> set[tuple[int, str, str | None]]:
    """Every action the legal actions describe, as (position, group, discard)."""
    legal = ENGINE.legal_actions(state, seat)
    out = {(a.belt_position, a.group, a.discard) for a in legal.actions}
    for choice in legal.choices:
        assert choice.single and choice.min_count == choice.max_count == 1
        for option in choice.options:
            action = msgspec.convert({**choice.template, choice.field: option}, ENGINE.action_type)
            out.add((action.belt_position, action.group, action.discard))
    return out


def accepted(state: MishraFactoryState, seat: int) -> set[tuple[int, str, str | None]]:
    """Every take apply accepts, by brute force over positions, groups and discards."""
    known = [None, *(i for zone in ENGINE.zones(state).values() for i in zone)]
    out: set[tuple[int, str, str | None]] = set()
    for position in range(-1, 5):
        for group in GROUPS:
            for discard in known:
                try:
                    ENGINE.apply(state, seat, Take(belt_position=position, group=group, discard=discard))
                except RuleError:
                    continue
                out.add((position, group, discard))
    return out


def test_legal_actions_describe_exactly_what_apply_accepts() -> None:
    deck = [card("", land=True), card("WU"), card("R"), card("", land=True), *cards(6, "G")]
    state = stacked(deck)
    for _ in range(5):
        assert described(state, state.turn) == accepted(state, state.turn)
        state = play(state, take(0, allowed_groups(state.cards[state.belt[0]])[-1]))
    assert described(state, state.turn) == accepted(state, state.turn)
    assert ENGINE.legal_actions(state, 1 - state.turn).empty


def random_game(catalog: Any, players: int, seed: int) -> list[MishraFactoryState]:
    """A random game to the end, every action built from the legal actions like a bot."""
    config = GameConfig(game="mishra_factory", players=players)
    state = ENGINE.setup(config, seed, catalog)
    opened = sorted(i for zone in ENGINE.zones(state).values() for i in zone)
    rng = Rng(seed)
    states = [state]
    while ENGINE.result(state) is None:
        seat = ENGINE.pending(state)[0]
        legal = ENGINE.legal_actions(state, seat)
        options: list[Any] = list(legal.actions) + list(legal.choices)
        pick = rng.choice(options)
        if not isinstance(pick, Take):
            pick = msgspec.convert(
                {**pick.template, pick.field: rng.choice(pick.options)}, ENGINE.action_type
            )
        before = clone(state)
        transition = ENGINE.apply(state, seat, pick)
        assert state == before
        check_no_leak(transition.state, transition.events)
        state = transition.state
        assert sorted(i for zone in ENGINE.zones(state).values() for i in zone) == opened
        states.append(state)
    return states


def check_no_leak(state: MishraFactoryState, events: Any) -> None:
    for audience in (None, *range(state.players)):
        hidden = ENGINE.hidden_from(state, audience)
        view, seen = ENGINE.view(state, audience), events_for(events, audience)
        text = encoded(view) + encoded(seen)
        assert not any(h.encode() in text for h in hidden)
        known = ENGINE.known_cards(state, audience)
        assert set(known) == set(state.cards) - set(state.deck)
        assert named(state, view) | named(state, seen) <= set(known)
        assert isinstance(msgspec.json.decode(encoded(ENGINE.view(state, audience)), type=View), View)


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3), (2, 4), (4, 5)])
def test_random_games_end_with_everything_collected(catalog: Any, players: int, seed: int) -> None:
    states = random_game(catalog, players, seed)
    end = states[-1]
    result = ENGINE.result(end)
    assert result is not None and len(result.scores) == players
    assert result.winners and all(result.scores[w] == max(result.scores) for w in result.winners)
    assert end.turn_number == 15 * players
    collected = sum(len(c) for c in end.collections) + len(end.discarded)
    assert collected == 15 * players
    replay_state = ENGINE.setup(GameConfig(game="mishra_factory", players=players), seed, catalog)
    assert replay_state == states[0]
