"""Per-seat decision bookkeeping: since when each seat faces its current choice.

A seat's decision changes when its legal actions change. Two facts follow from that
version and time, stored with the game:

- an action computed on an older version is still sound when its seat's decision has
  not changed since: what other seats did in between (a simultaneous commitment)
  did not touch what it could choose, so the order does not matter;

Whether a decision changed is seen by comparing the seat's legal actions with those
of the version before (a process holds both; one that reads a game from Redis
computes them from the state it read).
- a turn clock runs from the moment the decision began, not from the last action of
  anyone at the table.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from packplay.games.base import Game
from packplay.table.records import GameMeta
from packplay_protocol.games.common import ChooseCards, LegalActions


class Decision(msgspec.Struct, frozen=True, array_like=True):
    """One seat's current decision: the version and the time it began."""

    since: int
    at: float


_decisions_decoder = msgspec.msgpack.Decoder(tuple[Decision, ...])
Legal = tuple[LegalActions[Any], ...]
"""Every seat's legal actions at one version, in seat order."""


def legal_of(engine: Game[Any], state: Any, players: int) -> Legal:
    """What each seat may do in ``state`` (computed once per version, shared with the views)."""
    return engine.awaited(state, players).legal


def track(
    legal: Legal,
    version: int,
    now: float,
    previous: Sequence[Decision] = (),
    previous_legal: Legal = (),
    actor: int | None = None,
) -> tuple[Decision, ...]:
    """Every seat's decision at ``version``: a seat whose legal actions are those it had
    before keeps its decision (and its clock); any other starts a new one.

    The seat that just acted (``actor``) always faces a new decision, even one with
    the same legal actions as before (a Day vs Night hand that came back whole):
    its action ended the old one.
    """
    tracked = []
    for seat, now_legal in enumerate(legal):
        kept = (
            seat != actor
            and seat < len(previous)
            and seat < len(previous_legal)
            and previous_legal[seat] == now_legal
        )
        tracked.append(previous[seat] if kept else Decision(version, now))
    return tuple(tracked)


def encode(decisions: Sequence[Decision]) -> bytes:
    return msgspec.msgpack.encode(tuple(decisions))


def decode(raw: bytes | None) -> tuple[Decision, ...]:
    return _decisions_decoder.decode(raw) if raw else ()


def unchanged_since(decisions: Sequence[Decision], seat: int, version: int) -> bool:
    """Whether ``seat`` faced the same decision at ``version`` as now."""
    return seat < len(decisions) and decisions[seat].since <= version


def deadline(decisions: Sequence[Decision], pending: Sequence[int], seconds: float | None) -> float | None:
    """When the first pending seat's clock runs out (None without a clock or a pending seat)."""
    if seconds is None or not pending:
        return None
    return min(decisions[seat].at for seat in pending) + seconds


def wake(meta: GameMeta, tracked: Sequence[Decision], pending: Sequence[int], grace: float) -> float | None:
    """When a clock sweep should next look at a game: the first pending seat's turn clock
    running out, or a house decision overdue (None: nothing to look at)."""
    if meta.clock is None and not meta.house:
        return None
    times = []
    if meta.clock is not None:
        times += [tracked[seat].at + meta.clock for seat in pending]
    house = meta.house_bots()
    times += [tracked[seat].at + grace for seat in pending if seat in house]
    return min(times) if times else None


def default_action(legal: LegalActions[Any]) -> Any:
    """What a seat whose clock ran out plays: its first action, or the first options of a choice."""
    if legal.actions:
        return legal.actions[0]
    choice: ChooseCards = legal.choices[0]
    picked = list(choice.options[: max(choice.min_count, 1 if choice.max_count else 0)])
    action = dict(choice.template)
    action[choice.field] = picked[0] if choice.single else picked
    return action
