"""A decision's budget: samples, a time cap, and a clock that starts no sample it cannot finish."""

from __future__ import annotations

import pytest

from packplay.bots import budget
from packplay.bots.budget import Budget


class FakeTime:
    def __init__(self) -> None:
        self.now = 100.0

    def perf_counter(self) -> float:
        return self.now


@pytest.mark.parametrize("sample_seconds", [0.03, 0.07, 0.12, 0.2])
def test_a_timed_decision_starts_no_sample_it_cannot_finish(
    monkeypatch: pytest.MonkeyPatch, sample_seconds: float
) -> None:
    fake = FakeTime()
    monkeypatch.setattr(budget, "time", fake)
    clock = Budget(samples=1000, seconds=0.5).clock()
    done = 0
    while clock.more(done):
        fake.now += sample_seconds
        done += 1
    spent = done * sample_seconds
    assert spent <= 0.5 + 1e-9 or done == 1
    assert spent + sample_seconds > 0.5, "it stops only when the next sample would not fit"


def test_samples_bound_a_decision_without_a_time_cap() -> None:
    clock = Budget(samples=3).clock()
    assert [clock.more(done) for done in range(5)] == [True, True, True, False, False]
