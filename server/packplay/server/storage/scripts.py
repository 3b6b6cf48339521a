"""The Lua scripts storage runs: one file each under ``lua/``, read from the package's data.

Each file opens with a header naming its KEYS, its ARGV and what it returns. A line
``--- @include "name"`` stands for the helpers of ``lua/includes/name.lua``, pasted in its
place. The whole is sent to Redis the first time a server lacks it and called by its
digest from then on (:class:`~packplay.server.storage.pipeline.Script`).
"""

from __future__ import annotations

import re
from functools import cache
from importlib.resources import files

from packplay.server.storage.pipeline import Script

_FOLDER = files("packplay.server.storage") / "lua"
_INCLUDE = re.compile(r'^--- @include "(\w+)"$', re.MULTILINE)


def load(name: str) -> Script:
    """The script of ``lua/<name>.lua`` (``games/commit``, say), its includes pasted in."""
    return Script(source(name))


def source(name: str) -> str:
    text = (_FOLDER / f"{name}.lua").read_text(encoding="utf-8")
    return _INCLUDE.sub(lambda found: _include(found.group(1)), text)


@cache
def _include(name: str) -> str:
    return (_FOLDER / "includes" / f"{name}.lua").read_text(encoding="utf-8").rstrip("\n")
