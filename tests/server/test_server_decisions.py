"""Per-seat decision tracking (pure): what makes an old action still sound, and when a clock starts."""

from __future__ import annotations

from typing import Any

from packplay.server import decisions
from packplay_protocol.games.common import LegalActions
from packplay_protocol.games.day_night import Declare


class SameChoices:
    """An engine whose seats always face the same legal actions."""

    def legal_actions(self, state: Any, seat: int) -> LegalActions[Any]:
        return LegalActions(actions=(Declare(color="W"),))


def test_an_unchanged_decision_keeps_its_start() -> None:
    first = decisions.track(SameChoices(), None, 2, 0, now=10.0)  # type: ignore[arg-type]
    later = decisions.track(SameChoices(), None, 2, 1, now=11.0, previous=first)  # type: ignore[arg-type]
    assert later == first
    assert decisions.unchanged_since(later, 1, 0)


def test_the_seat_that_acted_faces_a_new_decision_even_with_the_same_choices() -> None:
    # A Day vs Night hand can come back whole after a round: same legal actions, new
    # decision. Keeping the old start would replay an old action id (a turn clock's).
    first = decisions.track(SameChoices(), None, 2, 0, now=10.0)  # type: ignore[arg-type]
    later = decisions.track(SameChoices(), None, 2, 1, now=11.0, previous=first, actor=0)  # type: ignore[arg-type]
    assert (later[0].since, later[0].at) == (1, 11.0)
    assert later[1] == first[1]
    assert not decisions.unchanged_since(later, 0, 0)


def test_the_deadline_runs_from_the_earliest_pending_decision() -> None:
    tracked = (decisions.Decision(3, 100.0, b"a"), decisions.Decision(5, 90.0, b"b"))
    assert decisions.deadline(tracked, (0, 1), 30.0) == 120.0
    assert decisions.deadline(tracked, (0,), 30.0) == 130.0
    assert decisions.deadline(tracked, (), 30.0) is None
    assert decisions.deadline(tracked, (0,), None) is None
