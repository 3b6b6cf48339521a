"""Per-seat decision tracking (pure): what makes an old action still sound, and when a clock starts."""

from __future__ import annotations

from packplay.table import decisions
from packplay_protocol.games.common import LegalActions
from packplay_protocol.games.day_night import Declare

SAME = (LegalActions(actions=(Declare(color="W"),)),) * 2
"""Two seats that face the same legal actions at every version."""


def test_an_unchanged_decision_keeps_its_start() -> None:
    first = decisions.track(SAME, 0, now=10.0)
    later = decisions.track(SAME, 1, now=11.0, previous=first, previous_legal=SAME)
    assert later == first
    assert decisions.unchanged_since(later, 1, 0)


def test_other_legal_actions_are_a_new_decision() -> None:
    first = decisions.track(SAME, 0, now=10.0)
    other = (SAME[0], LegalActions(actions=(Declare(color="U"),)))
    later = decisions.track(other, 1, now=11.0, previous=first, previous_legal=SAME)
    assert later[0] == first[0] and (later[1].since, later[1].at) == (1, 11.0)
    assert not decisions.unchanged_since(later, 1, 0)


def test_the_seat_that_acted_faces_a_new_decision_even_with_the_same_choices() -> None:
    # A Day vs Night hand can come back whole after a round: same legal actions, new
    # decision. Keeping the old start would replay an old action id (a turn clock's).
    first = decisions.track(SAME, 0, now=10.0)
    later = decisions.track(SAME, 1, now=11.0, previous=first, previous_legal=SAME, actor=0)
    assert (later[0].since, later[0].at) == (1, 11.0)
    assert later[1] == first[1]
    assert not decisions.unchanged_since(later, 0, 0)


def test_the_deadline_runs_from_the_earliest_pending_decision() -> None:
    tracked = (decisions.Decision(3, 100.0), decisions.Decision(5, 90.0))
    assert decisions.deadline(tracked, (0, 1), 30.0) == 120.0
    assert decisions.deadline(tracked, (0,), 30.0) == 130.0
    assert decisions.deadline(tracked, (), 30.0) is None
    assert decisions.deadline(tracked, (0,), None) is None


def test_decisions_are_stored_and_read_back() -> None:
    tracked = (decisions.Decision(3, 100.0), decisions.Decision(5, 90.5))
    assert decisions.decode(decisions.encode(tracked)) == tracked
    assert decisions.decode(None) == ()
