"""Checking a replay export with the engines, from its explicit set-up alone.

The check never draws at random and never reads the card catalog: it builds the game
from the export's ``deal`` and ``cards`` (``Game.from_deal``), applies every logged
action in order, and compares the result with the export's. The seed and the options
that only steer chance play no part.
"""

from __future__ import annotations

from typing import Any

import msgspec

from packplay.games.base import Game, GameConfig, RuleError
from packplay.games.registry import get_game
from packplay_protocol.audit import REPLAY_FORMAT
from packplay_protocol.games.common import GameResult
from packplay_protocol.rest import Replay


class Verdict(msgspec.Struct, frozen=True, kw_only=True):
    """The outcome of a check. ``step`` is the first step that differs (None when none
    does): 0 is the set-up, n the logged action that made version n, and one past the
    last action when only the end differs. ``result`` is what the engines reached."""

    ok: bool
    game: str
    players: int
    steps: int
    result: GameResult | None = None
    step: int | None = None
    problem: str | None = None


def load(raw: bytes) -> Replay:
    """A replay export read from JSON.

    Raises:
        msgspec.ValidationError, msgspec.DecodeError: not a valid export of this format.
    """
    return msgspec.json.decode(raw, type=Replay)


def verify(replay: Replay) -> Verdict:
    """Replay ``replay`` from its explicit set-up and report the first difference."""
    setup = replay.setup
    checked = 0

    def failed(step: int, problem: str, result: GameResult | None = None) -> Verdict:
        return Verdict(
            ok=False,
            game=setup.game,
            players=setup.players,
            steps=checked,
            result=result,
            step=step,
            problem=problem,
        )

    if replay.format != REPLAY_FORMAT:
        return failed(0, f"unknown format {replay.format!r}")
    try:
        engine: Game[Any] = get_game(setup.game)
        config = GameConfig(game=setup.game, players=setup.players, sets=setup.sets, options=setup.options)
        state = engine.from_deal(config, replay.deal, replay.cards)
    except RuleError as error:
        return failed(0, f"the set-up is refused ({error.rule}): {error.message}")
    for step, entry in enumerate(replay.log, 1):
        if entry.version != step:
            return failed(step, f"version {entry.version} where {step} comes next")
        try:
            state = engine.apply(state, entry.seat, entry.action, copy=False).state
        except RuleError as error:
            return failed(step, f"seat {entry.seat}'s action is refused ({error.rule}): {error.message}")
        checked = step
    result = engine.result(state)
    end = len(replay.log) + 1
    if result is None:
        return failed(end, "the game is not over after the last action")
    if result != replay.result:
        found, expected = msgspec.json.encode(result).decode(), msgspec.json.encode(replay.result).decode()
        return failed(end, f"the result is {found}, the export says {expected}", result)
    return Verdict(ok=True, game=setup.game, players=setup.players, steps=checked, result=result)
