"""Hand-built cards and stacked games for the Day vs Night tests (no files read)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from packplay.cards.model import CardInstance, Color
from packplay.games.base import Emitted, GameConfig, Transition, events_for
from packplay.games.day_night import DayNight, DayNightState
from packplay_protocol.games.day_night import Place

ENGINE = DayNight()
DAY, NIGHT = 0, 1
"""With the ``day_seat`` option at 0 (the default of :func:`new_game`)."""


def card(card_id: str, colors: str = "", *, land: bool = False, magic_back: bool = True) -> CardInstance:
    """A card with id ``card_id`` and the colors spelled in ``colors`` (e.g. ``"WB"``)."""
    typed: tuple[Color, ...] = tuple(msgspec.convert(list(colors), list[Color]))
    return CardInstance(
        set="MID",
        number=card_id,
        name=f"Card {card_id}",
        rarity="common",
        colors=typed,
        types=("Land",) if land else ("Creature",),
        type_line="Land" if land else "Creature",
        id=card_id,
        magic_back=magic_back,
    )


def new_game(
    day: Sequence[CardInstance], night: Sequence[CardInstance], *, day_seat: int = 0, seed: int = 1
) -> DayNightState:
    """A game where seat ``day_seat`` is Day with booster ``day`` (the other seat: ``night``)."""
    boosters = [list(day), list(night)] if day_seat == 0 else [list(night), list(day)]
    config = GameConfig(game="day_night", players=2, options={"day_seat": day_seat})
    return ENGINE.setup(config, seed, None, boosters)


def act(state: DayNightState, seat: int, action: Any) -> Transition[DayNightState]:
    return ENGINE.apply(state, seat, action)


def place(state: DayNightState, day: Sequence[str], night: Sequence[str]) -> Transition[DayNightState]:
    """Day places first, then Night; the transition of Night's placement (the reveal)."""
    state = act(state, state.day_seat, Place(cards=tuple(day))).state
    return act(state, 1 - state.day_seat, Place(cards=tuple(night)))


def public(events: Sequence[Emitted], audience: int | None = None) -> list[Any]:
    return events_for(events, audience)


def of_type(events: Sequence[Emitted], kind: type, audience: int | None = None) -> list[Any]:
    return [event for event in events_for(events, audience) if isinstance(event, kind)]


def encoded(state: DayNightState) -> bytes:
    return msgspec.msgpack.encode(state)


def rendered_cards(value: Any) -> set[str]:
    """The ids of the cards rendered with their facts anywhere in ``value`` (a view or
    events): none since views and events name cards by id only."""
    found: set[str] = set()

    def walk(item: Any) -> None:
        if isinstance(item, dict):
            if "id" in item and "colors" in item:
                found.add(item["id"])
            for sub in item.values():
                walk(sub)
        elif isinstance(item, list | tuple):
            for sub in item:
                walk(sub)

    walk(msgspec.to_builtins(value))
    return found


def named_cards(state: DayNightState, value: Any) -> set[str]:
    """The ids of the game's cards named anywhere in ``value`` (a view or events)."""
    return all_strings(value) & state.cards.keys()


def all_strings(value: Any) -> set[str]:
    """Every string anywhere in ``value`` (to check that no hidden id appears at all)."""
    found: set[str] = set()

    def walk(item: Any) -> None:
        if isinstance(item, str):
            found.add(item)
        elif isinstance(item, dict):
            for key, sub in item.items():
                found.add(key)
                walk(sub)
        elif isinstance(item, list | tuple):
            for sub in item:
                walk(sub)

    walk(msgspec.to_builtins(value))
    return found
