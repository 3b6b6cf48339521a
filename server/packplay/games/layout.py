"""A game's view, part by part: where each part sits, what it shows, and to whom.

An engine describes its view as a :class:`ViewLayout`: a list of parts, each a JSON
Pointer into the view and how to compute what sits there. A *shared* part shows the
same to every audience (a score, a pile, how many cards a hand holds): it is computed
once per version, however many audiences look. A *private* part depends on who looks
(a hand its owner alone sees, the viewer's own seat).

The whole view of an audience is the parts nested into one document; after a move,
what changed for an audience is found by comparing each part with what that audience
was shown before (one equality test per part, in C for tuples, numbers, strings and
structs), so the work grows with the parts, not with everything inside them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

S = TypeVar("S")
Audience = int | None
"""A seat, or None for a spectator."""


@dataclass(frozen=True, slots=True)
class Part(Generic[S]):
    """One place of the view: a JSON Pointer below the view (``/round``, ``/seats/1/hand``)
    and what it shows. ``shared`` parts show the same to every audience: ``show`` is
    then called with no audience (None)."""

    path: str
    show: Callable[[S, Audience], Any]
    shared: bool


def shared(path: str, show: Callable[[S], Any]) -> Part[S]:
    """A part every audience sees alike."""
    return Part(path, lambda state, _audience: show(state), True)


def private(path: str, show: Callable[[S, Audience], Any]) -> Part[S]:
    """A part that depends on the audience (a seat, or None for a spectator)."""
    return Part(path, show, False)


Values = list[Any]
"""What each part of a layout shows one audience, in the layout's order."""


class ViewLayout(Generic[S]):
    """A game's view for one player count: its type tag and its parts, in the order of
    the view's fields (the order its whole document lists them in)."""

    __slots__ = ("_keys", "parts", "private", "shared", "tag")

    def __init__(self, tag: str, parts: Sequence[Part[S]]) -> None:
        paths = [part.path for part in parts]
        if len(set(paths)) != len(paths):
            raise ValueError(f"{tag}: a path is listed twice")
        for path in paths:
            if any(other.startswith(path + "/") for other in paths):
                raise ValueError(f"{tag}: {path} holds another part")
        self.tag = tag
        self.parts = tuple(parts)
        self.shared = tuple(index for index, part in enumerate(self.parts) if part.shared)
        """The indexes of the shared parts."""
        self.private = tuple(index for index, part in enumerate(self.parts) if not part.shared)
        """The indexes of the parts that depend on the audience."""
        self._keys = tuple(_keys(part.path) for part in self.parts)

    def shared_values(self, state: S) -> Values:
        """The shared parts' values (None at the private parts' places)."""
        values: Values = [None] * len(self.parts)
        parts = self.parts
        for index in self.shared:
            values[index] = parts[index].show(state, None)
        return values

    def values(self, state: S, audience: Audience, shared: Values | None = None) -> Values:
        """Every part as ``audience`` sees it; ``shared`` given, its shared parts are taken from it."""
        values = list(shared) if shared is not None else self.shared_values(state)
        parts = self.parts
        for index in self.private:
            values[index] = parts[index].show(state, audience)
        return values

    def document(self, values: Values) -> dict[str, Any]:
        """The whole view: the parts nested into one JSON document, its type tag first."""
        document: dict[str, Any] = {"type": self.tag}
        for keys, value in zip(self._keys, values, strict=True):
            node: Any = document
            for key, after in zip(keys, keys[1:], strict=False):
                node = _child(node, key, after)
            _put(node, keys[-1], value)
        return document


def _keys(path: str) -> tuple[str | int, ...]:
    if not path.startswith("/") or path == "/":
        raise ValueError(f"{path!r} is not a JSON Pointer to a part")
    return tuple(int(token) if token.isdigit() else token for token in path[1:].split("/"))


def _child(node: Any, key: str | int, after: str | int) -> Any:
    """The container under ``key`` in ``node``, made when missing (an array when the key
    after it is an index, else an object)."""
    if isinstance(node, list):
        assert isinstance(key, int)
        if key == len(node):
            node.append([] if isinstance(after, int) else {})
        return node[key]
    found = node.get(key)
    if found is None:
        found = node[key] = [] if isinstance(after, int) else {}
    return found


def _put(node: Any, key: str | int, value: Any) -> None:
    if isinstance(node, list):
        assert isinstance(key, int) and key == len(node), "array parts are listed in index order"
        node.append(value)
    else:
        node[key] = value
