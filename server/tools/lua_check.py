"""Check the server's Redis scripts with luacheck, as Redis runs them (includes pasted in).

    python server/tools/lua_check.py

Needs ``luacheck`` on PATH (Debian's ``lua-check``); Redis runs Lua 5.1 with the globals
``redis``, ``KEYS`` and ``ARGV``. Exits with luacheck's status.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from importlib.resources import files
from pathlib import Path

from packplay.server.storage import scripts

GROUPS = ("games", "tournaments")


def expand(into: Path) -> None:
    """Write every script, its includes pasted in, under ``into``."""
    folder = files("packplay.server.storage") / "lua"
    for group in GROUPS:
        (into / group).mkdir()
        for entry in (folder / group).iterdir():
            if entry.name.endswith(".lua"):
                name = f"{group}/{entry.name.removesuffix('.lua')}"
                (into / f"{name}.lua").write_text(scripts.source(name), encoding="utf-8")


def main() -> int:
    with tempfile.TemporaryDirectory() as scratch:
        expand(Path(scratch))
        command = ["luacheck", "--no-color", "--std", "lua51", "--read-globals", "redis", "KEYS", "ARGV"]
        return subprocess.run([*command, "--max-line-length", "110", scratch], check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
