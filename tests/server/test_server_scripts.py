"""The Lua scripts as files: each says what it takes and returns, and its includes resolve."""

from __future__ import annotations

import re
from importlib.resources import files

import pytest

from packplay.server.storage import keys, scripts

FOLDER = files("packplay.server.storage") / "lua"
SCRIPTS = sorted(
    f"{group}/{entry.name.removesuffix('.lua')}"
    for group in ("games", "tournaments")
    for entry in (FOLDER / group).iterdir()
    if entry.name.endswith(".lua")
)


def test_there_is_a_script_for_every_change_of_a_game_and_of_a_tournament() -> None:
    assert len([name for name in SCRIPTS if name.startswith("games/")]) == 15
    assert len([name for name in SCRIPTS if name.startswith("tournaments/")]) == 10


@pytest.mark.parametrize("name", SCRIPTS)
def test_a_script_opens_with_its_keys_arguments_and_reply(name: str) -> None:
    text = (FOLDER / f"{name}.lua").read_text(encoding="utf-8")
    header = text.split("]]", 1)[0]
    assert text.startswith("--[[") and "KEYS" in header and "Returns" in header, name
    uses_argv = "ARGV[" in text.split("]]", 1)[1]
    assert ("ARGV" in header) == uses_argv or "includes" in header, name


@pytest.mark.parametrize("name", SCRIPTS)
def test_every_include_of_a_script_is_pasted_in(name: str) -> None:
    source = scripts.source(name)
    assert "@include" not in source
    called = set(re.findall(r"\b(\w+)\(", source)) - {"function", "tonumber", "tostring", "unpack"}
    defined = set(re.findall(r"local function (\w+)\(", source))
    lua = {"call", "find", "gmatch", "match", "concat", "floor", "ceil", "max"}
    assert called <= defined | lua, f"{name} calls what it does not define: {called - defined - lua}"


def test_the_lifetimes_cover_every_key_of_a_game_and_of_a_tournament() -> None:
    games = (FOLDER / "includes" / "lifetimes.lua").read_text(encoding="utf-8")
    tournaments = (FOLDER / "includes" / "tournament_expiry.lua").read_text(encoding="utf-8")
    assert f"for i = 1, {len(keys.game_keys('g'))} do" in games
    assert f"for i = 1, {len(keys.tournament_keys('t'))} do" in tournaments
