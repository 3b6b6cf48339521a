"""Hand-built card instances for rules tests: any facts, no card data needed."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any, cast

from packplay_protocol.cards import CardInstance, Color

_numbers = itertools.count(1)


def make_card(
    *,
    colors: str = "",
    types: Sequence[str] = ("Creature",),
    name: str | None = None,
    card_id: str | None = None,
    id_prefix: str = "t",
    **facts: Any,
) -> CardInstance:
    """A card of test set ``TST`` with a fresh collector number; ``colors`` like ``"WU"``."""
    number = next(_numbers)
    return CardInstance(
        set="TST",
        number=str(number),
        name=name or f"Test card {number}",
        rarity="common",
        colors=tuple(cast(Color, c) for c in colors),
        types=tuple(types),
        id=card_id or f"{id_prefix}{number:05d}",
        **facts,
    )
