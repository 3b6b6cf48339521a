"""Views described part by part: the layout's checks, its nesting, and every engine's layout
giving exactly its typed view."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import msgspec
import pytest

from packplay.cards.catalog import load_catalog
from packplay.games.base import GameConfig
from packplay.games.layout import EVERY_FIELD, Touched, ViewLayout, private, shared
from packplay.games.random_policy import random_action
from packplay.games.registry import get_game
from packplay.rng import Rng

CASES = [
    ("day_night", 2),
    ("mishra_factory", 2),
    ("mishra_factory", 4),
    ("wedding_planner", 2),
    ("wedding_planner", 6),
    ("base_race", 2),
]
CATALOG = load_catalog()


@dataclass
class Toy:
    round: int
    hands: list[str]


def test_parts_nest_into_objects_and_arrays_in_their_order() -> None:
    layout: ViewLayout[Toy] = ViewLayout(
        "toy.view",
        ("round", "hands"),
        [
            private("/seat", lambda state, audience: audience, ()),
            shared("/round", lambda state: state.round, ("round",)),
            shared("/seats/0/count", lambda state: 3, ()),
            private("/seats/0/hand", lambda state, audience: ["a"] if audience == 0 else None, ("hands",)),
            shared("/seats/1/count", lambda state: 4, ()),
            private("/seats/1/hand", lambda state, audience: ["b"] if audience == 1 else None, ("hands",)),
            shared("/score/day", lambda state: 1, ("round",)),
        ],
        ("hands",),
    )
    values = layout.values(Toy(2, []), 1)
    document = layout.document(values)
    assert document == {
        "type": "toy.view",
        "seat": 1,
        "round": 2,
        "seats": [{"count": 3, "hand": None}, {"count": 4, "hand": ["b"]}],
        "score": {"day": 1},
    }
    assert list(document) == ["type", "seat", "round", "seats", "score"]
    assert layout.shared == (1, 2, 4, 6) and layout.private == (0, 3, 5)
    touched = layout.touched(Toy(2, ["a"]), Toy(3, ["a"]))
    assert (touched.shared, touched.private, touched.cards) == ((1, 6), (), False), "what reads the round"
    touched = layout.touched(Toy(2, ["a"]), Toy(2, ["b"]))
    assert (touched.shared, touched.private, touched.cards) == ((), (3, 5), True), "what reads the hands"
    assert layout.touched(Toy(2, ["a"]), Toy(2, ["a"])) == Touched((), (), False)


def test_shared_values_are_taken_as_given() -> None:
    calls: list[int | None] = []

    def counted(state: Toy, audience: int | None) -> int:
        calls.append(audience)
        return state.round

    parts = [shared("/a", lambda state: state.round, ("round",)), private("/b", counted, ("round",))]
    layout: ViewLayout[Toy] = ViewLayout("toy.view", ("round", "hands"), parts, ())
    common = layout.shared_values(Toy(7, []))
    assert common == [7, None]
    assert layout.values(Toy(8, []), 0, common) == [7, 8], "the shared part comes from what was given"
    assert calls == [0]


@pytest.mark.parametrize(
    "paths",
    [["/a", "/a"], ["/a", "/a/b"], ["/seats/0", "/seats/0/hand"], ["a"], ["/"]],
)
def test_a_layout_refuses_parts_that_overlap_or_are_no_pointer(paths: list[str]) -> None:
    with pytest.raises(ValueError):
        ViewLayout("toy.view", ("round",), [shared(path, lambda state: 0, ()) for path in paths], ())


def test_a_layout_refuses_fields_the_state_does_not_have() -> None:
    with pytest.raises(ValueError, match="rounds"):
        ViewLayout("toy.view", ("round",), [shared("/a", lambda state: 0, ("rounds",))], ())
    with pytest.raises(ValueError, match="hand"):
        ViewLayout("toy.view", ("round",), [shared("/a", lambda state: 0, ("round",))], ("hand",))


def _states(game: str, players: int, seed: int) -> list[Any]:
    """Every state of one random game, from its start to its end."""
    engine = get_game(game)
    state = engine.setup(GameConfig(game=game, players=players), seed, CATALOG)
    rng, states = Rng(seed), [state]
    while pending := engine.pending(state):
        seat = pending[rng.below(len(pending))]
        action = random_action(engine.legal_actions(state, seat), engine.action_type, rng)
        state = engine.apply(state, seat, action).state
        states.append(state)
    return states


def _json(value: Any) -> Any:
    return msgspec.json.decode(msgspec.json.encode(value))


@pytest.mark.parametrize(("game", "players"), CASES)
def test_every_view_document_is_the_typed_view_exactly(game: str, players: int) -> None:
    """The document has every field of the game's view and nothing else: typed and back, it is
    unchanged (and the typed view is what ``view`` gives)."""
    engine = get_game(game)
    for seed in range(3):
        for state in _states(game, players, seed):
            for audience in [*range(players), None]:
                document = engine.view_document(state, audience)
                typed = msgspec.convert(document, engine.view_type)
                assert _json(typed) == _json(document)
                assert set(document) == {"type", *engine.view_type.__struct_encode_fields__}
                assert engine.view(state, audience) == typed


@pytest.mark.parametrize(("game", "players"), CASES)
def test_a_part_whose_fields_did_not_change_shows_the_same(game: str, players: int) -> None:
    """Each part names every field it reads: from one version to the next, a part none of
    whose fields changed shows every audience the same, and so does the card table."""
    engine = get_game(game)
    layout = engine.layout(players)
    for seed in range(12):
        states = _states(game, players, seed)
        for before, after in zip(states, states[1:], strict=False):
            touched = layout.touched(before, after)
            kept = set(range(len(layout.parts))) - set(touched.shared) - set(touched.private)
            for audience in [*range(players), None]:
                was, now = layout.values(before, audience), layout.values(after, audience)
                for index in kept:
                    assert _json(was[index]) == _json(now[index]), f"{layout.parts[index].path} reads more"
                if not touched.cards:
                    assert engine.hidden_from(before, audience) == engine.hidden_from(after, audience)


def _moves(game: str, players: int, seed: int) -> Iterator[tuple[Any, Any, tuple[Any, ...]]]:
    """Every move of one random game: the state before, the state after, the events."""
    engine = get_game(game)
    state = engine.setup(GameConfig(game=game, players=players), seed, CATALOG)
    rng = Rng(seed)
    while pending := engine.pending(state):
        seat = pending[rng.below(len(pending))]
        action = random_action(engine.legal_actions(state, seat), engine.action_type, rng)
        transition = engine.apply(state, seat, action)
        yield state, transition.state, transition.events
        state = transition.state


@pytest.mark.parametrize(("game", "players"), CASES)
def test_a_move_changes_only_what_its_events_say(game: str, players: int) -> None:
    """The move path shows again only the parts a move's events say it may change: every
    other part shows every audience the same after the move, and the card table is the same
    unless the events say it may change. Every move says something, and every kind of event
    names what it changes (none falls back to the whole view)."""
    engine = get_game(game)
    layout = engine.layout(players)
    fields = set(engine.state_type.__struct_fields__)
    for changes in engine.event_changes.values():
        assert set(changes.own) | set(changes.table) <= fields
    for seed in range(60):
        for before, after, events in _moves(game, players, seed):
            assert events, "a move with no event"
            said = engine.changed(events)
            assert said != EVERY_FIELD, [type(e.event).__name__ for e in events]
            touched = layout.touched_by(said)
            kept = set(range(len(layout.parts))) - set(touched.shared) - set(touched.private)
            for audience in [*range(players), None]:
                was, now = layout.values(before, audience), layout.values(after, audience)
                for index in kept:
                    assert _json(was[index]) == _json(now[index]), (
                        f"{layout.parts[index].path} changed by {[type(e.event).__name__ for e in events]}"
                    )
                if not touched.cards:
                    assert engine.hidden_from(before, audience) == engine.hidden_from(after, audience)


def test_a_seats_own_change_touches_that_seats_parts_and_the_parts_of_no_seat() -> None:
    layout = ViewLayout(
        "toy",
        ["n", "hands"],
        [
            shared("/n", lambda state: state.n, ("n",)),
            shared("/count", lambda state: len(state.hands), ("hands",)),
            *(
                shared(f"/seats/{seat}/hand", lambda state, s=seat: state.hands[s], ("hands",), seat)
                for seat in (0, 1)
            ),
        ],
        ("hands",),
    )
    assert layout.touched_by(frozenset({("hands", 1)})) == Touched((1, 3), (), True)
    assert layout.touched_by(frozenset({("hands", None)})) == Touched((1, 2, 3), (), True)
    assert layout.touched_by(frozenset({("n", None)})) == Touched((0,), (), False)
    assert layout.touched_by(EVERY_FIELD) == layout.everything
