"""Bots named by import path in the arena tests (``bots_samples:Name``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from packplay_clients.legal import first_fill
from packplay_protocol.to_client import ViewMessage


def first_legal(view: ViewMessage) -> Any:
    legal = view.legal
    return legal.actions[0] if legal.actions else first_fill(legal.choices[0])


class Recorder:
    """Plays the first legal action and keeps every input it was given."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.views: list[ViewMessage] = []
        self.observed: list[tuple[int, tuple[Any, ...]]] = []

    def choose(self, view: ViewMessage) -> Any:
        self.views.append(view)
        return first_legal(view)

    def observe(self, version: int, events: Sequence[Any]) -> None:
        self.observed.append((version, tuple(events)))


class Bare:
    """A bot whose class takes no argument at all."""

    def choose(self, view: ViewMessage) -> Any:
        return first_legal(view)


class Cheater:
    """Sends an action the rules refuse (a card id no seat holds)."""

    def choose(self, view: ViewMessage) -> Any:
        return {"type": "mishra_factory.take", "belt_position": 99, "group": "W"}


class NoChoose:
    """Not a bot: it cannot decide."""


NOT_CALLABLE = 3
