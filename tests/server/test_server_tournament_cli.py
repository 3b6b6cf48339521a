"""``packplay tournament``: create, start, bots, watch and export against a real server."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from support_servers import ServerProcess

from packplay.cli import main


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["tournament", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_create_start_play_watch_and_export(
    servers: list[ServerProcess], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    url = servers[0].url
    code, out, _ = _run(capsys, "create", url, "--game", "day_night", "--rounds", "2", "--turn-seconds", "5")
    created = json.loads(out)
    tournament_id, token = created["tournament"]["tournament_id"], created["organizer_token"]
    assert code == 0 and created["tournament"]["status"] == "registering"

    code, out, _ = _run(capsys, "watch", url, tournament_id, "--once")
    assert code == 0 and "registering" in out and "0 players in" in out

    code, _, err = _run(capsys, "start", url, tournament_id, "--token=not-the-organizer-token")
    assert code == 1 and "unauthorized" in err

    bots = subprocess.Popen(
        [sys.executable, "-m", "packplay.cli", "tournament", "bots", url, tournament_id, "--count", "4"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        _wait_for_players(capsys, url, tournament_id, 4)
        code, out, _ = _run(capsys, "start", url, tournament_id, f"--token={token}")
        assert code == 0 and json.loads(out)["status"] == "running"
        bots_out, _ = bots.communicate(timeout=120)
    finally:
        bots.kill()
    assert bots.returncode == 0 and json.loads(bots_out) == {"bots": 4, "games": 8}

    code, out, _ = _run(capsys, "watch", url, tournament_id, "--once")
    assert code == 0 and "Final standings." in out and "round 2 of 2: 2 of 2 tables over" in out
    assert all(f"bot {i}" in out for i in range(1, 5))

    code, out, _ = _run(capsys, "export", url, tournament_id)
    document = json.loads(out)
    assert code == 0 and document["standings"]["final"] and len(document["rounds"]) == 2
    assert len(document["standings"]["lines"]) == 4

    target = tmp_path / "standings.csv"
    code, _, _ = _run(capsys, "export", url, tournament_id, "--format", "csv", "--out", str(target))
    rows = list(csv.DictReader(io.StringIO(target.read_text())))
    assert code == 0 and [int(r["rank"]) for r in rows] == sorted(int(r["rank"]) for r in rows)
    assert sum(int(r["wins"]) + int(r["draws"]) + int(r["losses"]) for r in rows) == 8

    code, out, _ = _run(capsys, "export", url, tournament_id, "--format", "csv", "--table", "pairings")
    tables = list(csv.DictReader(io.StringIO(out)))
    assert code == 0 and len(tables) == 8 and {r["round"] for r in tables} == {"1", "2"}
    assert {r["game_id"] for r in tables} == {t["game_id"] for r in document["rounds"] for t in r["tables"]}


def test_errors_are_one_clear_line(servers: list[ServerProcess], capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, "watch", servers[0].url, "nosuchtournament", "--once")
    assert code == 1 and err.startswith("packplay tournament: 404 not_found")
    code, _, err = _run(capsys, "create", servers[0].url, "--game", "chess")
    assert code == 1 and "bad_config" in err


def _wait_for_players(capsys: pytest.CaptureFixture[str], url: str, tournament_id: str, count: int) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        _, out, _ = _run(capsys, "export", url, tournament_id)
        if len(json.loads(out)["tournament"]["players"]) == count:
            return
        time.sleep(0.05)
    raise AssertionError("the bots did not register")
