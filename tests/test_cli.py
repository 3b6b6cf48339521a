"""The ``packplay`` command, run in-process through its entry point."""

import json

import pytest

from packplay.cli import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("code", ["MID", "VOW", "MH2", "ZNR"])
def test_cards_open_json_is_reproducible(capsys, code):
    status, out, _ = run(capsys, "cards", "open", code, "--seed", "1", "--json")
    boosters = json.loads(out)
    assert status == 0 and len(boosters) == 1 and len(boosters[0]) == 16
    for card in boosters[0]:
        assert {"id", "name", "set", "number", "rarity", "foil", "magic_back"} <= card.keys()
    assert sum(not card["magic_back"] for card in boosters[0]) == 1
    assert run(capsys, "cards", "open", code, "--seed", "1", "--json")[1] == out
    assert run(capsys, "cards", "open", code, "--seed", "2", "--json")[1] != out


def test_cards_open_table_and_count(capsys):
    status, out, _ = run(capsys, "cards", "open", "mid", "--seed", "3", "--count", "2")
    assert status == 0
    assert out.startswith("seed 3") and "booster 2 of 2 (MID)" in out
    assert "(no Magic back: set aside)" in out


def test_cards_errors_are_clear(capsys):
    status, _, err = run(capsys, "cards", "open", "NOPE")
    assert status == 2 and "unknown set 'NOPE'" in err
    status, _, err = run(capsys, "cards", "show", "No Such Card")
    assert status == 2 and "no card named" in err


def test_cards_list_and_show(capsys):
    _, sets, _ = run(capsys, "cards", "list")
    assert "ZNR  Zendikar Rising  280 cards  collated" in sets
    _, cards, _ = run(capsys, "cards", "list", "VOW")
    assert len(cards.splitlines()) == 277
    _, shown, _ = run(capsys, "cards", "show", "Grist, the Hunger Tide")
    assert "loyalty     3" in shown


def test_cards_import_scryfall(capsys, tmp_path):
    from pathlib import Path

    sample = Path(__file__).parent / "cards" / "data" / "scryfall_search.json"
    status, out, _ = run(capsys, "cards", "import", str(sample), "--out", str(tmp_path))
    assert status == 0 and "TST: 6 cards, generic boosters" in out
    assert (tmp_path / "TST.json").exists()


@pytest.mark.parametrize(("game", "players"), [("day_night", 2), ("mishra_factory", 3), ("base_race", 2)])
def test_simulate_prints_outcomes(capsys, game, players):
    status, out, _ = run(capsys, "simulate", game, "--games", "20", "--players", str(players), "--seed", "4")
    assert status == 0
    assert f"{game}, {players} players, 20 games" in out
    wins = sum(int(line.split()[3]) for line in out.splitlines() if line.strip().startswith("seat "))
    draws = int(next(line.split()[1] for line in out.splitlines() if line.strip().startswith("draws")))
    assert wins + draws >= 20
    if game == "day_night":
        assert "day wins" in out and "night wins" in out
    if game == "mishra_factory":
        assert "1st to play wins" in out and "3rd to play wins" in out


def test_simulate_refuses_a_bad_player_count(capsys):
    status, _, err = run(capsys, "simulate", "day_night", "--games", "1", "--players", "5")
    assert status == 2 and "2-2 players" in err


def test_the_protocol_documents_are_no_subcommand(capsys):
    # Their generators are a script of the checkout, protocol/tools/generate.py, not installed.
    with pytest.raises(SystemExit) as exited:
        main(["protocol", "docs"])
    assert exited.value.code == 2 and "invalid choice: 'protocol'" in capsys.readouterr().err
