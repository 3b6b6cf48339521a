"""The arena's ladder (every pair, one Bradley-Terry fit) and its report's intervals."""

from __future__ import annotations

import json
import math

import pytest

from packplay.arena import wilson
from packplay.arena.engine import seat_outcomes
from packplay.arena.ladder import ANCHOR_RATING, PairResult, expected_score, fit, run_ladder, standard_errors
from packplay.arena.stats import BotTally, SeatOutcome, Standings
from packplay.cli import main
from packplay_protocol.games.common import GameResult


def made_up(strengths: dict[str, float], games: float) -> list[PairResult]:
    """Results exactly as Bradley-Terry expects them from ``strengths``."""
    names = list(strengths)
    results = []
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            share = strengths[a] / (strengths[a] + strengths[b])
            results.append(PairResult(a, b, games * share, games * (1 - share)))
    return results


def test_the_fit_recovers_known_strengths() -> None:
    """With results exactly as expected, the maximum-likelihood strengths are the true ones:
    twice as strong is 400 log10(2) = 120.4 Elo points."""
    ratings = fit(made_up({"a": 1.0, "b": 2.0, "c": 4.0, "d": 0.5}, 1000), anchor="a", prior=0)
    assert ratings["a"] == pytest.approx(ANCHOR_RATING)
    step = 400 * math.log10(2)
    assert ratings["b"] == pytest.approx(1500 + step, abs=1e-4)
    assert ratings["c"] == pytest.approx(1500 + 2 * step, abs=1e-4)
    assert ratings["d"] == pytest.approx(1500 - step, abs=1e-4)


def test_draws_count_half_a_win_to_each_side() -> None:
    """60 wins, 20 losses and 40 draws score 80 of 120: odds of 2 to 1."""
    ratings = fit([PairResult("x", "y", 60, 20, 40)], prior=0)
    assert ratings["y"] - ratings["x"] == pytest.approx(-400 * math.log10(2), abs=1e-4)
    assert expected_score(ratings["x"], ratings["y"]) == pytest.approx(2 / 3)


def test_standard_errors_follow_the_number_of_games() -> None:
    """An even pair after n games: the log-odds' variance is 4/n, so the error is
    (400 / ln 10) * 2 / sqrt(n) Elo points; a bot met only through another adds both errors."""
    even = [PairResult("a", "b", 50, 50)]
    errors = standard_errors(even, fit(even, prior=0), "a")
    assert errors["a"] == 0.0 and errors["b"] == pytest.approx(400 / math.log(10) * 2 / 10)
    chain = [PairResult("a", "b", 50, 50), PairResult("b", "c", 50, 50), PairResult("a", "c", 0, 0)]
    errors = standard_errors(chain, fit(chain, prior=0), "a")
    assert errors["c"] == pytest.approx(math.sqrt(2) * errors["b"])


def test_a_clean_sweep_stays_finite_and_ordered() -> None:
    ratings = fit(
        [PairResult("top", "mid", 20, 0), PairResult("mid", "low", 20, 0), PairResult("top", "low", 20, 0)]
    )
    assert all(math.isfinite(r) for r in ratings.values())
    assert ratings["top"] > ratings["mid"] > ratings["low"] and ratings["top"] == ANCHOR_RATING


def test_the_fit_refuses_an_unknown_anchor_and_no_games() -> None:
    with pytest.raises(ValueError, match="anchor"):
        fit([PairResult("x", "y", 1, 1)], anchor="z")
    with pytest.raises(ValueError):
        fit([])


def tally(wins: int, draws: int, losses: int) -> BotTally:
    record = BotTally("bot")
    for count, won, draw in ((wins, True, False), (draws, False, True), (losses, False, False)):
        for _ in range(count):
            record.add(SeatOutcome("bot", 0, won, False, draw, 0.0, 1, 0.0))
    return record


def test_draws_losses_and_decisive_games_have_wilson_intervals() -> None:
    record = tally(wins=30, draws=10, losses=10)
    assert (record.wins, record.draws, record.losses, record.decisive) == (30, 10, 10, 40)
    assert record.draw_interval == wilson(10, 50) and record.loss_interval == wilson(10, 50)
    assert record.decisive_share == 0.75 and record.decisive_interval == wilson(30, 40)
    low, high = record.decisive_interval
    assert low == pytest.approx(0.5981, abs=1e-4) and high == pytest.approx(0.8581, abs=1e-4)
    assert tally(0, 3, 0).decisive_share is None and tally(0, 3, 0).decisive_interval == (0.0, 1.0)


def test_the_report_shows_each_rate_and_the_decisive_share_in_two_player_runs() -> None:
    won = GameResult(winners=(0,), draw=False, scores=(1, 0), reason="land_revealed", reason_text="")
    drawn = GameResult(winners=(0, 1), draw=True, scores=(0.5, 0.5), reason="move_limit", reason_text="")
    standings = Standings(game="base_race", players=2, lineup=("a", "b"))
    for result in (won, won, won, drawn):
        standings.add(seat_outcomes(result, ("a", "b"), [1, 1], [0.1, 0.1]), result.draw, 2)
    a, b = standings.as_json()["bots"]
    assert (a["wins"], a["draws"], a["losses"], b["losses"]) == (3, 1, 0, 3)
    assert a["draw_rate"] == 0.25 and a["draw_rate_ci95"] == [round(x, 4) for x in wilson(1, 4)]
    assert b["loss_rate_ci95"] == [round(x, 4) for x in wilson(3, 4)]
    assert a["decisive_share"] == 1.0 and b["decisive_share"] == 0.0 and a["decisive_games"] == 3
    assert "decisive won" in standings.report() and "75.0% [" in standings.report()
    crowded = Standings(game="mishra_factory", players=3, lineup=("a", "b"))
    assert "decisive_share" not in crowded.as_json()["bots"][0] and "decisive" not in crowded.report()


def test_a_ladder_plays_every_pair_once_and_anchors_on_strong() -> None:
    played = []

    def play(first: str, second: str) -> Standings:
        played.append((first, second))
        standings = Standings(game="day_night", players=2, lineup=(first, second))
        result = GameResult(
            winners=(0,), draw=False, scores=(1, 0), reason="most_cards_in_pile", reason_text=""
        )
        for _ in range(4):  # the first named of each pair wins every game
            standings.add(seat_outcomes(result, (first, second), [1, 1], [0.0, 0.0]), False, 1)
        return standings

    ladder = run_ladder("day_night", ["a", "strong", "c"], 4, play)
    assert played == [("a", "strong"), ("a", "c"), ("strong", "c")]
    assert ladder.anchor == "strong" and ladder.ratings["strong"] == ANCHOR_RATING
    assert ladder.ranked() == ["a", "strong", "c"] and ladder.record("a") == (8, 0, 0)
    with pytest.raises(ValueError):
        run_ladder("day_night", ["a", "a"], 4, play)


def test_the_ladder_command_rates_cheap_bots(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["arena", "wedding_planner", "--ladder", "first,random,greedy", "--games", "4", "--seed", "2"]
    assert main([*args, "--json", "--no-progress"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["anchor"] == "first" and printed["games_per_pair"] == 4 and len(printed["pairs"]) == 3
    rows = {row["bot"]: row for row in printed["ratings"]}
    assert rows["first"]["rating"] == 1500.0 and all(row["games"] == 8 for row in rows.values())
    assert rows["first"]["rating_se"] == 0.0 and rows["greedy"]["rating_se"] > 0
    assert main([*args, "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "Bradley-Terry ratings (first = 1500)" in out and "score of the row bot" in out
    assert main(["arena", "base_race", "--ladder", "first,random", "--players", "3"]) == 2
    assert "2-player" in capsys.readouterr().err
