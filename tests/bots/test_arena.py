"""The arena: seat rotation, statistics, bots by import path, the command's output."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from bots_samples import Recorder

from packplay.arena import ArenaError, arena, lineup, seating, wilson
from packplay.arena.engine import EngineTable, seat_outcomes
from packplay.arena.stats import BotTally, SeatOutcome, Standings
from packplay.bots.budget import Budget
from packplay.bots.registry import BotNameError, bot_factory, make_bot
from packplay.bots.strong import StrongBot
from packplay.cards.catalog import load_catalog
from packplay.cli import main
from packplay_clients import FirstBot, RandomBot
from packplay_protocol.games.common import GameResult

CATALOG = load_catalog()


def test_lineup_fills_the_seats_from_the_names() -> None:
    assert lineup(["strong", "random"], 2) == ("strong", "random")
    assert lineup(["strong", "random"], 4) == ("strong", "random", "random", "random")
    assert lineup(["a", "b", "c"], 5) == ("a", "b", "c", "b", "c")
    assert lineup(["solo"], 3) == ("solo", "solo", "solo")
    with pytest.raises(ValueError, match="3 bots for 2 seats"):
        lineup(["a", "b", "c"], 2)
    with pytest.raises(ValueError):
        lineup([], 2)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_bot_plays_each_seat_of_every_deal(players: int) -> None:
    seats = lineup(["a", "b", "c", "d"][:players], players)
    plan = [seating(index, 100, seats) for index in range(players * players)]
    for deal in range(players):
        games = plan[deal * players : (deal + 1) * players]
        assert {game.seed for game in games} == {100 + deal}
        for seat in range(players):
            assert Counter(game.bots[seat] for game in games) == Counter(seats)
        assert {game.first for game in games} == {deal % players}
    firsts = Counter(game.first for game in plan)
    assert set(firsts) == set(range(players))
    seeds = {(game.index, seat): game.bot_seed(seat) for game in plan for seat in range(players)}
    assert len(set(seeds.values())) == len(seeds)


def test_the_first_seat_from_the_rotation_acts_first() -> None:
    game = seating(1, 7, ("a", "b", "c"))
    assert game.first == 0
    assert game.order((1, 2)) == 1
    later = seating(3, 7, ("a", "b", "c"))
    assert later.first == 1 and later.order((0, 2)) == 2 and later.order((0, 1, 2)) == 1


def test_wilson_interval_matches_known_values() -> None:
    low, high = wilson(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)
    low, high = wilson(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)
    low, high = wilson(10, 10)
    assert low == pytest.approx(0.7225, abs=1e-4) and high == 1.0
    assert wilson(0, 0) == (0.0, 1.0)
    narrow, wide = wilson(900, 1000), wilson(9, 10)
    assert narrow[1] - narrow[0] < wide[1] - wide[0]


def test_outcomes_count_wins_shared_wins_and_draws() -> None:
    bots = ("a", "b", "b")
    shared = GameResult(
        winners=(0, 1), draw=False, scores=(3, 3, 1), reason="highest_hand_score", reason_text=""
    )
    draw = GameResult(
        winners=(0, 1, 2), draw=True, scores=(1, 1, 1), reason="all_scores_tied", reason_text=""
    )
    standings = Standings(game="mishra_factory", players=3, lineup=("a", "b"))
    standings.add(seat_outcomes(shared, bots, [2, 2, 2], [0.5, 0.5, 0.5]), False, 6)
    standings.add(seat_outcomes(draw, bots, [1, 1, 1], [0.5, 0.5, 0.5]), True, 3)
    a, b = standings.tallies["a"], standings.tallies["b"]
    assert (a.seat_games, a.wins, a.shared_wins, a.draws, a.losses) == (2, 1, 1, 1, 0)
    assert (b.seat_games, b.wins, b.shared_wins, b.draws, b.losses) == (4, 1, 1, 2, 1)
    assert a.average_score == 2.0 and a.decisions_per_second == 3.0
    assert standings.games == 2 and standings.draws == 1
    report = standings.report()
    assert "mishra_factory, 3 players, 2 games (1 draws)" in report and "even share 33.3%" in report


def test_bots_by_name_and_by_import_path() -> None:
    assert isinstance(make_bot("random", seed=1), RandomBot)
    assert isinstance(make_bot("first"), FirstBot)
    assert isinstance(make_bot("strong", seed=1, budget=Budget(samples=2)), StrongBot)
    recorder = make_bot("bots_samples:Recorder", seed=5)
    assert isinstance(recorder, Recorder) and recorder.seed == 5
    assert make_bot("bots_samples:Bare") is not None
    with pytest.raises(BotNameError, match="unknown bot 'clever'"):
        bot_factory("clever")
    with pytest.raises(BotNameError, match="cannot import"):
        bot_factory("no_such_module_here:Bot")
    with pytest.raises(BotNameError, match="has no 'Missing'"):
        bot_factory("bots_samples:Missing")
    with pytest.raises(BotNameError, match="not a class or a function"):
        bot_factory("bots_samples:NOT_CALLABLE")
    with pytest.raises(BotNameError, match="no choose"):
        make_bot("bots_samples:NoChoose")


def test_an_import_path_bot_plays_the_arena_and_hears_its_events() -> None:
    standings = arena("wedding_planner", ["bots_samples:Recorder", "random"], 3, 3, seed=4, catalog=CATALOG)
    recorder = standings.tallies["bots_samples:Recorder"]
    assert standings.games == 3 and recorder.seat_games == 3 and recorder.decisions > 0


def test_an_observing_bot_hears_every_update_once_in_order() -> None:
    factories = {"recorder": bot_factory("bots_samples:Recorder"), "random": bot_factory("random")}
    table = EngineTable("mishra_factory", seating(0, 9, ("recorder", "random")), factories, Budget(), CATALOG)
    table.play()
    recorder = table.bots[0]
    assert isinstance(recorder, Recorder)
    versions = [version for version, _ in recorder.observed]
    assert versions == list(range(1, table.copy.version + 1))
    taken = [event for _, events in recorder.observed for event in events if type(event).__name__ == "Taken"]
    assert len(taken) == table.copy.version
    assert all(view.version < table.copy.version for view in recorder.views)


def test_a_refused_action_names_the_bot() -> None:
    with pytest.raises(ArenaError, match=r"bots_samples:Cheater \(seat \d, game 0"):
        arena("mishra_factory", ["bots_samples:Cheater", "random"], 1, 2, seed=1, catalog=CATALOG)


def test_the_strong_bot_beats_random_on_fixed_deals() -> None:
    standings = arena("mishra_factory", ["strong", "random"], 8, 2, seed=11, budget=Budget(samples=4))
    assert standings.tallies["strong"].wins >= 6


def test_the_command_prints_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["arena", "day_night", "--bots", "strong,first", "--games", "4", "--seed", "3", "--json"])
    assert code == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["seed"] == 3 and printed["games"] == 4 and printed["players"] == 2
    strong, first = printed["bots"]
    assert strong["bot"] == "strong" and first["bot"] == "first"
    assert strong["seat_games"] == first["seat_games"] == 4
    low, high = strong["win_rate_ci95"]
    assert 0 <= low <= strong["win_rate"] <= high <= 1
    assert strong["decisions"] > 0 and printed["games_per_second"] > 0


def test_the_command_prints_a_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "base_race", "--bots", "random,first", "--games", "2", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("first seed 1\nbase_race, 2 players, 2 games")
    assert "95% CI" in out and "random" in out and "first" in out


def test_the_command_refuses_bad_names_and_budgets(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "day_night", "--bots", "strong,nobody", "--games", "2"]) == 2
    assert "unknown bot 'nobody'" in capsys.readouterr().err
    assert main(["arena", "day_night", "--bots", "a,b,c", "--games", "2"]) == 2
    with pytest.raises(SystemExit):
        main(["arena", "day_night", "--bots", "strong", "--budget", "lots"])


def test_budgets_parse() -> None:
    assert Budget.parse("32") == Budget(samples=32)
    assert Budget.parse("50ms") == Budget(samples=10_000, seconds=0.05)
    assert Budget.parse("64 0.2s") == Budget(samples=64, seconds=0.2)
    for bad in ("", "lots", "0", "5 ms ms"):
        with pytest.raises(ValueError):
            Budget.parse(bad)


def test_the_installed_command_finds_a_bot_module_in_the_current_folder(tmp_path: Path) -> None:
    """``packplay arena --bots mybot:Bot`` run where ``mybot.py`` is, as a bot author does
    (the console script's own folder is not the user's)."""
    (tmp_path / "mybot.py").write_text(
        "class Bot:\n"
        "    def choose(self, view):\n"
        "        legal = view.legal\n"
        "        if legal.actions:\n"
        "            return legal.actions[0]\n"
        "        choice = legal.choices[0]\n"
        "        picked = list(choice.options[: max(choice.min_count, 1)])\n"
        "        return {**choice.template, choice.field: picked[0] if choice.single else picked}\n"
    )
    packplay = Path(sys.executable).parent / "packplay"
    command = [str(packplay), "arena", "day_night", "--bots", "mybot:Bot,first", "--games", "2", "--json"]
    done = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert [bot["bot"] for bot in json.loads(done.stdout)["bots"]] == ["mybot:Bot", "first"]


def test_decision_times_give_nearest_rank_quantiles() -> None:
    tally = BotTally("b")
    assert tally.decision_ms(0.99) is None
    times = tuple(i / 1000 for i in range(1, 101))  # 1 ms .. 100 ms
    tally.add(SeatOutcome("b", 0, True, False, False, 1.0, 100, sum(times), times))
    assert tally.decision_ms(0.5) == 50.0
    assert tally.decision_ms(0.99) == 99.0
    assert tally.decision_ms(1.0) == 100.0
    assert tally.as_json()["decision_ms_p99"] == 99.0
