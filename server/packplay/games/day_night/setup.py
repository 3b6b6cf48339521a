"""Setting a game up: open the boosters, set aside (C-1), draw the roles, start round 1.

Random draws, in this fixed order from one ``Rng(seed)`` (C-4): the two boosters are
opened (seat 0's first, unless boosters are given), then the Day seat is drawn
(unless the ``day_seat`` option fixes it). Hands are kept sorted by card id, so no
shuffle is needed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from packplay.cards.boosters import BoosterOpener
from packplay.cards.catalog import Catalog, UnknownSetError
from packplay.cards.model import CardInstance
from packplay.games.base import Emitted, GameConfig, RuleError
from packplay.games.day_night import flow
from packplay.games.day_night.state import SEATS, DayNightState
from packplay.rng import Rng

DEFAULT_SETS: tuple[str, ...] = ("MID",)
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


def open_boosters(config: GameConfig, catalog: Catalog, rng: Rng) -> list[list[CardInstance]]:
    """One booster per seat; booster i is of ``sets[i % len(sets)]``.

    Raises:
        RuleError: a set the catalog does not hold (``bad_config``).
    """
    sets = config.sets or DEFAULT_SETS
    opener = BoosterOpener(catalog, rng)
    try:
        return [opener.open(sets[i % len(sets)]) for i in range(SEATS)]
    except UnknownSetError as error:
        raise RuleError("sets", str(error), "bad_config") from error


def check_boosters(boosters: Sequence[Sequence[CardInstance]]) -> None:
    """Given boosters: one per seat, card ids unique.

    Raises:
        RuleError: the wrong number of boosters or a repeated id (``bad_config``).
    """
    if len(boosters) != SEATS:
        raise RuleError("boosters", "2 boosters needed, one per player", "bad_config")
    ids = [card.id for booster in boosters for card in booster]
    if len(set(ids)) != len(ids):
        raise RuleError("boosters", "card ids must be unique", "bad_config")


def new_game(
    config: GameConfig,
    seed: int,
    catalog: Any,
    boosters: Sequence[Sequence[CardInstance]] | None,
) -> DayNightState:
    """A new game, waiting for both rows of round 1 (or over if no round can be played)."""
    day_seat = check_options(config)
    rng = Rng(seed)
    if boosters is None:
        boosters = open_boosters(config, catalog, rng)
    else:
        check_boosters(boosters)
    if day_seat is None:
        day_seat = rng.below(SEATS)
    state = DayNightState(config=config, seed=seed, day_seat=day_seat)
    for seat, booster in enumerate(boosters):
        state.hands[seat] = sorted((c for c in booster if c.magic_back), key=lambda c: c.id)
        state.set_aside[seat] = [c for c in booster if not c.magic_back]  # C-1
        state.public.update(c.id for c in state.set_aside[seat])
    events: list[Emitted] = []
    flow.start_round(state, events)
    return state
