"""The state of one Day vs Night game: hands, rows, piles, the step awaited."""

from __future__ import annotations

import msgspec

from packplay.cards.model import Color
from packplay.games.base import GameConfig, GameState
from packplay_protocol.games.day_night import Outcome, Phase, Role

SEATS = 2


def per_seat_cards() -> list[list[str]]:
    return [[] for _ in range(SEATS)]


class DayNightState(GameState, kw_only=True):
    """Everything about a game; lists indexed by seat are in seat order.

    Every zone holds card ids only; ``cards`` (see :class:`GameState`) gives their
    facts. ``round`` is 1-3 (3 stays once over); ``k`` the row size of the round
    (DN-5). ``hands`` are sorted by id. ``discards`` are face up (replaced colorless
    cards, duds), ``buried`` face down (unplaced cards under DN-5); both are out of
    the game. ``rows[seat]`` holds the card now in each slot (empty until placed).
    Once both rows are placed, ``revealed`` counts the pairs turned face up and
    ``slot`` is the pair being resolved; ``duds``/``colors`` are per seat and slot
    (``colors`` is the color a card plays as, once known). ``need`` lists the seats
    the current step waits for; ``choices`` their hidden choices (a card id or a
    color) in a simultaneous step (C-5). ``public`` holds the ids of cards shown face
    up to everyone at some point (their identity is no longer secret).
    """

    config: GameConfig
    seed: int
    day_seat: int
    round: int = 1
    k: int = 0
    phase: Phase = "place"
    hands: list[list[str]] = msgspec.field(default_factory=per_seat_cards)
    rows: list[list[str]] = msgspec.field(default_factory=per_seat_cards)
    piles: list[list[str]] = msgspec.field(default_factory=per_seat_cards)
    discards: list[list[str]] = msgspec.field(default_factory=per_seat_cards)
    buried: list[list[str]] = msgspec.field(default_factory=per_seat_cards)
    set_aside: list[list[str]] = msgspec.field(default_factory=per_seat_cards)
    revealed: int = 0
    slot: int = 0
    duds: list[list[bool]] = msgspec.field(default_factory=lambda: [[] for _ in range(SEATS)])
    colors: list[list[Color | None]] = msgspec.field(default_factory=lambda: [[] for _ in range(SEATS)])
    outcomes: list[Outcome] = msgspec.field(default_factory=list)
    need: list[int] = msgspec.field(default_factory=list)
    choices: list[str | None] = msgspec.field(default_factory=lambda: [None] * SEATS)
    public: set[str] = msgspec.field(default_factory=set)

    @property
    def over(self) -> bool:
        return self.phase == "over"

    def role(self, seat: int) -> Role:
        return "day" if seat == self.day_seat else "night"

    def seat_of(self, role: Role) -> int:
        return self.day_seat if role == "day" else 1 - self.day_seat

    def committed(self, seat: int) -> bool:
        """Whether ``seat`` has made its decision in the current step."""
        if self.phase == "place":
            return bool(self.rows[seat])
        return self.choices[seat] is not None

    def pending(self) -> tuple[int, ...]:
        if self.over:
            return ()
        return tuple(seat for seat in self.need if not self.committed(seat))
