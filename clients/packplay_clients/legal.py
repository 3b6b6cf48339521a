"""What a view's ``legal`` allows, as actions ready to send.

``legal.actions`` are complete actions. Each of ``legal.choices`` is a
``ChooseCards`` template: its ``field`` takes between ``min_count`` and
``max_count`` distinct ids of ``options`` (one id instead of a list when
``single``; the order matters when ``ordered``). These helpers build actions from
the view alone, so a bot needs no rules knowledge.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import msgspec

from packplay_protocol.catalog import ANY_ACTION
from packplay_protocol.games.common import ChooseCards


def count_range(choice: ChooseCards) -> tuple[int, int]:
    """The counts of ids ``choice`` allows, within what its options can give."""
    available = len(dict.fromkeys(choice.options))
    high = min(1 if choice.single else choice.max_count, available)
    return max(choice.min_count, 0), high


def fill(choice: ChooseCards, ids: Sequence[str]) -> Any:
    """The typed action made by filling ``choice`` with ``ids``.

    Unordered ids are put in the order of ``options``, so a set of ids always makes
    the same action.

    Raises:
        ValueError: ``ids`` break the choice's constraints.
    """
    problem = _problem(choice, ids)
    if problem is not None:
        raise ValueError(problem)
    chosen = list(ids) if choice.ordered else [o for o in dict.fromkeys(choice.options) if o in ids]
    value: Any = (chosen[0] if chosen else None) if choice.single else chosen
    return msgspec.convert({**choice.template, choice.field: value}, ANY_ACTION)


def _problem(choice: ChooseCards, ids: Sequence[str]) -> str | None:
    low, high = count_range(choice)
    if not low <= len(ids) <= high:
        return f"choose between {low} and {high} ids, not {len(ids)}"
    if len(set(ids)) != len(ids):
        return "an id is chosen twice"
    unknown = set(ids) - set(choice.options)
    return f"not an option: {sorted(unknown)[0]!r}" if unknown else None


def first_fill(choice: ChooseCards) -> Any:
    """The choice filled with its first options: as few as it allows, but one when it allows one."""
    low, high = count_range(choice)
    count = max(low, min(1, high))
    return fill(choice, list(dict.fromkeys(choice.options))[:count])


def random_fill(choice: ChooseCards, rng: random.Random) -> Any:
    """The choice filled at random: a uniform count in range, then uniform distinct ids."""
    low, high = count_range(choice)
    if low > high:
        raise ValueError("no filling meets the choice's constraints")
    count = rng.randint(low, high)
    return fill(choice, rng.sample(list(dict.fromkeys(choice.options)), count))
