"""The README's configuration table names every server setting, with its real default."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from deploy_files import ROOT

from packplay.server.main import CLI_FIELDS
from packplay.server.settings import ENV_PREFIX, Settings

INTERNAL = {"PACKPLAY_SETTINGS_JSON"}


def configuration_rows() -> dict[str, tuple[str, str]]:
    """Each variable of the table: the first cell and the default cell of its row."""
    readme = (ROOT / "README.md").read_text()
    section = readme.split("\n## Configuration\n", 1)[1].split("\n## ", 1)[0]
    rows: dict[str, tuple[str, str]] = {}
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 3 and line.startswith("| `"):
            for name in re.findall(r"`([A-Z_]+)`", cells[0]):
                rows[name] = (cells[0], cells[1])
    return rows


def shown(value: Any) -> str:
    """How the table writes a default."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, float):
        return f"`{value:g}`"
    if isinstance(value, tuple):
        return "none" if value == () else ",".join(value)
    if value is None:
        return "unset"
    return f"`{value}`"


def test_every_setting_has_a_row_with_its_default() -> None:
    rows = configuration_rows()
    for field in dataclasses.fields(Settings):
        variable = ENV_PREFIX + field.name.upper()
        assert variable in rows, f"{variable} is missing from the README's configuration table"
        # An empty allow-list of WebSocket origins admits every origin.
        expected = "any" if field.name == "ws_origins" else shown(field.default)
        assert rows[variable][1].startswith(expected), (variable, rows[variable][1], expected)


def test_every_variable_in_the_table_is_read_by_someone() -> None:
    fields = {ENV_PREFIX + f.name.upper() for f in dataclasses.fields(Settings)}
    outside = {"REDIS_URL", "PACKPLAY_CARD_DIR", "FORWARDED_ALLOW_IPS"}
    assert set(configuration_rows()) <= fields | outside
    assert not INTERNAL & set(configuration_rows())


def test_every_command_line_flag_is_in_its_settings_row() -> None:
    rows = configuration_rows()
    for name in CLI_FIELDS:
        first_cell = rows[ENV_PREFIX + name.upper()][0]
        assert f"--{name.replace('_', '-')}" in first_cell, name
