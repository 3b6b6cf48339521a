"""The JSON Patch (RFC 6902) between two versions of a view message.

:func:`diff` is sized by the change, not by the document: it skips equal subtrees
(objects that are the same Python object first, then equal values) and descends only
into what differs. A record of scalars (a slot, a board piece) that changed is replaced
whole. An array keeps its common start and end; one that only lost or only gained
elements, or changed a few in place, gets removals, insertions or replacements of
those; when these would say more than the new array itself (most of it changed, or a
short list of ids), the array is replaced whole.

This module is the largest piece of a move's computation in the server: a compiled
build (``PACKPLAY_COMPILE=1``, see server/README.md) compiles it. It holds no message types
(those are in :mod:`packplay_protocol.patch`), so that compiling it changes no schema.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any

import msgspec
import msgspec.inspect
from msgspec.structs import astuple

from packplay_protocol.patch import PatchOp, escape


def diff(old: Any, new: Any, path: str = "") -> list[PatchOp]:
    """The operations that turn ``old`` into ``new``, at ``path`` in the document (a JSON
    Pointer: the whole document by default).

    Both are JSON values, or typed messages (msgspec structs, tuples) that encode as
    JSON values: a struct is an object of its fields (its tag, if any, is the same on
    both sides or the whole struct is replaced). Values in the operations are taken
    from ``new`` as they are (structs encode as objects).

    A member whose old and new values are equal containers is left alone: Python
    calls ``[1]`` and ``[True]`` equal, which JSON does not, so a change of a value's
    JSON type deep inside an otherwise equal container is not seen. The protocol
    never changes the JSON type of a field from one version to the next.
    """
    ops: list[PatchOp] = []
    if old is not new:
        _diff(old, new, path, ops)
    return ops


_ARRAYS = (list, tuple)
_FEW = 2
"""An array of objects with more changed elements than this is replaced whole."""
_SCALARS = frozenset((str, int, float, bool, type(None)))


def _same(a: Any, b: Any) -> bool:
    # JSON tells true from 1 and 1 from 1.0, Python's == does not: scalars must match in type.
    return a is b or (a == b and (type(a) is type(b) or type(a) not in _SCALARS))


def _diff(old: Any, new: Any, path: str, ops: list[PatchOp]) -> None:
    """``old`` and ``new`` differ (the caller checked); the operations between them."""
    kind = type(old)
    if kind is dict and type(new) is dict:
        _diff_object(old, new, path, ops)
    elif kind in _ARRAYS and type(new) in _ARRAYS:
        _diff_array(old, new, path, ops)
    elif kind is type(new) and kind not in _SCALARS and isinstance(old, msgspec.Struct):
        _diff_struct(old, new, path, ops)
    elif not _same(old, new):
        ops.append(PatchOp(op="replace", path=path, value=new))


def _diff_object(old: dict[str, Any], new: dict[str, Any], path: str, ops: list[PatchOp]) -> None:
    for key in old:
        if key not in new:
            ops.append(PatchOp(op="remove", path=f"{path}/{escape(key)}"))
    for key, value in new.items():
        before = old.get(key, _MISSING)
        if before is value:
            continue
        if before is _MISSING:
            ops.append(PatchOp(op="add", path=f"{path}/{escape(key)}", value=value))
        elif before != value or (type(before) is not type(value) and type(before) in _SCALARS):
            _diff(before, value, f"{path}/{escape(key)}", ops)


def _diff_struct(old: msgspec.Struct, new: msgspec.Struct, path: str, ops: list[PatchOp]) -> None:
    names = _names(type(old))
    if names is _WHOLE:
        # A record of scalars (a slot, a piece, an action) is replaced whole: about the bytes
        # of its changed fields, at a fraction of the work.
        ops.append(PatchOp(op="replace", path=path, value=new))
        return
    if not names:
        before, after = msgspec.to_builtins(old), msgspec.to_builtins(new)
        if not _same(before, after):
            _diff(before, after, path, ops)
        return
    for name, was, now in zip(names, astuple(old), astuple(new), strict=True):
        if was is not now and (was != now or (type(was) is not type(now) and type(was) in _SCALARS)):
            _diff(was, now, f"{path}/{name}", ops)


def _names(kind: type[msgspec.Struct]) -> tuple[str, ...]:
    names = _WIRE_NAMES.get(kind)
    if names is None:
        names = _WIRE_NAMES[kind] = _wire_names(kind)
    return names


def _wire_names(kind: type[msgspec.Struct]) -> tuple[str, ...]:
    """Each field's name on the wire, escaped for a path; none for a struct that omits
    fields at their default or encodes as an array (its plain form is compared instead);
    :data:`_WHOLE` for a record of scalars."""
    config = kind.__struct_config__
    if config.omit_defaults or config.array_like:
        return ()
    info = msgspec.inspect.type_info(kind)
    if isinstance(info, msgspec.inspect.StructType) and all(_scalar_type(f.type) for f in info.fields):
        return _WHOLE
    return tuple(escape(name) for name in kind.__struct_encode_fields__)


def _scalar_type(info: msgspec.inspect.Type) -> bool:
    if isinstance(info, msgspec.inspect.Metadata):  # a constrained or described type
        return _scalar_type(info.type)
    if isinstance(info, msgspec.inspect.UnionType):
        return all(map(_scalar_type, info.types))
    return isinstance(info, _SCALAR_TYPES)


_SCALAR_TYPES = (
    msgspec.inspect.IntType,
    msgspec.inspect.FloatType,
    msgspec.inspect.StrType,
    msgspec.inspect.BoolType,
    msgspec.inspect.NoneType,
    msgspec.inspect.LiteralType,
    msgspec.inspect.EnumType,
)
_WHOLE: tuple[str, ...] = ("",)
_WIRE_NAMES: dict[type, tuple[str, ...]] = {}


class _Missing:
    pass


_MISSING = _Missing()


def _diff_array(old: Sequence[Any], new: Sequence[Any], path: str, ops: list[PatchOp]) -> None:
    if not old and not new:
        return  # a list and a tuple, both empty: the same JSON
    sample = new[0] if new else old[0]
    if type(sample) in _SCALARS:
        _diff_flat(old, new, path, ops, True)
        return
    if isinstance(sample, msgspec.Struct) and _names(type(sample)) is _WHOLE:
        _diff_flat(old, new, path, ops, False)
        return
    start, old_end, new_end = _trim(old, new)
    old_mid, new_mid = old[start:old_end], new[start:new_end]
    if len(old_mid) == len(new_mid):
        changed = [i for i, pair in enumerate(zip(old_mid, new_mid, strict=True)) if not _same(*pair)]
        if _finer(len(changed), len(new), False):
            for offset in changed:
                _diff(old_mid[offset], new_mid[offset], f"{path}/{start + offset}", ops)
            return
    elif _resized(old_mid, new_mid, path, ops, start, len(new), False, _same):
        return
    ops.append(PatchOp(op="replace", path=path, value=new))


def _diff_flat(old: Sequence[Any], new: Sequence[Any], path: str, ops: list[PatchOp], scalars: bool) -> None:
    """An array of ids or numbers (``scalars``), or of records replaced whole: the same
    operations as for other arrays, found with plain comparisons (such an array holds one
    type: a change of type replaces it)."""
    size = len(new)
    kind = type(new[0]) if new else type(old[0])
    if (scalars and size <= _FEW + 1) or (old and type(old[0]) is not kind):
        # A short list of ids or numbers: one replace says it in about the bytes of the
        # finer operations, at a fraction of the cost of finding them.
        if len(old) != size or any(a != b or type(a) is not type(b) for a, b in zip(old, new, strict=True)):
            ops.append(PatchOp(op="replace", path=path, value=new))
        return
    if len(old) == size:
        changed = [i for i, (a, b) in enumerate(zip(old, new, strict=True)) if a != b]
        if not changed:
            return
        if _finer(len(changed), size, scalars):
            ops.extend(PatchOp(op="replace", path=f"{path}/{i}", value=new[i]) for i in changed)
        else:
            ops.append(PatchOp(op="replace", path=path, value=new))
        return
    if not _resized(old, new, path, ops, 0, size, scalars, operator.eq):
        ops.append(PatchOp(op="replace", path=path, value=new))


def _resized(
    old: Sequence[Any],
    new: Sequence[Any],
    path: str,
    ops: list[PatchOp],
    start: int,
    size: int,
    scalars: bool,
    same: Callable[[Any, Any], bool],
) -> bool:
    """Removals or insertions, when ``new`` is ``old`` with elements left out or put in (the
    two of different lengths, ``start`` elements into an array of ``size`` now) and they say
    less than the whole array; whether they were found."""
    longer, shorter = (old, new) if len(old) > len(new) else (new, old)
    extra = _extra_positions(shorter, longer, same)
    if extra is None or not _finer(len(extra), size, scalars):
        return False
    if longer is old:
        ops.extend(PatchOp(op="remove", path=f"{path}/{start + index}") for index in reversed(extra))
    else:
        ops.extend(PatchOp(op="add", path=f"{path}/{start + index}", value=new[index]) for index in extra)
    return True


def _extra_positions(
    short: Sequence[Any], long: Sequence[Any], same: Callable[[Any, Any], bool]
) -> list[int] | None:
    """Where ``long`` holds what ``short`` does not, if ``short`` is ``long`` with those left
    out (in order); None otherwise."""
    extra: list[int] = []
    index = 0
    for position, item in enumerate(long):
        if index < len(short) and same(short[index], item):
            index += 1
        else:
            extra.append(position)
    return extra if index == len(short) else None


def _finer(count: int, size: int, scalars: bool) -> bool:
    """Whether ``count`` operations on single elements say less than replacing the whole
    array, ``size`` elements long."""
    if scalars:  # an operation takes about the bytes of four ids
        return 4 * count < size
    return count <= _FEW or 2 * count < size


def _trim(old: Sequence[Any], new: Sequence[Any]) -> tuple[int, int, int]:
    """The common start's length and where the common end begins in each array."""
    limit = min(len(old), len(new))
    start = 0
    while start < limit and _same(old[start], new[start]):
        start += 1
    old_end, new_end = len(old), len(new)
    while old_end > start and new_end > start and _same(old[old_end - 1], new[new_end - 1]):
        old_end -= 1
        new_end -= 1
    return start, old_end, new_end
