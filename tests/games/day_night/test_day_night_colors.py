"""The color table of RULES.md (``day_night``), all 25 cells, and duds (DN-3)."""

from __future__ import annotations

import pytest
from dn_helpers import DAY, NIGHT, card, new_game, of_type, place

from packplay.cards.model import COLOR_ORDER, Color
from packplay.games.day_night.colors import pair_outcome
from packplay_protocol.games.day_night import PairResolved

# Rows: Day's color; columns: Night's color W, U, B, R, G (copied from RULES.md).
TABLE: dict[Color, tuple[str, ...]] = {
    "W": ("day", "day", "tie", "day", "day"),
    "U": ("day", "tie", "night", "day", "night"),
    "B": ("tie", "night", "night", "night", "night"),
    "R": ("day", "night", "night", "tie", "day"),
    "G": ("day", "day", "night", "night", "tie"),
}
CELLS = [(day, night, TABLE[day][i]) for day in TABLE for i, night in enumerate(COLOR_ORDER)]


def test_color_table_has_25_cells() -> None:
    assert len(CELLS) == 25
    assert len({(day, night) for day, night, _ in CELLS}) == 25


@pytest.mark.parametrize(("day", "night", "expected"), CELLS)
def test_color_table_cell(day: Color, night: Color, expected: str) -> None:
    """Each cell of the table, Day's color against Night's color."""
    assert pair_outcome(day, night) == expected


@pytest.mark.parametrize(("day", "night", "expected"), CELLS)
def test_color_table_cell_in_play(day: Color, night: Color, expected: str) -> None:
    """Each cell through the engine: one card each, the winning card goes to its pile."""
    state = new_game([card("d", day)], [card("n", night)])
    transition = place(state, ["d"], ["n"])
    resolved = of_type(transition.events, PairResolved)[0]
    assert (resolved.day_color, resolved.night_color, resolved.outcome) == (day, night, expected)
    piles = transition.state.piles
    assert piles[DAY] == (["d"] if expected == "day" else [])
    assert piles[NIGHT] == (["n"] if expected == "night" else [])


def test_color_table_rule_behind_it() -> None:
    """Red beats green, green beats blue, blue beats red, whoever plays them."""
    cycle: tuple[tuple[Color, Color], ...] = (("R", "G"), ("G", "U"), ("U", "R"))
    for winner, loser in cycle:
        assert pair_outcome(winner, loser) == "day"
        assert pair_outcome(loser, winner) == "night"


def test_dn3_duds_lose_to_any_color_and_tie_together() -> None:
    """DN-3: a dud (None) loses to every colored card and ties with a dud."""
    for color in COLOR_ORDER:
        assert pair_outcome(None, color) == "night"
        assert pair_outcome(color, None) == "day"
    assert pair_outcome(None, None) == "tie"
