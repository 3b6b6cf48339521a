"""Write deploy/configuration.md, the reference of the server's settings, from the code.

Each setting is a field of the Settings dataclass in server/packplay/server/settings.py.
Its type and default come from the dataclass, its description from the docstring under
the field in the source (a dataclass keeps no attribute docstrings at run time, so the
source is read with ast), and the comment lines between fields head the page's groups.
The variable names are the ones Settings.from_env reads, the flags those of packplay
serve, and the container image's values those deploy/Dockerfile sets.

    python server/tools/configuration.py           write the page
    python server/tools/configuration.py --check   change nothing; exit 1 if the page is stale

This script is not part of the installed package: it needs the repository around it.
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import difflib
import inspect
import itertools
import re
import sys
import textwrap
import types
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from packplay.cards.catalog import CARD_DIR_ENV
from packplay.server import settings as settings_module
from packplay.server.main import CLI_FIELDS
from packplay.server.settings import ENV_ALIASES, ENV_PREFIX, SETTINGS_ENV, Settings

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "server" / "packplay" / "server" / "settings.py"
PAGE = ROOT / "deploy" / "configuration.md"
DOCKERFILE = ROOT / "deploy" / "Dockerfile"
COMMAND = "python server/tools/configuration.py"
SCALARS = {bool: "boolean", int: "integer", float: "number", str: "string"}
DAY = 24 * 3600
WIDTH = 96
FIELD_NAMES = frozenset(f.name for f in dataclasses.fields(Settings))


class PageError(Exception):
    """Something in the settings the page cannot describe: the message says what."""


@dataclasses.dataclass(frozen=True)
class Setting:
    """One row of the page."""

    name: str
    group: str
    kind: str
    default: str
    description: str

    @property
    def variable(self) -> str:
        return env_name(self.name)

    @property
    def names(self) -> str:
        """The row's first cell: the variable, its other name, its flag."""
        cell = f"`{self.variable}`"
        if self.name in ENV_ALIASES:
            cell += f" or `{ENV_ALIASES[self.name]}`"
        if self.name in CLI_FIELDS:
            cell += f", `{flag(self.name)}`"
        return cell


def env_name(field: str) -> str:
    """The environment variable Settings.from_env reads the field from."""
    return ENV_PREFIX + field.upper()


def flag(field: str) -> str:
    """The option of packplay serve that sets the field."""
    return "--" + field.replace("_", "-")


def class_body(source: str) -> list[ast.stmt]:
    for node in ast.parse(source).body:
        if isinstance(node, ast.ClassDef) and node.name == Settings.__name__:
            return node.body
    raise PageError(f"no class {Settings.__name__} in {SOURCE}")


def annotated_fields(body: list[ast.stmt]) -> Iterator[tuple[str, int, ast.stmt | None]]:
    """Each field of the class: its name, its first line, the statement after it."""
    for index, node in enumerate(body):
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            following = body[index + 1] if index + 1 < len(body) else None
            yield node.target.id, node.lineno, following


def string_literal(node: ast.stmt | None) -> str | None:
    if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
        value = node.value.value
        return value if isinstance(value, str) else None
    return None


def docstrings(source: str) -> dict[str, str]:
    """Each field's attribute docstring: the string literal right after it."""
    found: dict[str, str] = {}
    for name, _, following in annotated_fields(class_body(source)):
        text = string_literal(following)
        if text is not None and text.strip():
            found[name] = inspect.cleandoc(text)
    return found


def groups(source: str) -> dict[str, str]:
    """Each field's group: the last comment line right above it, else the group of the field
    before it ("" before the first comment)."""
    lines = source.splitlines()
    found: dict[str, str] = {}
    group = ""
    for name, first_line, _ in annotated_fields(class_body(source)):
        above = (line.strip() for line in reversed(lines[: first_line - 1]))
        comments = list(itertools.takewhile(lambda line: line.startswith("#"), above))
        if comments:
            group = comments[0].lstrip("#").strip()
        found[name] = group
    return found


def kind_of(name: str, hint: Any) -> str:
    """The type as the environment writes it, with the range Settings checks."""
    kind = type_name(hint)
    if name in settings_module._POSITIVE:
        return kind + ", above 0"
    if name in settings_module._NOT_NEGATIVE:
        return kind + ", 0 or more"
    return kind


def type_name(hint: Any) -> str:
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType) and type(None) in args:
        (inner,) = (arg for arg in args if arg is not type(None))
        return type_name(inner)
    if origin is typing.Literal:
        return " or ".join(f"`{arg}`" for arg in args)
    if origin is tuple and args[1:] == (Ellipsis,) and args[0] is str:
        return "list"
    if hint in SCALARS:
        return SCALARS[hint]
    raise PageError(f"no words for the type {hint!r}: teach type_name()")


def shown(name: str, value: Any) -> str:
    """A default as the environment would write it."""
    if value is None:
        return "unset"
    if isinstance(value, bool):
        return "`true`" if value else "`false`"
    if isinstance(value, tuple):
        return f"`{','.join(value)}`" if value else "empty"
    if isinstance(value, float):
        return f"`{value:g}`"
    if isinstance(value, int) and name.endswith("_ttl"):
        return f"`{value}` ({days_or_minutes(value)})"
    return f"`{value}`"


def days_or_minutes(seconds: int) -> str:
    if seconds % DAY == 0:
        days = seconds // DAY
        return f"{days} day" if days == 1 else f"{days} days"
    return f"{seconds / 60:g} min"


def markdown(docstring: str) -> str:
    """A docstring as one line of a table cell: ``x`` becomes `x` (a setting's name, its
    variable), no other markup allowed."""
    if re.search(r":[a-z]+:`", docstring):
        raise PageError(f"a Sphinx role in a setting's docstring: {docstring!r}")
    text = re.sub(r"``(.+?)``", code_span, " ".join(docstring.split()))
    return text.replace("|", "\\|")


def code_span(match: re.Match[str]) -> str:
    text = match[1]
    return f"`{env_name(text)}`" if text in FIELD_NAMES else f"`{text}`"


def read_settings() -> list[Setting]:
    source = SOURCE.read_text(encoding="utf-8")
    described, grouped = docstrings(source), groups(source)
    hints = typing.get_type_hints(Settings)
    missing = [f.name for f in dataclasses.fields(Settings) if f.name not in described]
    if missing:
        raise PageError(f"settings without a docstring in {SOURCE.name}: {', '.join(missing)}")
    return [
        Setting(
            name=f.name,
            group=grouped[f.name],
            kind=kind_of(f.name, hints[f.name]),
            default=shown(f.name, f.default),
            description=markdown(described[f.name]),
        )
        for f in dataclasses.fields(Settings)
    ]


def image_values(settings: list[Setting]) -> list[str]:
    """The settings the container image sets, as its Dockerfile writes them."""
    variables = {setting.variable for setting in settings}
    found = re.findall(r"\b(PACKPLAY_[A-Z0-9_]+=\S+)", DOCKERFILE.read_text(encoding="utf-8"))
    return [f"`{pair}`" for pair in found if pair.split("=", 1)[0] in variables]


def series(items: list[str]) -> str:
    """a, b and c."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def wrapped(text: str, bullet: str = "") -> list[str]:
    """A paragraph (or a list item, after its bullet) in lines of at most WIDTH characters."""
    indent = " " * len(bullet)
    return textwrap.wrap(
        text,
        WIDTH,
        initial_indent=bullet,
        subsequent_indent=indent,
        break_long_words=False,
        break_on_hyphens=False,
    )


def intro(settings: list[Setting]) -> list[str]:
    flags = series([f"`{flag(name)}`" for name in CLI_FIELDS])
    aliases = series([f"`{alias}` for `{env_name(name)}`" for name, alias in ENV_ALIASES.items()])
    items = [
        "Booleans are on for `1`, `true`, `yes` or `on` (any case, spaces around ignored) and off "
        "for anything else, an empty value included.",
        "Lists are comma-separated; spaces around items and empty items are dropped, so an empty "
        "value is an empty list.",
        "Integers are whole numbers; numbers may have a fraction (`0.5`). Durations are in seconds.",
        "Values are checked before anything starts: one that does not parse, or is out of the range "
        "its type gives, stops `packplay serve` with one line naming the variable, and exit status 2.",
        f"`{SETTINGS_ENV}` carries a parent's settings whole to the worker processes of `--workers`: "
        "it is internal, do not set it.",
    ]
    return [
        "# Configuration",
        "",
        *wrapped(
            f"Generated from `server/packplay/server/settings.py` by `{COMMAND}`: to change this "
            "page, edit the settings' docstrings there and run it again. CI runs it with `--check`."
        ),
        "",
        *wrapped(
            "Every setting of a server process is read from an environment variable: the setting "
            f"`name` from `{ENV_PREFIX}NAME`. Some are also read from a second name when the first "
            f"is unset: {aliases}. `packplay serve` also takes {flags} on its command line; a flag "
            "given wins over its variable. A variable left unset keeps the default."
        ),
        "",
        *(line for item in items for line in wrapped(item, "- ")),
        "",
        *wrapped(
            f"The container image (`deploy/Dockerfile`) sets {series(image_values(settings))}. On "
            "Kubernetes the settings come from `deploy/k8s/base/settings.env` and `REDIS_URL` from "
            "the Secret `packplay-redis`."
        ),
    ]


def tables(settings: list[Setting]) -> list[str]:
    lines: list[str] = []
    for group in dict.fromkeys(setting.group for setting in settings):
        lines += ["", f"## {group or 'Settings'}", ""]
        lines += ["| variable | type | default | description |", "|---|---|---|---|"]
        for setting in settings:
            if setting.group == group:
                cells = (setting.names, setting.kind, setting.default, setting.description)
                lines.append("| " + " | ".join(cells) + " |")
    return lines


def others() -> list[str]:
    items = [
        f"`{CARD_DIR_ENV}`: extra directories of set files, separated by `:`, read after the packaged "
        "sets. `packplay cards import` writes to the first one, or without it to "
        "`$XDG_DATA_HOME/packplay/cards` (`~/.local/share/packplay/cards`), which the server reads "
        "only when it is named here.",
        "`PACKPLAY_COMPILE`: read when the package is installed, not by the server: `1` builds the "
        "compiled build (see `setup.py` and the section on it in `server/README.md`).",
    ]
    return ["", "## Other variables", "", *(line for item in items for line in wrapped(item, "- "))]


def render() -> str:
    settings = read_settings()
    return "\n".join([*intro(settings), *tables(settings), *others()]) + "\n"


def stale(page: Path = PAGE) -> list[str]:
    """How the page differs from what the code gives (a unified diff); empty when up to date."""
    current = page.read_text(encoding="utf-8") if page.exists() else ""
    expected = render()
    name = str(page.relative_to(ROOT))
    diff = difflib.unified_diff(
        current.splitlines(keepends=True), expected.splitlines(keepends=True), name, f"{name} (expected)"
    )
    return list(diff)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Write deploy/configuration.md from the settings.")
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if the page is stale")
    options = parser.parse_args(argv)
    try:
        return check() if options.check else write()
    except PageError as error:
        print(f"{COMMAND}: {error}", file=sys.stderr)
        return 1


def check() -> int:
    diff = stale()
    if diff:
        sys.stdout.writelines(diff)
        print(f"{PAGE.relative_to(ROOT)} is stale: run {COMMAND}", file=sys.stderr)
        return 1
    print(f"{PAGE.relative_to(ROOT)} is up to date")
    return 0


def write() -> int:
    text = render()
    if PAGE.exists() and PAGE.read_text(encoding="utf-8") == text:
        print(f"{PAGE.relative_to(ROOT)} unchanged")
    else:
        PAGE.write_text(text, encoding="utf-8")
        print(f"wrote {PAGE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
