"""What every opponent shares: cards looked up by id, the pick of a best option, a fallback.

An opponent decides from the view message alone, as a person at the table would: the
seat's view, the facts of the cards it may know (``cards``) and its legal actions. It
re-derives the few rules it needs from the printed rules; it never asks an engine.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from packplay_clients.legal import fill, first_fill
from packplay_protocol.cards import CardInstance
from packplay_protocol.games.common import ChooseCards
from packplay_protocol.to_client import ViewMessage

T = TypeVar("T")

Decide = Callable[[ViewMessage, random.Random], Any]
"""One game's way of deciding: the view message and a generator for ties, to an action."""


def best(options: Sequence[T], score: Callable[[T], float], rng: random.Random) -> T:
    """The option of highest score; equal scores are broken at random (``rng``)."""
    scored = [(score(option), option) for option in options]
    top = max(value for value, _ in scored)
    return rng.choice([option for value, option in scored if value >= top - 1e-9])


def first_legal(view: ViewMessage) -> Any:
    """The first legal action, or the first choice filled with its first options."""
    legal = view.legal
    return legal.actions[0] if legal.actions else first_fill(legal.choices[0])


def single_fills(choice: ChooseCards) -> list[Any]:
    """Every action that fills a one-id choice, one per option."""
    return [fill(choice, [option]) for option in dict.fromkeys(choice.options)]


def cards_of(view: ViewMessage, ids: Sequence[str | None]) -> list[CardInstance]:
    """The facts of the known cards among ``ids`` (unknown ids are left out)."""
    return [view.cards[i] for i in ids if i is not None and i in view.cards]
