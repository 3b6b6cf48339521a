"""The engine interface's own helpers: event visibility."""

from packplay.games.base import SPECTATOR, Emitted, events_for, told_apart


def test_public_private_and_told_apart_events_reach_the_right_audiences() -> None:
    events = [
        Emitted("public"),
        Emitted("to seat 1", frozenset({1})),
        *told_apart(0, "seat 0 in full", "seat 0 redacted"),
    ]
    assert events_for(events, 0) == ["public", "seat 0 in full"]
    assert events_for(events, 1) == ["public", "to seat 1", "seat 0 redacted"]
    assert events_for(events, 2) == ["public", "seat 0 redacted"]
    assert events_for(events, SPECTATOR) == ["public", "seat 0 redacted"]
