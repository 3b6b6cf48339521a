"""The game-types answer and the per-game create-game bodies, from the protocol alone."""

from __future__ import annotations

import re
from pathlib import Path

import msgspec
import pytest

from packplay_protocol import catalog, rest
from packplay_protocol.openapi import openapi_document

README = Path(__file__).resolve().parents[2] / "protocol" / "README.md"


def test_every_game_has_a_create_body_bounded_by_its_player_range() -> None:
    assert list(rest.CREATE_GAME_TYPES) == list(catalog.GAMES)
    for name, body in rest.CREATE_GAME_TYPES.items():
        facts = catalog.GAMES[name].facts
        rest.create_game(name, facts.min_players)
        rest.create_game(name, facts.max_players)
        for players in (facts.min_players - 1, facts.max_players + 1):
            with pytest.raises(msgspec.ValidationError, match=r"at `\$\.players`"):
                rest.create_game(name, players)
        assert body.__struct_fields__.count("options") == 1


def test_each_option_is_described_from_its_struct() -> None:
    for name, types in catalog.GAMES.items():
        listed = rest.game_type(name)
        defaults = msgspec.to_builtins(types.options(), builtin_types=None)
        assert [o.name for o in listed.options] == list(types.options.__struct_fields__)
        for option in listed.options:
            assert option.description and option.description[0].isupper(), option
            assert option.default == getattr(types.options(), option.name), option
            assert option.name not in defaults, "options at their default are left out of the setup"
            if option.values is not None:
                assert (None in option.values) == option.nullable, option


def test_the_protocol_guide_tables_every_option_with_its_default() -> None:
    rows = re.findall(r"^\| `(\w+)` \| `(\w+)` \| .* \| (.+) \|$", README.read_text(encoding="utf-8"), re.M)
    documented = {(game, option): default for game, option, default in rows}
    expected = {(name, o.name): o for name in catalog.GAMES for o in rest.game_type(name).options}
    assert set(documented) == set(expected)
    for key, option in expected.items():
        shown = "null" if option.default is None else str(option.default).lower()
        assert documented[key].startswith(shown), (key, documented[key])


def test_every_openapi_schema_title_is_unique_and_every_public_route_says_so() -> None:
    document = openapi_document()
    titles = [s.get("title") for s in document["components"]["schemas"].values()]
    assert len(titles) == len(set(titles))
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            assert "security" in operation, (method, path)
            assert {"500", "default"} <= set(operation["responses"]), (method, path)
            if "requestBody" in operation:
                assert "413" in operation["responses"], (method, path)
