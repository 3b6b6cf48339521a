"""deploy/configuration.md: generated from the settings' code, up to date, and complete.

Every field of Settings has a docstring and a row on the page under the variable the
server reads it from, with its flag when `packplay serve` has one; every variable the page
names is one that something reads.
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import importlib.util
import re
import sys
from types import ModuleType

import pytest
from deploy_files import ROOT

from packplay.cli import build_parser
from packplay.server.main import CLI_FIELDS
from packplay.server.settings import ENV_ALIASES, ENV_PREFIX, SETTINGS_ENV, Settings

GENERATOR = ROOT / "server" / "tools" / "configuration.py"
PAGE = ROOT / "deploy" / "configuration.md"
OUTSIDE = {"PACKPLAY_CARD_DIR", "PACKPLAY_COMPILE"}
"""Variables read by something other than Settings: the card catalog, the build (setup.py)."""


@pytest.fixture(scope="module")
def generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("configuration_page", GENERATOR)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks its module up there
    spec.loader.exec_module(module)
    return module


def rows() -> dict[str, str]:
    """Each setting's row on the page, by the first variable of its first cell."""
    found: dict[str, str] = {}
    for line in PAGE.read_text().splitlines():
        match = re.match(r"\| `([A-Z_]+)`", line)
        if match:
            found[match[1]] = line
    return found


def serve_flags() -> set[str]:
    commands = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return {option for action in commands.choices["serve"]._actions for option in action.option_strings}


def test_the_page_is_up_to_date(generator: ModuleType) -> None:
    diff = generator.stale()
    assert diff == [], "".join(diff) + "\nrun: python server/tools/configuration.py"


def test_every_setting_has_a_docstring() -> None:
    source = (ROOT / "server" / "packplay" / "server" / "settings.py").read_text()
    (settings,) = (n for n in ast.parse(source).body if isinstance(n, ast.ClassDef) and n.name == "Settings")
    documented = {
        field.target.id
        for field, following in zip(settings.body, settings.body[1:], strict=False)
        if isinstance(field, ast.AnnAssign) and isinstance(field.target, ast.Name)
        if isinstance(following, ast.Expr) and isinstance(following.value, ast.Constant)
        if isinstance(following.value.value, str) and following.value.value.strip()
    }
    assert [f.name for f in dataclasses.fields(Settings) if f.name not in documented] == []


def other_than_default(field: dataclasses.Field[object]) -> str:
    """A value of the field's variable that is valid and not its default."""
    default = field.default
    if isinstance(default, bool):
        return "0" if default else "1"
    if isinstance(default, int | float):
        return str(default + 1)
    return "json" if field.name == "log_format" else "other.example"


def test_every_setting_has_a_row_under_the_variable_the_server_reads() -> None:
    found = rows()
    for field in dataclasses.fields(Settings):
        variable = ENV_PREFIX + field.name.upper()
        assert variable in found, f"{variable} is missing from {PAGE.name}"
        read = Settings.from_env({variable: other_than_default(field)})
        assert getattr(read, field.name) != field.default, variable
        if field.name in ENV_ALIASES:
            assert f"`{ENV_ALIASES[field.name]}`" in found[variable].split(" | ")[0]


def test_every_command_line_flag_is_in_its_settings_row_and_taken_by_serve() -> None:
    found, flags = rows(), serve_flags()
    for name in CLI_FIELDS:
        flag = f"--{name.replace('_', '-')}"
        assert flag in flags, flag
        assert f"`{flag}`" in found[ENV_PREFIX + name.upper()].split(" | ")[0], name


def test_every_variable_on_the_page_is_read_by_someone() -> None:
    fields = {ENV_PREFIX + f.name.upper() for f in dataclasses.fields(Settings)}
    named = set(re.findall(r"`(PACKPLAY_[A-Z_]+)\b", PAGE.read_text()))
    assert named - {SETTINGS_ENV, "PACKPLAY_NAME"} <= fields | OUTSIDE  # PACKPLAY_NAME: the pattern
    assert set(rows()) <= fields
