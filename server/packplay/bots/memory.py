"""What a bot remembers of a game besides its latest view: the events it was sent."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any


class Memory:
    """The events a seat received, in order, with the version each brought it to.

    A bot that joins late (or is given no events at all) has a shorter memory; every
    strategy decides from the view alone and uses the events only to refine guesses.
    """

    __slots__ = ("entries",)

    def __init__(self) -> None:
        self.entries: list[tuple[int, tuple[Any, ...]]] = []

    def add(self, version: int, events: Sequence[Any]) -> None:
        if events:
            self.entries.append((version, tuple(events)))

    def clear(self) -> None:
        self.entries.clear()

    def events(self) -> Iterator[Any]:
        for _, events in self.entries:
            yield from events
