"""The rules reference: one Markdown page per game and one common page, per language.

The pages ship as package data, ``rules/<language>/<page>.md`` beside this module
(a directory without ``__init__.py``: this module is what ``packplay_protocol.rules``
imports). Each ruling and each refusal code has a heading of its own, ``### <ID>``,
holding the id alone, so its anchor is the id in lower case in every language and
every Markdown renderer: ``day_night.md#dn-3``, ``common.md#turn``.
"""

from __future__ import annotations

import re
from functools import cache
from importlib.resources import files
from importlib.resources.abc import Traversable

from packplay_protocol.ids import GAME_NAMES

COMMON = "common"
"""The page of the rules shared by every game (C-1..C-6) and of the refusal codes."""

PAGES: tuple[str, ...] = (COMMON, *GAME_NAMES)
"""Every page of the reference: the common page, then one per game."""

_HEADING = re.compile(r" {0,3}###[ \t]+([^\s#]+)")
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")


def _folder() -> Traversable:
    return files("packplay_protocol").joinpath("rules")


@cache
def languages() -> tuple[str, ...]:
    """The languages the reference is written in, as sorted codes (``en``, ``es``, ``fr``)."""
    return tuple(sorted(entry.name for entry in _folder().iterdir() if entry.is_dir()))


def text(page: str, language: str) -> str:
    """The Markdown of ``page`` (a game name, or ``common``) in ``language``.

    Raises:
        LookupError: there is no such page or language.
    """
    if page not in PAGES:
        raise LookupError(f"no rules page {page!r}; pages: {', '.join(PAGES)}")
    if language not in languages():
        raise LookupError(f"no rules in language {language!r}; languages: {', '.join(languages())}")
    return _folder().joinpath(language, f"{page}.md").read_text(encoding="utf-8")


def ids(markdown: str) -> tuple[str, ...]:
    """The ids of ``markdown``'s third-level headings (``### <ID> ...``), in order.

    An id is the heading's first word; headings inside fenced code blocks do not count.
    """
    found: list[str] = []
    fence: str | None = None
    for line in markdown.splitlines():
        opening = _FENCE.match(line)
        if fence is not None:
            if (
                opening is not None
                and opening.group(1)[0] == fence[0]
                and len(opening.group(1)) >= len(fence)
            ):
                fence = None
            continue
        if opening is not None:
            fence = opening.group(1)
            continue
        heading = _HEADING.match(line)
        if heading is not None:
            found.append(heading.group(1))
    return tuple(found)
