"""How much thinking a bot may do per decision: a number of samples, and a time cap."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass

DEFAULT_SAMPLES = 16
"""Samples (determinizations) per decision: enough to beat the built-in bots clearly,
few enough for thousands of arena games in minutes."""

UNBOUNDED_SAMPLES = 10_000
"""The samples of a budget given as a time cap only."""
_SAMPLES = re.compile(r"\d+")
_SECONDS = re.compile(r"(?P<number>\d+(?:\.\d+)?)(?P<unit>ms|s)")


@dataclass(frozen=True)
class Budget:
    """Per decision: at most ``samples`` sampled worlds, and stop early after ``seconds``.

    Samples make a bot reproducible from its seed; the time cap makes it safe under a
    turn clock (a capped decision depends on the machine's speed).
    """

    samples: int = DEFAULT_SAMPLES
    seconds: float | None = None

    def __post_init__(self) -> None:
        if self.samples < 1:
            raise ValueError("a budget needs at least one sample")
        if self.seconds is not None and self.seconds <= 0:
            raise ValueError("a time budget must be positive")

    def clock(self) -> Clock:
        return Clock(self)

    @classmethod
    def parse(cls, text: str) -> Budget:
        """``"32"`` (samples), ``"50ms"`` or ``"0.2s"`` (time cap, samples unbounded in
        practice), or both: ``"64 50ms"``.

        Raises:
            ValueError: not a budget.
        """
        samples: int | None = None
        cap: float | None = None
        for token in text.split():
            timed = _SECONDS.fullmatch(token)
            if _SAMPLES.fullmatch(token) and samples is None:
                samples = int(token)
            elif timed and cap is None:
                number = float(timed.group("number"))
                cap = number / 1000 if timed.group("unit") == "ms" else number
            else:
                raise ValueError(f"not a budget: {text!r} (write 32, 50ms, 0.2s or 64 50ms)")
        if samples is None and cap is None:
            raise ValueError("an empty budget: write 32, 50ms, 0.2s or 64 50ms")
        if samples is None:
            samples = UNBOUNDED_SAMPLES
        return cls(samples=samples, seconds=cap)


class Clock:
    """One decision's budget being spent: ``more(done)`` says whether to sample again.

    Under a time cap another sample is started only if it is expected to end in time (the
    mean time of the samples so far), so that a decision keeps within its cap however long
    one sample takes.
    """

    __slots__ = ("_cap", "_samples", "_started")

    def __init__(self, budget: Budget) -> None:
        self._samples = budget.samples
        self._cap = budget.seconds
        self._started = time.perf_counter()

    def more(self, done: int) -> bool:
        """Whether another sample fits (the first one always does)."""
        if done == 0:
            return True
        if done >= self._samples:
            return False
        if self._cap is None:
            return True
        spent = time.perf_counter() - self._started
        return spent + spent / done <= self._cap
