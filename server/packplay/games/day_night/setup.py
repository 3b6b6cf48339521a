"""Setting a game up: open the boosters, set aside (C-1), draw the roles, start round 1.

Random draws, in this fixed order from one ``Rng(seed)`` (C-4): the two boosters are
opened (seat 0's first, unless boosters are given), then the Day seat is drawn
(unless the ``day_seat`` option fixes it). Hands are kept sorted by card id, so no
shuffle is needed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from packplay.cards.model import CardInstance
from packplay.games.base import Emitted, GameConfig, RuleError
from packplay.games.day_night import flow
from packplay.games.day_night.state import SEATS, DayNightState
from packplay.games.dealing import check_set_aside, game_boosters
from packplay.rng import Rng
from packplay_protocol.audit import DayNightDeal
from packplay_protocol.games.day_night import FACTS

DEFAULT_SETS: tuple[str, ...] = FACTS.default_sets
OPTIONS: frozenset[str] = frozenset({"day_seat"})


def check_options(config: GameConfig) -> int | None:
    """The ``day_seat`` option (the seat playing Day), or None to draw it.

    Raises:
        RuleError: an unknown option or a bad value (reason ``bad_config``).
    """
    unknown = sorted(set(config.options) - OPTIONS)
    if unknown:
        raise RuleError("options", f"unknown options: {', '.join(unknown)}", "bad_config")
    day_seat = config.options.get("day_seat")
    if day_seat is not None and (type(day_seat) is not int or not 0 <= day_seat < SEATS):
        raise RuleError("options", "day_seat must be 0 or 1", "bad_config")
    return day_seat


def new_game(
    config: GameConfig,
    seed: int,
    catalog: Any,
    boosters: Sequence[Sequence[CardInstance]] | None,
) -> DayNightState:
    """A new game, waiting for both rows of round 1 (or over if no round can be played)."""
    day_seat = check_options(config)
    rng = Rng(seed)
    boosters = game_boosters(config, SEATS, DEFAULT_SETS, catalog, rng, boosters)
    if day_seat is None:
        day_seat = rng.below(SEATS)
    deal = DayNightDeal(
        day_seat=day_seat,
        hands=tuple(tuple(sorted(c.id for c in booster if c.magic_back)) for booster in boosters),
        set_aside=tuple(tuple(c.id for c in booster if not c.magic_back) for booster in boosters),  # C-1
    )
    cards = {card.id: card for booster in boosters for card in booster}
    return from_deal(config, deal, cards, seed)


def deal_of(state: DayNightState) -> DayNightDeal:
    """The explicit set-up of a game at version 0 (hands are still whole then)."""
    return DayNightDeal(
        day_seat=state.day_seat,
        hands=tuple(tuple(hand) for hand in state.hands),
        set_aside=tuple(tuple(cards) for cards in state.set_aside),
    )


def from_deal(
    config: GameConfig, deal: DayNightDeal, cards: dict[str, CardInstance], seed: int
) -> DayNightState:
    """The game at version 0 from its explicit set-up (each card of ``cards`` in one zone).

    Raises:
        RuleError: bad options, or a set-up this game could not deal (``deal``).
    """
    day_seat = check_options(config)
    if len(deal.hands) != SEATS or len(deal.set_aside) != SEATS or not 0 <= deal.day_seat < SEATS:
        raise RuleError("deal", "a set-up has two hands, two set-aside lists and a Day seat", "bad_config")
    if day_seat is not None and day_seat != deal.day_seat:
        raise RuleError("deal", "the Day seat differs from the day_seat option", "bad_config")
    check_set_aside(cards, [c for hand in deal.hands for c in hand], [c for s in deal.set_aside for c in s])
    state = DayNightState(cards=cards, config=config, seed=seed, day_seat=deal.day_seat)
    for seat in range(SEATS):
        state.hands[seat] = sorted(deal.hands[seat])
        state.set_aside[seat] = list(deal.set_aside[seat])
        state.public.update(state.set_aside[seat])
    events: list[Emitted] = []
    flow.start_round(state, events)
    return state
