"""Results have one documented form: integer scores where whole, a reason identifier of
the game's documented list with its text, and draw exactly when every seat wins."""

from __future__ import annotations

import re
from pathlib import Path

import msgspec
import pytest

from packplay.cards.catalog import load_catalog
from packplay.games.base import GameConfig
from packplay.games.playout import play, random_policy
from packplay.games.registry import GAME_NAMES, get_game
from packplay.rng import Rng
from packplay_protocol.games.common import RESULT_REASONS, GameResult

GUIDE = Path(__file__).resolve().parents[2] / "protocol" / "README.md"
CATALOG = load_catalog()
CASES = [
    ("day_night", 2, {}),
    ("mishra_factory", 3, {}),
    ("wedding_planner", 4, {}),
    ("base_race", 2, {}),
    ("base_race", 2, {"move_limit": 1}),
]


@pytest.mark.parametrize(("game", "players", "options"), CASES)
@pytest.mark.parametrize("seed", range(6))
def test_a_result_has_the_documented_form(game, players, options, seed):
    engine = get_game(game)
    rng = Rng(seed)
    state = engine.setup(GameConfig(game=game, players=players, options=options), seed, CATALOG)
    result = engine.result(play(engine, state, [random_policy(engine, rng)] * players, rng).state)
    assert isinstance(result, GameResult)
    assert result.reason_text == RESULT_REASONS[game][result.reason]
    assert result.draw == (len(result.winners) == players)
    assert list(result.winners) == sorted(set(result.winners))
    wire = msgspec.json.decode(msgspec.json.encode(result))
    if game == "base_race" and result.draw:
        assert wire["scores"] == [0.5, 0.5] and result.reason == "move_limit"
    else:
        assert all(type(score) is int for score in wire["scores"]), wire["scores"]


def test_every_game_has_its_reasons_and_the_guide_lists_them():
    assert sorted(RESULT_REASONS) == sorted(GAME_NAMES)
    results = GUIDE.read_text(encoding="utf-8").split("\n## Results\n", 1)[1].split("\n## ", 1)[0]
    for reasons in RESULT_REASONS.values():
        for reason in reasons:
            assert re.fullmatch(r"[a-z][a-z0-9_]*", reason)
            assert f"`{reason}`" in results, reason
