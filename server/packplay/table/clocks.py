"""The pure side of the turn clocks and of the house's deadlines: what is due, and when.

A game sits in its shard's clock index at the time a clock sweep should next look at
it: its first pending seat's turn clock running out, or a house seat's decision left
waiting longer than the grace (its process may have died). The sweep asks this module
what is due at that time; the authority plays it.
"""

from __future__ import annotations

import msgspec

from packplay.table import decisions
from packplay.table.game_copy import GameCopy
from packplay_protocol.from_client import Act


def due_actions(copy: GameCopy, now: float) -> list[tuple[int, Act]]:
    """The default action of every pending seat whose turn clock has run out, as the act
    a client would send (its id names the decision, so it is played once)."""
    clock = copy.meta.clock
    if clock is None:
        return []  # in the clock index for an overdue house seat only
    engine, state = copy.engine, copy.state
    due = []
    for seat in engine.pending(state):
        decision = copy.decisions[seat]
        if decision.at + clock > now:
            continue
        legal = engine.legal_actions(state, seat)
        action = msgspec.convert(decisions.default_action(legal), engine.action_type)
        due.append(
            (seat, Act(action_id=f"clock-{seat}-{decision.since}", version=copy.version, action=action))
        )
    return due


def overdue_house(copy: GameCopy, now: float, grace: float) -> list[tuple[int, int]]:
    """The house decisions of the copy waiting longer than the grace: (seat, version where
    each began)."""
    house = copy.meta.house_bots()
    return [
        (seat, copy.decisions[seat].since)
        for seat in copy.pending
        if seat in house and copy.decisions[seat].at + grace <= now
    ]


def faces(copy: GameCopy, seat: int, since: int) -> bool:
    """Whether ``seat`` still faces the decision that began at version ``since``."""
    return (
        copy.status == "active"
        and seat in copy.pending
        and seat < len(copy.decisions)
        and copy.decisions[seat].since == since
    )
