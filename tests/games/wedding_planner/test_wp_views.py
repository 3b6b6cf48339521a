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
from packplay_protocol.games.wedding_planner import Discard, Draw, Drew, Revealed, Take, Took, View


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
    assert [c.id for c in mine.cards] == sorted(state.hands[1])
    assert mine.theme is not None and mine.theme.id == state.themes[1]
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
    assert [c.id for c in view.discard] == state.discard
    assert [c.id for c in view.set_aside] == state.set_aside
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
    assert isinstance(private.event, Drew) and private.event.card is not None
    assert private.event.card.id == top
    for audience in (None, 1, 2):
        assert top not in encoded(events_for(events, audience))


def test_wp3_taken_cards_stay_public_in_the_hand() -> None:
    """WP-3: cards taken from the public pile stay known in the taker's hand until discarded."""
    state = game()
    top = state.discard[-1]
    transition = act(state, 0, Take(card=top))
    assert public_events(transition.events) == [Took(seat=0, cards=(state.cards[top],))]
    after = transition.state
    for audience in (None, 1, 2):
        assert [c.id for c in ENGINE.view(after, audience).seats[0].cards] == [top]
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
        assert [c.id for c in ENGINE.view(state, audience).discard] == state.discard


def test_wp5_end_reveals_everything() -> None:
    """WP-5: once scored, every hand, theme and the draw pile are shown to everyone."""
    state = finish(simple(3))
    assert ENGINE.hidden_from(state, None) == frozenset()
    view = ENGINE.view(state, None)
    assert view.phase == "over" and view.current_seat is None
    assert [c.id for c in view.draw_pile] == state.draw
    for seat, seat_view in enumerate(view.seats):
        assert [c.id for c in seat_view.cards] == sorted(state.hands[seat])
        assert seat_view.theme is not None and seat_view.theme.id == state.themes[seat]
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
    events = act(state, seat, Discard(card=state.hands[seat][0])).events
    revealed = [e.event for e in events if isinstance(e.event, Revealed)]
    assert len(revealed) == 1 and events[-1].to is None
    assert [t.id for t in revealed[0].themes if t] == state.themes
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
    """C-6: over random games, no view or visible event holds a card hidden from its audience."""
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
            text = encoded([ENGINE.view(state, audience), events_for(transition.events, audience)])
            assert not [card_id for card_id in hidden if card_id in text]
            if audience is not None:
                assert not hidden & {*state.hands[audience], state.themes[audience]}
