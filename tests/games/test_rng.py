"""The seeded generator: its draws are fixed by the seed, whatever the Python version."""

from __future__ import annotations

import random

import pytest

from packplay.rng import Rng

BOUNDS = [1, 2, 3, 5, 7, 8, 15, 16, 17, 100, 1000, 2**31, 2**53 - 1, 12_345_678_901]


def test_below_draws_the_pinned_numbers_of_a_seed() -> None:
    # Stored games replay from their seed: these numbers must never change.
    rng = Rng(1)
    bounds = [1, 2, 3, 7, 16, 17, 100, 1000, 2**31, 2**53 - 1]
    assert [rng.below(n) for n in bounds] == [0, 0, 1, 0, 15, 14, 60, 667, 1630434966, 1891107552740886]
    rng = Rng(2**53 - 1)
    assert [rng.below(n) for n in [6, 6, 6, 52, 51, 50, 15, 15]] == [0, 4, 1, 48, 12, 9, 1, 1]


@pytest.mark.parametrize("seed", [0, 1, 7, 2**53 - 1])
def test_below_draws_what_randrange_drew_when_games_were_dealt_with_it(seed: int) -> None:
    # Games stored before the generator had its own sampling were dealt by randrange.
    ours, reference = Rng(seed), random.Random(seed)
    for n in BOUNDS * 20:
        assert ours.below(n) == reference.randrange(n)


def test_below_stays_in_range_and_refuses_an_empty_range() -> None:
    rng = Rng(3)
    assert {rng.below(3) for _ in range(200)} == {0, 1, 2}
    with pytest.raises(ValueError):
        rng.below(0)
