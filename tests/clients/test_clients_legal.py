"""Actions built from a view's choices: within the constraints, typed, deterministic when asked."""

from __future__ import annotations

import random

import msgspec
import pytest

from packplay_clients import count_range, fill, first_fill, random_fill
from packplay_protocol.games.common import ChooseCards
from packplay_protocol.games.day_night import Place
from packplay_protocol.games.mishra_factory import Take

IDS = ("c1", "c2", "c3", "c4")
PLACE = ChooseCards(
    template={"type": "day_night.place"}, field="cards", options=IDS, min_count=2, max_count=3, ordered=True
)
DISCARD = ChooseCards(
    template={"type": "mishra_factory.take", "belt_position": 2, "group": "W"},
    field="discard",
    options=IDS,
    min_count=1,
    max_count=1,
    single=True,
)


def test_filling_builds_the_typed_action() -> None:
    assert fill(PLACE, ["c3", "c1"]) == Place(cards=("c3", "c1"))
    assert fill(DISCARD, ["c2"]) == Take(belt_position=2, group="W", discard="c2")
    unordered = msgspec.structs.replace(PLACE, ordered=False)
    assert fill(unordered, ["c3", "c1"]) == fill(unordered, ["c1", "c3"]) == Place(cards=("c1", "c3"))


@pytest.mark.parametrize(
    ("ids", "problem"),
    [(["c1"], "between 2 and 3"), (["c1", "c1"], "twice"), (["c1", "c9"], "not an option"), (IDS, "between")],
)
def test_filling_refuses_what_breaks_the_constraints(ids: list[str], problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        fill(PLACE, ids)


def test_first_and_random_fillings_stay_in_range() -> None:
    assert count_range(PLACE) == (2, 3) and count_range(DISCARD) == (1, 1)
    assert first_fill(PLACE) == Place(cards=("c1", "c2"))
    assert first_fill(DISCARD) == Take(belt_position=2, group="W", discard="c1")
    rng = random.Random(7)
    sizes = {len(random_fill(PLACE, rng).cards) for _ in range(50)}
    assert sizes == {2, 3}
