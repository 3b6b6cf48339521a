"""Legal actions keep one form per kind of decision, whatever the size of a hand (the
table of the protocol guide): checked at every decision of random games."""

from __future__ import annotations

from typing import Any

import pytest

from packplay.cards.catalog import load_catalog
from packplay.games.base import GameConfig
from packplay.games.random_policy import random_action
from packplay.games.registry import get_game
from packplay.rng import Rng
from packplay_protocol.games.common import LegalActions

CATALOG = load_catalog()


def forms(state: Any, game: str, legal: LegalActions[Any]) -> tuple[str, str]:
    """(the decision, the form its legal actions came in)."""
    kinds = {type(action).__name__ for action in legal.actions}
    fields = {choice.field for choice in legal.choices}
    form = f"actions {sorted(kinds)}" if kinds else ""
    form += f" choices {sorted(fields)}" if fields else ""
    decision = str(getattr(state, "phase", ""))
    if game == "base_race":
        decision = "play" if state.board_set else "layout"
    return decision, form.strip()


EXPECTED = {
    "day_night": {
        ("place", "choices ['cards']"),
        ("replace", "actions ['Replace']"),
        ("declare", "actions ['Declare']"),
    },
    "mishra_factory": {
        ("", "actions ['Take'] choices ['discard']"),
        ("", "actions ['Take']"),
    },
    "wedding_planner": {("pickup", "actions ['Draw', 'Take']"), ("discard", "actions ['Discard']")},
    "base_race": {("layout", "choices ['cards']"), ("play", "actions ['Move']")},
}


@pytest.mark.parametrize(
    ("game", "players"), [("day_night", 2), ("mishra_factory", 3), ("wedding_planner", 4), ("base_race", 2)]
)
def test_each_decision_keeps_its_form(game: str, players: int) -> None:
    engine = get_game(game)
    seen: set[tuple[str, str]] = set()
    for seed in range(12):
        rng = Rng(seed)
        state = engine.setup(GameConfig(game=game, players=players), seed, CATALOG)
        while pending := engine.pending(state):
            seat = pending[rng.below(len(pending))]
            legal = engine.legal_actions(state, seat)
            seen.add(forms(state, game, legal))
            state = engine.apply(state, seat, random_action(legal, engine.action_type, rng)).state
    # A Vampire Wedding Planner pick-up with an empty draw pile lists takes only.
    seen.discard(("pickup", "actions ['Take']"))
    assert seen == EXPECTED[game]
