"""The course of a game: rounds, the reveal, each pair's steps, the end of a round.

Everything here runs automatically until a seat must decide (a row, a replacement,
a declaration) or the game ends; it leaves ``phase`` and ``need`` set accordingly.
"""

from __future__ import annotations

from typing import Literal

from packplay.games.base import Emitted, told_apart
from packplay.games.day_night.colors import is_colorless, is_multicolored, pair_outcome
from packplay.games.day_night.state import SEATS, DayNightState
from packplay_protocol.games.day_night import (
    ROUND_SIZES,
    CardIsDud,
    GameEnded,
    HandDiscarded,
    PairResolved,
    PairRevealed,
    RoundEnded,
    RoundStarted,
)

ROUNDS = len(ROUND_SIZES)


def scores(state: DayNightState) -> tuple[int, ...]:
    """The pile sizes, in seat order."""
    return tuple(len(pile) for pile in state.piles)


def winners(state: DayNightState) -> tuple[int, ...]:
    """The seats with the most cards in pile (both on a draw)."""
    totals = scores(state)
    return tuple(seat for seat, total in enumerate(totals) if total == max(totals))


def start_round(state: DayNightState, events: list[Emitted]) -> None:
    """Start ``state.round`` with k from DN-5, skipping rounds with k = 0; end after round 3."""
    while state.round <= ROUNDS:
        k = min(ROUND_SIZES[state.round - 1], *(len(hand) for hand in state.hands))
        events.append(Emitted(RoundStarted(round=state.round, k=k, skipped=k == 0)))
        if k:
            state.k, state.phase, state.need = k, "place", list(range(SEATS))
            return
        state.round += 1  # DN-5: a round with k = 0 is skipped and discards nothing
    state.round, state.k, state.phase, state.need = ROUNDS, 0, "over", []
    won = winners(state)
    events.append(Emitted(GameEnded(scores=scores(state), winners=won, draw=len(won) == SEATS)))


def reveal_rows(state: DayNightState, events: list[Emitted]) -> None:
    """Both rows are placed: discard unplaced cards when k is short (DN-5), then resolve."""
    if state.k < ROUND_SIZES[state.round - 1]:
        for seat in range(SEATS):
            bury_hand(state, seat, events)
    state.duds = [[False] * state.k for _ in range(SEATS)]
    state.colors = [[None] * state.k for _ in range(SEATS)]
    state.outcomes, state.revealed, state.slot = [], 0, 0
    resolve(state, events)


def bury_hand(state: DayNightState, seat: int, events: list[Emitted]) -> None:
    """DN-5: discard every unplaced card, face down (the owner alone sees which)."""
    cards = state.hands[seat]
    if not cards:
        return
    state.buried[seat].extend(cards)
    state.hands[seat] = []
    private = HandDiscarded(seat=seat, count=len(cards), cards=tuple(cards))
    events.extend(told_apart(seat, private, HandDiscarded(seat=seat, count=len(cards))))


def resolve(state: DayNightState, events: list[Emitted]) -> None:
    """Resolve the pairs in slot order (DN-6) until one needs a decision; then end the round."""
    while state.slot < state.k:
        if state.revealed == state.slot:
            reveal_pair(state, events)
        if awaits_replacement(state, events) or awaits_declaration(state):
            return
        settle_pair(state, events)
        state.slot += 1
    end_round(state, events)
    state.round += 1
    start_round(state, events)


def reveal_pair(state: DayNightState, events: list[Emitted]) -> None:
    day, night = (state.rows[state.seat_of(role)][state.slot] for role in ("day", "night"))
    state.public.update((day, night))
    state.revealed += 1
    events.append(Emitted(PairRevealed(slot=state.slot, day=day, night=night)))


def awaits_replacement(state: DayNightState, events: list[Emitted]) -> bool:
    """DN-2/DN-3/DN-7: each colorless card is replaced if its owner has a card in hand,
    else it becomes a dud. Judged afresh at every step of a chain."""
    need: list[int] = []
    for seat in range(SEATS):
        card = state.rows[seat][state.slot]
        if state.duds[seat][state.slot] or not is_colorless(state.cards[card]):
            continue
        if state.hands[seat]:
            need.append(seat)
        else:
            state.duds[seat][state.slot] = True
            events.append(Emitted(CardIsDud(slot=state.slot, seat=seat, card=card)))
    return await_step(state, "replace", need)


def awaits_declaration(state: DayNightState) -> bool:
    """DN-4: after replacements, each multicolored card's owner declares one of its colors.

    A mono-colored card's color is known from here on; a dud has none (DN-3)."""
    slot, need = state.slot, []
    for seat in range(SEATS):
        if state.duds[seat][slot] or state.colors[seat][slot] is not None:
            continue
        card = state.cards[state.rows[seat][slot]]
        if is_multicolored(card):
            need.append(seat)
        else:
            state.colors[seat][slot] = card.colors[0]
    return await_step(state, "declare", need)


def await_step(state: DayNightState, phase: Literal["replace", "declare"], need: list[int]) -> bool:
    """Wait for ``need`` (one seat: it decides knowing the other card; two: hidden, C-5)."""
    if not need:
        return False
    state.phase, state.need, state.choices = phase, need, [None] * SEATS
    return True


def settle_pair(state: DayNightState, events: list[Emitted]) -> None:
    """The pair's outcome from the color table; a dud plays as no color (DN-3)."""
    slot = state.slot
    day, night = (state.colors[state.seat_of(role)][slot] for role in ("day", "night"))
    outcome = pair_outcome(day, night)
    state.outcomes.append(outcome)
    events.append(Emitted(PairResolved(slot=slot, day_color=day, night_color=night, outcome=outcome)))


def end_round(state: DayNightState, events: list[Emitted]) -> None:
    """DN-6: winners to their pile; duds discarded; lost and tied cards back to hand."""
    for seat in range(SEATS):
        role = state.role(seat)
        for slot, card in enumerate(state.rows[seat]):
            if state.outcomes[slot] == role:
                state.piles[seat].append(card)
            elif state.duds[seat][slot]:
                state.discards[seat].append(card)
            else:
                state.hands[seat].append(card)
        state.hands[seat].sort()
        state.rows[seat] = []
    state.need, state.choices = [], [None] * SEATS
    state.duds, state.colors, state.outcomes = [[], []], [[], []], []
    state.revealed = state.slot = 0
    events.append(Emitted(RoundEnded(round=state.round, scores=scores(state))))
