"""Assertions shared by the rules tests of every game."""

from __future__ import annotations

from typing import Any

import msgspec

from packplay.games.base import Game, RuleError, clone

_ENCODER = msgspec.msgpack.Encoder(order="deterministic")


def refused(engine: Game[Any], state: Any, seat: int, action: Any) -> RuleError:
    """Assert that ``action`` is refused and changes nothing; return the error.

    ``apply`` works on a copy, so the check that matters is on the engine's own hook:
    given a private copy, it must refuse before touching it.
    """
    before = _ENCODER.encode(state)
    try:
        engine.apply(state, seat, action)
    except RuleError as error:
        assert _ENCODER.encode(state) == before
        if error.reason not in ("game_over", "not_your_turn"):
            _assert_hook_refuses(engine, state, seat, action, before)
        return error
    raise AssertionError(f"{action!r} was accepted")


def _assert_hook_refuses(engine: Game[Any], state: Any, seat: int, action: Any, before: bytes) -> None:
    work = clone(state)
    try:
        engine._apply(work, seat, action)
    except RuleError:
        assert _ENCODER.encode(work) == before, "the engine changed the state before refusing"
        return
    raise AssertionError("apply refused the action but the engine's hook accepted it")
