"""Deciding one action on a game copy: the step it makes, or the answer that refuses it.

Nothing is written here: the authority commits a step, or stores a refusal that is the
game's own (a rule broken, a stale version, a game over), so that the same action id
gets the same answer again whoever asks. Refusals that are not the game's decision (no
such game, a seat over its limit, storage away) are not stored: the same id may
succeed later.
"""

from __future__ import annotations

from packplay.games.base import RuleError
from packplay.table import decisions
from packplay.table.game_copy import GameCopy, Step
from packplay.table.records import Answer
from packplay_protocol.catalog import GAMES
from packplay_protocol.errors import RejectReason
from packplay_protocol.from_client import Act

_REJECT_REASONS = {reason.value for reason in RejectReason}


def decide(
    copy: GameCopy, seat: int, act: Act, action_digest: str, now: float, timed_out: bool
) -> Answer | Step:
    """The step ``act`` of ``seat`` makes from the copy's version, or the answer refusing it.

    An action computed on an older version still applies when its seat faces the same
    decision as then (see :mod:`packplay.table.decisions`); an action id this copy has
    seen gets its answer again."""
    version, engine = copy.version, copy.engine
    last = copy.last.get(seat)
    if last is not None and last[0] == act.action_id:
        return same_or_duplicate(last[1], action_digest)
    if not isinstance(act.action, GAMES[engine.name].actions):
        return stored(RejectReason.BAD_MESSAGE, f"not an action of {engine.name}", version, action_digest)
    if copy.status == "finished":
        return stored(RejectReason.GAME_OVER, "the game is over", version, action_digest)
    if act.version != version and not (
        act.version < version and decisions.unchanged_since(copy.decisions, seat, act.version)
    ):
        return stored(RejectReason.STALE_VERSION, f"the game is at version {version}", version, action_digest)
    try:
        return copy.step(seat, act.action, act.action_id, now, timed_out, action_digest)
    except RuleError as error:
        reason = error.reason if error.reason in _REJECT_REASONS else RejectReason.ILLEGAL_ACTION
        return Answer(
            accepted=False,
            version=version,
            reason=reason,
            rule=error.rule,
            message=error.message,
            digest=action_digest,
        )


def stored(reason: RejectReason, message: str, version: int, action_digest: str) -> Answer:
    """A refusal that is the game's decision: kept under the action id."""
    return Answer(accepted=False, version=version, reason=reason.value, message=message, digest=action_digest)


def rejected(reason: RejectReason, message: str, version: int) -> Answer:
    """A refusal that is not the game's decision (not stored: the same id may succeed later)."""
    return Answer(accepted=False, version=version, reason=reason.value, message=message)


def seat_limited(wait: int, version: int) -> Answer:
    """The seat acts faster than its limit (over all its connections): nothing applied, nothing stored."""
    return rejected(RejectReason.RATE_LIMITED, f"too many actions of this seat; retry in {wait} ms", version)


def same_or_duplicate(previous: Answer, action_digest: str) -> Answer:
    """The answer an action id already got, unless the id now names another action."""
    if previous.digest == action_digest:
        return previous
    return Answer(
        accepted=False,
        version=previous.version,
        reason=RejectReason.DUPLICATE.value,
        message="this action id was used for another action",
    )
