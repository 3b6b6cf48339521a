"""A game's view, part by part: where each part sits, what it shows, and to whom.

An engine describes its view as a :class:`ViewLayout`: a list of parts, each a JSON
Pointer into the view and how to compute what sits there. A *shared* part shows the
same to every audience (a score, a pile, how many cards a hand holds): it is computed
once per version, however many audiences look. A *private* part depends on who looks
(a hand its owner alone sees, the viewer's own seat).

Each part names the fields of the state it shows something of (``reads``), and a part
that shows one seat's side of the table names that seat. A move's events say what it
changed: each kind of event names the fields it changes (:class:`Changes`), those of the
acting seat alone (its hand) or of the whole table (the round). Only the parts that read
one of them (and, for a seat's own fields, only that seat's parts and the parts of no
seat) are computed again and compared with what their audience was shown before, so the
work follows the move, not the size of the view; no state is compared with the one before
it. The layout also names the fields the audience's card table depends on (what is
hidden from whom).

The whole view of an audience is the parts nested into one document.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import Any, Generic, TypeVar

S = TypeVar("S")
Audience = int | None
"""A seat, or None for a spectator."""


@dataclass(frozen=True)
class Part(Generic[S]):
    """One place of the view: a JSON Pointer below the view (``/round``, ``/seats/1/hand``)
    and what it shows. ``shared`` parts show the same to every audience: ``show`` is
    then called with no audience (None). ``reads`` names the state's fields it depends
    on: while none of them changes, neither does the part (none: it never changes).
    ``seat``: the part shows only that seat's entries of the per-seat fields it reads."""

    path: str
    show: Callable[[S, Audience], Any]
    shared: bool
    reads: frozenset[str]
    seat: int | None = None


def shared(path: str, show: Callable[[S], Any], reads: Iterable[str], seat: int | None = None) -> Part[S]:
    """A part every audience sees alike."""
    return Part(path, lambda state, _audience: show(state), True, frozenset(reads), seat)


def private(
    path: str, show: Callable[[S, Audience], Any], reads: Iterable[str], seat: int | None = None
) -> Part[S]:
    """A part that depends on the audience (a seat, or None for a spectator)."""
    return Part(path, show, False, frozenset(reads), seat)


@dataclass(frozen=True)
class Changes:
    """What one kind of event changes: ``own``, per-seat fields at the event's seat alone
    (the event's ``seat``); ``table``, fields of the whole table."""

    own: tuple[str, ...] = ()
    table: tuple[str, ...] = ()


Changed = frozenset[tuple[str, int | None]]
"""The fields a move changed: (field, the seat whose entry changed, or None for all of it)."""
EVERY_FIELD: Changed = frozenset({("*", None)})
"""What a move changed when one of its events says nothing of what it changes."""


def changed(events: Iterable[Any], changes: Mapping[type, Changes]) -> Changed:
    """The fields ``events`` (the events themselves, not wrapped) say they changed."""
    found: set[tuple[str, int | None]] = set()
    for event in events:
        said = changes.get(type(event))
        if said is None:
            return EVERY_FIELD
        if said.own:
            seat = event.seat
            found.update((name, seat) for name in said.own)
        found.update((name, None) for name in said.table)
    return frozenset(found)


@dataclass(frozen=True)
class Touched:
    """What a move may have changed: the shared and the private parts that read a field
    that changed (their indexes, in the layout's order), and whether the card table may."""

    shared: tuple[int, ...]
    private: tuple[int, ...]
    cards: bool


Values = list[Any]
"""What each part of a layout shows one audience, in the layout's order."""


class ViewLayout(Generic[S]):
    """A game's view for one player count: its type tag, the state's fields, its parts in
    the order of the view's fields (the order its whole document lists them in), and the
    fields the card table depends on (``known``)."""

    __slots__ = (
        "_build",
        "_by_changes",
        "_fields",
        "_known",
        "_known_names",
        "_readers",
        "everything",
        "parts",
        "private",
        "shared",
        "tag",
    )

    def __init__(
        self, tag: str, fields: Sequence[str], parts: Sequence[Part[S]], known: Iterable[str]
    ) -> None:
        known = frozenset(known)
        unknown = {name for part in parts for name in part.reads} | known
        unknown -= set(fields)
        if unknown:
            raise ValueError(f"{tag}: no such state fields: {', '.join(sorted(unknown))}")
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
        self._build = _builder(tag, [_keys(part.path) for part in self.parts])
        getter = attrgetter(*fields)
        self._fields: Callable[[S], tuple[Any, ...]] = (
            getter if len(fields) > 1 else lambda state: (getter(state),)
        )
        self._readers = tuple(
            frozenset(index for index, part in enumerate(self.parts) if name in part.reads) for name in fields
        )
        """Per field of the state, the parts that read it."""
        self._known = frozenset(index for index, name in enumerate(fields) if name in known)
        self._known_names = known
        self.everything = Touched(self.shared, self.private, True)
        """What a move may change when nothing says what it changed."""
        self._by_changes: dict[Changed, Touched] = {EVERY_FIELD: self.everything}

    def touched_by(self, changed: Changed) -> Touched:
        """What may differ in the views after a move that changed these fields: the parts
        that read one of them (a seat's own field: at that seat's parts and the parts of no
        seat), and the card table if it depends on one. The same changes recur move after
        move, so each answer is kept."""
        found = self._by_changes.get(changed)
        if found is None:
            found = self._by_changes[changed] = self._touched_by(changed)
        return found

    def _touched_by(self, changed: Changed) -> Touched:
        parts = {
            index
            for index, part in enumerate(self.parts)
            for name, seat in changed
            if name in part.reads and (seat is None or part.seat is None or part.seat == seat)
        }
        return Touched(
            tuple(index for index in self.shared if index in parts),
            tuple(index for index in self.private if index in parts),
            any(name in self._known_names for name, _ in changed),
        )

    def touched(self, before: S, after: S) -> Touched:
        """What may differ between the views of two states: the parts that read a field
        whose value changed, and the card table if one of its fields did (field by field:
        the check of what events say, not the move path's way)."""
        parts: set[int] = set()
        cards = False
        readers, known = self._readers, self._known
        for index, (was, now) in enumerate(zip(self._fields(before), self._fields(after), strict=True)):
            if was is not now and was != now:
                parts.update(readers[index])
                cards = cards or index in known
        return Touched(
            tuple(index for index in self.shared if index in parts),
            tuple(index for index in self.private if index in parts),
            cards,
        )

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
        return self._build(values)


class _Leaf:
    """Where a part's value goes in the shape of the document."""

    __slots__ = ("index",)

    def __init__(self, index: int) -> None:
        self.index = index


def _builder(tag: str, paths: list[tuple[str | int, ...]]) -> Callable[[Values], dict[str, Any]]:
    """A function that nests a layout's values into its document.

    The shape of the document is fixed by the layout, so it is written once as one nested
    literal (``{"type": tag, "round": v[3], "seats": [{"hand": v[7], ...}, ...]}``) and
    compiled: a whole view is then built in one expression, with no walk over the paths.
    The keys are the layout's own path tokens (written out with ``repr``)."""
    shape: dict[str, Any] = {}
    for index, keys in enumerate(paths):
        node: Any = shape
        for key, after in zip(keys, keys[1:], strict=False):
            node = _child(node, key, after)
        _put(node, keys[-1], _Leaf(index))
    source = "{'type': tag, " + _literal(shape)[1:] if shape else "{'type': tag}"
    built: Callable[[Values], dict[str, Any]] = eval(f"lambda v: {source}", {"tag": tag})
    return built


def _literal(node: Any) -> str:
    if isinstance(node, _Leaf):
        return f"v[{node.index}]"
    if isinstance(node, list):
        return "[" + ", ".join(map(_literal, node)) + "]"
    return "{" + ", ".join(f"{key!r}: {_literal(value)}" for key, value in node.items()) + "}"


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
