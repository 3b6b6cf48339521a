"""The one seeded random generator a game draws every random step from (RULES.md C-4)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

SEED_BITS = 53
"""Seeds stay within 2**53 - 1 so that JavaScript clients read them exactly."""


class Rng:
    """A deterministic generator: the same seed gives the same sequence on every platform.

    It wraps ``random.Random`` (Mersenne Twister), whose raw bit stream
    (``getrandbits``) is stable across CPython versions; every draw below is made from
    that stream alone, by algorithms written here, so that the sequence never depends
    on a library helper whose algorithm could change (and another language can
    reproduce it from a Mersenne Twister).
    """

    __slots__ = ("_random",)

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``."""
        if n <= 0:
            raise ValueError("n must be positive")
        # Rejection sampling on n's bit length: the draws random.randrange(n) makes.
        bits, getrandbits = n.bit_length(), self._random.getrandbits
        drawn = getrandbits(bits)
        while drawn >= n:
            drawn = getrandbits(bits)
        return drawn

    def chance(self, numerator: int, denominator: int) -> bool:
        """True with probability ``numerator / denominator``."""
        return self.below(denominator) < numerator

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def weighted_index(self, weights: Sequence[int]) -> int:
        """An index drawn with probability proportional to the integer weights."""
        total = sum(weights)
        pick = self.below(total)
        for index, weight in enumerate(weights):
            if pick < weight:
                return index
            pick -= weight
        raise AssertionError("unreachable: weights sum to total")

    def shuffle(self, items: list[T]) -> None:
        """Fisher-Yates shuffle in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def token(self, bits: int = 40) -> str:
        """A random lowercase hex token (used for card instance ids)."""
        # %-formatting: the fastest of the forms here (a game deals dozens of ids)
        return "%0*x" % ((bits + 3) // 4, self._random.getrandbits(bits))  # noqa: UP031
