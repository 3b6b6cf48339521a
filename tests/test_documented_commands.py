"""The commands the docs show, run exactly as shown: the README's by CI (``.ci/run``) or
here, and the arena's with a bot module of one's own (``clients/README.md``)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def code_blocks(page: Path, language: str) -> list[str]:
    text = page.read_text(encoding="utf-8")
    return re.findall(rf"```{language}\n(.*?)```", text, flags=re.DOTALL)


def shell_lines(page: Path) -> list[str]:
    return [line.split("  #")[0].strip() for block in code_blocks(page, "sh") for line in block.splitlines()]


def test_ci_runs_the_readme_commands_exactly() -> None:
    """The README's two commands (and the load-balancer tests' own) are what CI runs."""
    commands = shell_lines(ROOT / "README.md")
    assert len(commands) == 2, commands
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    serve, test = commands
    assert serve.endswith("packplay serve") and test.endswith(".venv/bin/pytest")
    assert test in ci.splitlines(), "the README's test command is run by CI as written"
    assert repr(serve) in ci or f"'{serve}'" in ci, "the README's server command is run by CI as written"
    haproxy = re.search(r"`(\.venv/bin/pytest -m haproxy)`", (ROOT / "README.md").read_text()).group(1)
    assert haproxy in ci.splitlines()


def test_the_readme_trace_command_prints_what_the_readme_says_it_counts() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    command = re.search(r"`(python load/trace_move\.py[^`]*)`", readme).group(1)
    argv = command.split()
    done = subprocess.run(
        [sys.executable, *argv[1:]], cwd=ROOT, capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr
    for game in ("day_night", "mishra_factory", "wedding_planner", "base_race"):
        assert re.search(rf"^{game} .*\n  \d+ project modules", done.stdout, flags=re.MULTILINE), game
    assert re.search(r"\d+ functions, \d+ calls", done.stdout)


@pytest.mark.parametrize("index", [0, 1])
def test_the_arena_commands_run_as_shown_with_a_bot_of_ones_own(tmp_path: Path, index: int) -> None:
    page = ROOT / "clients" / "README.md"
    (tmp_path / "mybot.py").write_text(code_blocks(page, "python")[1], encoding="utf-8")
    arena = [line for line in shell_lines(page) if line.startswith("packplay arena")][index]
    argv = arena.split()
    command = [str(BIN / argv[0]), *argv[1:]]
    done = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    if "--json" in argv:
        assert {bot["bot"] for bot in json.loads(done.stdout)["bots"]} == {"strong", "random"}
    else:
        assert "mybot:Bot" in done.stdout and "95% CI" in done.stdout
