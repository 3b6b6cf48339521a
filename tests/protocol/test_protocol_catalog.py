"""Every game's wire types are in the catalog, tagged ``<game>.<name>`` on the ``type`` field."""

from __future__ import annotations

from collections import Counter

import msgspec
import pytest

from packplay_protocol import catalog, problems, route_table
from packplay_protocol.errors import ErrorCode
from packplay_protocol.from_client import CLIENT_MESSAGES
from packplay_protocol.games.common import GameFacts
from packplay_protocol.ids import GAME_NAMES
from packplay_protocol.to_client import SERVER_MESSAGES

GAMES = list(catalog.GAMES.values())


def test_every_known_game_is_in_the_catalog() -> None:
    assert tuple(catalog.GAMES) == GAME_NAMES


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_game_types_are_tagged_with_the_game_name(game: catalog.GameTypes) -> None:
    assert catalog.tag_of(game.view) == f"{game.name}.view"
    for struct in (*game.actions, *game.events):
        tag = catalog.tag_of(struct)
        assert tag is not None and tag.startswith(f"{game.name}."), struct
    for struct in (*game.actions, game.view, *game.events):
        assert struct.__struct_config__.tag_field == "type"
        assert struct.__struct_config__.frozen


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_each_game_has_actions_and_events(game: catalog.GameTypes) -> None:
    assert game.actions and game.events


def test_tags_are_unique_across_messages_and_games() -> None:
    structs = [
        *CLIENT_MESSAGES,
        *SERVER_MESSAGES,
        *catalog.ACTION_TYPES,
        *catalog.VIEW_TYPES,
        *catalog.EVENT_TYPES,
    ]
    counts = Counter(catalog.tag_of(s) for s in structs)
    assert [tag for tag, n in counts.items() if n > 1] == []


def test_a_module_without_an_event_union_contributes_its_tagged_events() -> None:
    import types

    module = types.ModuleType("packplay_protocol.games.toy")

    class Poke(msgspec.Struct, frozen=True, tag="toy.poke", tag_field="type"):
        pass

    class View(msgspec.Struct, frozen=True, tag="toy.view", tag_field="type"):
        pass

    class Poked(msgspec.Struct, frozen=True, tag="toy.poked", tag_field="type"):
        pass

    class Options(msgspec.Struct, frozen=True):
        pass

    for cls in (Poke, View, Poked, Options):
        cls.__module__ = module.__name__
        setattr(module, cls.__name__, cls)
    module.Action = Poke  # type: ignore[attr-defined]
    module.FACTS = GameFacts("Toy", 1, 2, (), simultaneous=False)  # type: ignore[attr-defined]
    toy = catalog.game_types(module)
    assert (toy.name, toy.actions, toy.view, toy.events) == ("toy", (Poke,), View, (Poked,))
    assert toy.options is Options and toy.facts.title == "Toy"


def test_routes_are_unique_and_under_the_version_prefix() -> None:
    keys = [(r.method, r.path) for r in route_table.ROUTES]
    assert len(set(keys)) == len(keys)
    assert len({r.operation_id for r in route_table.ROUTES}) == len(route_table.ROUTES)
    assert all(r.path.startswith("/v2/") for r in route_table.ROUTES)


@pytest.mark.parametrize("code", list(ErrorCode), ids=lambda c: c.value)
def test_every_error_code_has_a_problem_document(code: ErrorCode) -> None:
    problem = problems.problem(code, detail="d")
    assert problem.code is code
    assert 400 <= problem.status <= 599
    assert problem.type.endswith(code.value)
