"""The seeded generator: its draws are fixed by the seed, whatever the Python version."""

from __future__ import annotations

import random

import pytest

from packplay.rng import Rng

BOUNDS = [1, 2, 3, 5, 7, 8, 15, 16, 17, 100, 1000, 2**31, 2**53 - 1, 12_345_678_901]


@pytest.mark.parametrize("seed", [0, 1, 7, 2**53 - 1])
def test_below_draws_what_randrange_draws_from_the_same_seed(seed: int) -> None:
    # Stored games replay from their seed: the stream must never change.
    ours, reference = Rng(seed), random.Random(seed)
    for n in BOUNDS * 20:
        assert ours.below(n) == reference.randrange(n)


def test_below_stays_in_range_and_refuses_an_empty_range() -> None:
    rng = Rng(3)
    assert {rng.below(3) for _ in range(200)} == {0, 1, 2}
    with pytest.raises(ValueError):
        rng.below(0)
