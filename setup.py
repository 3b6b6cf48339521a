"""Packplay's build: pure Python by default; ``PACKPLAY_COMPILE=1`` compiles the move path.

The metadata lives in ``pyproject.toml``. With ``PACKPLAY_COMPILE=1`` the modules below,
the per-move computation (the rules' view of each audience, rendering, the view diff,
the game copy), are compiled to C extensions with mypyc, the compiler that ships with mypy;
everything else stays Python, and behaviour is the same either way (CI runs the games',
the diff's, the conformance and the server's play tests on a compiled build). It needs a
C compiler. Without the variable nothing is compiled and no compiler or mypy is needed.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

from setuptools import setup

ROOT = Path(__file__).parent
COMPILED_MODULES = (
    "protocol/packplay_protocol/diff.py",
    "server/packplay/table/rendering.py",
    "server/packplay/table/game_copy.py",
    "server/packplay/games/day_night/views.py",
    "server/packplay/games/mishra_factory/views.py",
    "server/packplay/games/wedding_planner/views.py",
    "server/packplay/games/base_race/views.py",
)
MYPY = "mypy==2.4.1"
"""The compiler's version: pinned, so that a compiled build is the same from one day to the next."""


def compiled() -> dict[str, object]:
    """The arguments of ``setup`` for a compiled build, or none for a pure one."""
    if os.environ.get("PACKPLAY_COMPILE", "").lower() not in ("1", "true", "yes", "on"):  # as settings read
        return {}
    # mypyc type-checks what the compiled modules import: it needs the project's dependencies.
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    needed = [MYPY, *project["dependencies"]]
    try:
        from mypyc.build import mypycify
    except ImportError:  # asked for the build's requirements: mypy is not installed yet
        return {"setup_requires": needed}
    return {"setup_requires": needed, "ext_modules": mypycify(list(COMPILED_MODULES), opt_level="3")}


if __name__ == "__main__":  # as the build runs it (not when a test reads the module list)
    setup(**compiled())  # type: ignore[arg-type]
