"""Views, events, hidden cards and zones (C-6, WP-3, WP-5)."""

from __future__ import annotations

import msgspec
import pytest
from wp_helpers import (
    ENGINE,
    act,
    card,
    current,
    dull,
    encoded,
    finish,
    insert,
    public_events,
    simple,
    stacked,
)

from packplay.cards.catalog import load_catalog
from packplay.games.base import GameConfig, events_for
from packplay.games.wedding_planner.state import WeddingState
from packplay.rng import Rng
from packplay_protocol.games.wedding_planner import (
    Discard,
    Discarded,
    Draw,
    Drew,
    Revealed,
    Take,
    Took,
    View,
)


def game() -> WeddingState:
    themes = [card("R", mv=3), card("U", mv=2), card("G", mv=1)]
    hands = [dull(4), dull(4), dull(4)]
    return stacked(hands, dull(1)[0], dull(20), themes, first_seat=0, inserts=[insert()])


def test_seat_sees_own_hand_sorted_and_own_theme_only() -> None:
    """C-6, WP-5: a seat sees its hand (sorted by id) and its theme; others' only as counts."""
    state = game()
    view = ENGINE.view(state, 1)
    assert view.viewer == 1
    mine = view.seats[1]
    assert list(mine.cards) == sorted(state.hands[1])
    assert mine.theme == state.themes[1]
    for other in (view.seats[0], view.seats[2]):
        assert other.cards == ()
        assert other.theme is None
        assert (other.hand_count, other.has_theme) == (4, True)
    text = encoded(view)
    for seat in (0, 2):
        for hidden in [*state.hands[seat], state.themes[seat], *state.draw]:
            assert hidden is not None and hidden not in text


def test_spectator_sees_only_public_things() -> None:
    state = game()
    view = ENGINE.view(state, None)
    assert view.viewer is None
    assert all(s.cards == () and s.theme is None for s in view.seats)
    assert list(view.discard) == state.discard
    assert list(view.set_aside) == state.set_aside
    assert view.draw_count == len(state.draw)
    assert view.draw_pile == ()
    assert (view.phase, view.current_seat, view.turns_done) == ("pickup", 0, 0)
    assert ENGINE.hidden_from(state, None) == frozenset(
        [*state.draw, *[c for h in state.hands for c in h], *[t for t in state.themes if t]]
    )


def test_c6_draw_is_private_to_the_drawer() -> None:
    """C-6: the drawn card goes to the drawer only; everyone else learns a card was drawn."""
    state = game()
    top = state.draw[0]
    events = act(state, 0, Draw()).events
    (public,) = public_events(events)
    assert public == Drew(seat=0, draw_count=len(state.draw) - 1)
    (private,) = [e for e in events if e.to is not None]
    assert private.to == frozenset({0})
    assert private.event == Drew(seat=0, draw_count=len(state.draw) - 1, card=top)
    for audience in (None, 1, 2):
        assert top not in encoded(events_for(events, audience))


def test_wp3_taken_cards_stay_public_in_the_hand() -> None:
    """WP-3: cards taken from the public pile stay known in the taker's hand until discarded."""
    state = game()
    top = state.discard[-1]
    transition = act(state, 0, Take(card=top))
    assert public_events(transition.events) == [Took(seat=0, cards=(top,))]
    after = transition.state
    for audience in (None, 1, 2):
        assert ENGINE.view(after, audience).seats[0].cards == (top,)
        assert top not in ENGINE.hidden_from(after, audience)
    after = act(after, 0, Discard(card=top)).state
    assert after.revealed == []
    assert ENGINE.view(after, 1).seats[0].cards == ()


def test_wp3_discard_pile_is_public_and_ordered() -> None:
    """WP-3: every audience sees the discard pile bottom to top."""
    state = game()
    for _ in range(3):
        seat = current(state)
        state = act(state, seat, Draw()).state
        state = act(state, seat, Discard(card=sorted(state.hands[seat])[0])).state
    for audience in (None, 0, 1, 2):
        assert list(ENGINE.view(state, audience).discard) == state.discard


def test_wp5_end_reveals_everything() -> None:
    """WP-5: once scored, every hand, theme and the draw pile are shown to everyone."""
    state = finish(simple(3))
    assert ENGINE.hidden_from(state, None) == frozenset()
    view = ENGINE.view(state, None)
    assert view.phase == "over" and view.current_seat is None
    assert list(view.draw_pile) == state.draw
    for seat, seat_view in enumerate(view.seats):
        assert list(seat_view.cards) == sorted(state.hands[seat])
        assert seat_view.theme == state.themes[seat]
        assert seat_view.score is not None and seat_view.score.total == -4
        assert seat_view.turns_taken == 4
    assert view.winners == (0, 1, 2)


def test_wp5_last_discard_emits_public_revelation() -> None:
    """WP-5: the last discard ends the game with a public reveal of themes, hands, scores."""
    themes = [card("R", mv=3), card("R", mv=3)]
    state = stacked([dull(4), dull(4)], dull(1)[0], [*dull(7), card("R", mv=1)], themes)
    while state.turns_done < 7:
        seat = current(state)
        drawn = state.draw[0]
        state = act(state, seat, Draw()).state
        state = act(state, seat, Discard(card=drawn)).state
    seat = current(state)
    state = act(state, seat, Draw()).state
    transition = act(state, seat, Discard(card=state.hands[seat][0]))
    events = transition.events
    revealed = [e.event for e in events if isinstance(e.event, Revealed)]
    assert len(revealed) == 1 and events[-1].to is None
    assert list(revealed[0].themes) == state.themes
    assert revealed[0].hands == tuple(tuple(sorted(hand)) for hand in transition.state.hands)
    assert revealed[0].winners == (seat,)


def test_view_round_trips_as_tagged_struct() -> None:
    state = game()
    view = ENGINE.view(state, 0)
    data = msgspec.json.encode(view)
    assert msgspec.json.decode(data)["type"] == "wedding_planner.view"
    assert msgspec.json.decode(data, type=View) == view


def test_turns_taken_and_current_seat_in_view() -> None:
    state = simple(3, first_seat=1)
    state = finish_turns(state, 2)
    view = ENGINE.view(state, 0)
    assert [s.turns_taken for s in view.seats] == [1, 1, 0]
    assert view.current_seat == 2


def finish_turns(state: WeddingState, turns: int) -> WeddingState:
    for _ in range(turns):
        seat = current(state)
        drawn = state.draw[0]
        state = act(state, seat, Draw()).state
        state = act(state, seat, Discard(card=drawn)).state
    return state


def test_zones_partition_every_card() -> None:
    state = game()
    zones = ENGINE.zones(state)
    ids = [c for zone in zones.values() for c in zone]
    assert sorted(ids) == sorted(state.cards)
    assert zones["theme:1"] == [state.themes[1]]
    assert zones["set_aside"] == state.set_aside


@pytest.mark.parametrize("players", [2, 4, 6])
def test_c6_no_hidden_card_in_views_or_events(players: int) -> None:
    """C-6: over random games, no view or visible event holds a card hidden from its audience.

    Each view names exactly the cards of its audience's card table, and every card an
    event names is in that table right after the event: the client can resolve every id.
    """
    catalog = load_catalog()
    state = ENGINE.setup(GameConfig(game="wedding_planner", players=players), 99 + players, catalog)
    rng = Rng(players)
    audiences: list[int | None] = [None, *range(players)]
    while ENGINE.result(state) is None:
        (seat,) = ENGINE.pending(state)
        legal = ENGINE.legal_actions(state, seat).actions
        transition = ENGINE.apply(state, seat, legal[rng.below(len(legal))])
        state = transition.state
        for audience in audiences:
            hidden = ENGINE.hidden_from(state, audience)
            view = ENGINE.view(state, audience)
            events = events_for(transition.events, audience)
            text = encoded([view, events])
            assert not [card_id for card_id in hidden if card_id in text]
            known = set(ENGINE.known_cards(state, audience))
            assert named_cards(state, view) == known
            assert named_cards(state, events) <= known
            if audience is not None:
                assert not hidden & {*state.hands[audience], state.themes[audience]}


def named_cards(state: WeddingState, payload: object) -> set[str]:
    """The card ids a wire payload names, in any field."""
    named: set[str] = set()
    pending = [msgspec.to_builtins(payload)]
    while pending:
        value = pending.pop()
        if isinstance(value, dict):
            pending.extend(value.values())
        elif isinstance(value, list | tuple):
            pending.extend(value)
        elif isinstance(value, str) and value in state.cards:
            named.add(value)
    return named


def played_a_little() -> WeddingState:
    """Seat 0 takes the discard top and keeps it (discarding a dealt card); seat 2 draws and discards."""
    state = game()
    top = state.discard[-1]
    kept = state.hands[0][0]
    state = act(state, 0, Take(card=top)).state
    state = act(state, 0, Discard(card=kept)).state
    drawn = state.draw[0]
    state = act(state, 2, Draw()).state
    return act(state, 2, Discard(card=drawn)).state


def test_known_cards_of_a_seat() -> None:
    """C-6, WP-3: a seat's card table holds its hand and theme, the cards others took
    face up, the discard pile and the set-aside cards; never the draw pile, others'
    themes or the cards others hold face down."""
    state = played_a_little()
    (taken,) = state.revealed
    assert taken in state.hands[0]
    assert len(state.discard) == 2 and state.set_aside
    for seat in range(3):
        others = [other for other in range(3) if other != seat]
        expected = {*state.hands[seat], state.themes[seat], taken, *state.discard, *state.set_aside}
        known = ENGINE.known_cards(state, seat)
        assert known == sorted(expected)
        assert not set(known) & set(state.draw)
        assert not set(known) & {state.themes[other] for other in others}
        face_down = {c for other in others for c in state.hands[other] if c != taken}
        assert not set(known) & face_down


def test_known_cards_of_a_spectator() -> None:
    """A spectator's card table holds only public cards: discard pile, set-aside, cards taken face up."""
    state = played_a_little()
    assert ENGINE.known_cards(state, None) == sorted({*state.discard, *state.set_aside, *state.revealed})
    assert ENGINE.known_cards(state, 7) == ENGINE.known_cards(state, None)


def test_known_cards_after_the_end_are_every_card() -> None:
    """WP-5: once scored, every audience may know every card, draw pile and themes included."""
    state = finish(simple(3))
    for audience in (None, 0, 1, 2):
        assert ENGINE.known_cards(state, audience) == sorted(state.cards)
        assert named_cards(state, ENGINE.view(state, audience)) == set(state.cards)


def test_events_name_cards_by_id_only() -> None:
    """Events carry ids, never card facts: the facts travel in the audience's card table."""
    state = game()
    top = state.discard[-1]
    drawn = state.draw[0]
    took = act(state, 0, Take(card=top))
    assert public_events(took.events) == [Took(seat=0, cards=(top,))]
    discarded = act(took.state, 0, Discard(card=top))
    assert public_events(discarded.events) == [Discarded(seat=0, card=top, next_seat=2)]
    drew = act(discarded.state, 2, Draw())
    assert events_for(drew.events, 2) == [Drew(seat=2, draw_count=len(state.draw) - 1, card=drawn)]
    assert drawn in ENGINE.known_cards(drew.state, 2)
    for audience in (None, 0, 1):
        assert events_for(drew.events, audience) == [Drew(seat=2, draw_count=len(state.draw) - 1)]
        assert drawn not in ENGINE.known_cards(drew.state, audience)
    names = {state.cards[card_id].name for card_id in (top, drawn)}
    for transition in (took, discarded, drew):
        for audience in (None, 0, 1, 2):
            text = encoded(events_for(transition.events, audience))
            assert not [name for name in names if name in text]
