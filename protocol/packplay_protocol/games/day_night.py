"""Wire types of Day vs Night (Innistrad: Midnight Hunt): actions, the view, events.

Rounds are numbered 1-3; slots (pairs) 0 to k-1 in reveal order (RULES.md DN-1):
slot i of the Day row meets slot i of the Night row. A seat plays one role, `day` or
`night`; a pair's outcome is `day`, `night` or `tie`. A card's effective color is
null only for a dud (DN-3). Views and events name cards by id only: a card's facts
are in the view message's `cards` table, which holds every card the audience may know.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from packplay_protocol.cards import CardId, Color
from packplay_protocol.games.common import GameFacts, seat_out_of_range

FACTS = GameFacts(
    title="Day vs Night", min_players=2, max_players=2, default_sets=("MID",), simultaneous=True
)

Role = Literal["day", "night"]
Outcome = Literal["day", "night", "tie"]
Phase = Literal["place", "replace", "declare", "over"]
"""`place`: both seats choose their rows (hidden, C-5); `replace`: a colorless card
awaits its replacement (DN-2); `declare`: a multicolored card awaits its color (DN-4)."""

ROUND_SIZES: tuple[int, ...] = (3, 3, 6)
"""Cards per row in rounds 1, 2 and 3, before the short-hand rule (DN-5)."""


class Options(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """The options of a Day vs Night game; each one left out takes its default."""

    day_seat: Annotated[
        Annotated[int, msgspec.Meta(ge=0, le=1)] | None,
        msgspec.Meta(description="The seat that plays Day (0 or 1); null draws it at random."),
    ] = None

    def check(self, players: int) -> None:
        """Refuse what the types alone cannot: a seat the game does not have."""
        seat_out_of_range(self.day_seat, players, "day_seat")


class Place(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="day_night.place"):
    """Place `cards` (ids from your hand, exactly k, distinct) face down, in slot order."""

    cards: tuple[str, ...]


class Replace(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="day_night.replace"):
    """Replace the colorless card of the current pair with `card` from your hand (DN-2)."""

    card: str


class Declare(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="day_night.declare"):
    """Declare one of the colors of your multicolored card in the current pair (DN-4)."""

    color: Color


Action = Place | Replace | Declare
"""Every action of the game."""


class SlotView(msgspec.Struct, frozen=True, kw_only=True):
    """One card of a row. `card` is its id, or null while it is face down to the
    audience, even when the audience knows that card from an earlier round (C-6).

    `dud` marks a colorless card that could not be replaced (DN-3); `color` is the
    color it plays as, once known (a declared color for a multicolored card).
    """

    slot: int
    card: CardId | None
    dud: bool = False
    color: Color | None = None


class SeatView(msgspec.Struct, frozen=True, kw_only=True):
    """One seat's side of the table. Cards are ids, looked up in the `cards` table.

    `hand` is shown to its owner only (sorted by id; null for others, who see
    `hand_count`). `pile` holds the seat's winning cards (its score). `discarded`
    lists the cards discarded face up (replaced colorless cards, duds); `buried` the
    unplaced cards discarded face down under DN-5, shown to their owner only (null for
    others, who see `buried_count`). `placed` is true once the seat has placed its
    row this round; `committed` once it has made its hidden choice in a simultaneous
    replacement or declaration (C-5).
    """

    seat: int
    role: Role
    hand_count: int
    hand: tuple[CardId, ...] | None
    row: tuple[SlotView, ...]
    pile: tuple[CardId, ...]
    discarded: tuple[CardId, ...]
    buried: tuple[CardId, ...] | None
    buried_count: int
    set_aside: tuple[CardId, ...]
    placed: bool
    committed: bool


class View(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="day_night.view"):
    """The table as one audience sees it. Cards are named by id; their facts are in
    the view message's `cards` table.

    `seat` and `role` are the viewer's (null for a spectator). `round` is 1-3 (3 once
    over); `k` the row size of the round (DN-5); `slot` the pair being resolved
    (meaningful in the `replace` and `declare` phases). `revealed` counts the pairs of
    the round already turned face up; `outcomes` lists the resolved ones in slot
    order. `scores` are the pile sizes per seat. `seed` is shown after the end.
    """

    seat: int | None
    role: Role | None
    day_seat: int
    round: int
    k: int
    phase: Phase
    slot: int
    revealed: int
    outcomes: tuple[Outcome, ...]
    seats: tuple[SeatView, ...]
    scores: tuple[int, ...]
    over: bool
    seed: int | None = None


class RoundStarted(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="day_night.round_started"
):
    """A round begins with rows of `k` cards; `skipped` when k is 0 (DN-5)."""

    round: int
    k: int
    skipped: bool = False


class RowPlaced(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="day_night.row_placed"):
    """A seat placed its row face down. `cards` (ids, in slot order) is filled only in
    the owner's copy; the other copies leave it empty."""

    seat: int
    count: int
    cards: tuple[CardId, ...] = ()


class HandDiscarded(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="day_night.hand_discarded"
):
    """DN-5: the cards a seat did not place are discarded face down before the reveal.

    `cards` (ids) is filled only in the owner's copy; the other copies leave it empty.
    """

    seat: int
    count: int
    cards: tuple[CardId, ...] = ()


class PairRevealed(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="day_night.pair_revealed"
):
    """The pair in `slot` is turned face up (DN-1, DN-6): `day` and `night` are the
    ids of its two cards, now in every audience's `cards` table."""

    slot: int
    day: CardId
    night: CardId


class CardReplaced(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="day_night.card_replaced"
):
    """DN-2: the colorless card `discarded` left the game; `card`, from hand, took its
    place face up. Both are ids, in every audience's `cards` table."""

    slot: int
    seat: int
    discarded: CardId
    card: CardId


class CardIsDud(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="day_night.card_is_dud"):
    """DN-3: a colorless `card` (an id) whose owner has no card in hand stays as a dud."""

    slot: int
    seat: int
    card: CardId


class ChoiceCommitted(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="day_night.choice_committed"
):
    """A seat made its hidden choice in a simultaneous step (C-5).

    The owner's copy carries the chosen `card` (a replacement, by id) or `color` (a
    declaration); the public copy carries neither (both null).
    """

    seat: int
    step: Literal["replace", "declare"]
    card: CardId | None = None
    color: Color | None = None


class ColorDeclared(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="day_night.color_declared"
):
    """DN-4: a multicolored card plays as `color`."""

    slot: int
    seat: int
    color: Color


class PairResolved(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="day_night.pair_resolved"
):
    """The pair's colors (null for a dud) and its outcome, from the color table."""

    slot: int
    day_color: Color | None
    night_color: Color | None
    outcome: Outcome


class RoundEnded(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="day_night.round_ended"):
    """Winning cards went to their piles, lost and tied ones back to hand (DN-6)."""

    round: int
    scores: tuple[int, ...]


class GameEnded(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="day_night.game_ended"):
    """After round 3: most cards in pile wins; equal piles are a draw."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    draw: bool


Event = (
    RoundStarted
    | RowPlaced
    | HandDiscarded
    | PairRevealed
    | CardReplaced
    | CardIsDud
    | ChoiceCommitted
    | ColorDeclared
    | PairResolved
    | RoundEnded
    | GameEnded
)
"""Every event of the game."""
