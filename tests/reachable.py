"""What a piece of test data lets reach: every object behind it, and a check that no card
hidden from a seat is among them (shared by the bots' and the house's visibility tests)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgspec

from packplay.cards.catalog import Catalog
from packplay_protocol.cards import CardInstance


def walk(root: Any) -> Iterator[Any]:
    """Every object reachable from ``root`` through containers, structs and instance
    attributes (not through classes, modules or functions, nor into the card catalog:
    the same public data for everyone)."""
    seen: set[int] = set()
    stack = [root]
    while stack:
        value = stack.pop()
        if id(value) in seen or isinstance(value, str | bytes | int | float | bool | type(None) | Catalog):
            continue
        seen.add(id(value))
        yield value
        if isinstance(value, dict):
            stack += [*value.keys(), *value.values()]
        elif isinstance(value, list | tuple | set | frozenset):
            stack += list(value)
        elif isinstance(value, msgspec.Struct):
            stack += [getattr(value, name) for name in value.__struct_fields__]
        elif hasattr(value, "__dict__") and not isinstance(value, type) and not callable(value):
            stack += list(vars(value).values())
        slots = getattr(type(value), "__slots__", ())
        if not isinstance(value, msgspec.Struct):
            stack += [
                getattr(value, name) for name in slots if isinstance(name, str) and hasattr(value, name)
            ]


def assert_no_hidden_facts(value: Any, hidden: frozenset[str]) -> None:
    """No card object with the id of a hidden card is reachable from ``value``."""
    for item in walk(value):
        if isinstance(item, CardInstance):
            assert item.id not in hidden, "a hidden card's facts reached the bot"
