"""JSON Patch (RFC 6902): the operations of an update, and applying them.

The server sends each audience the difference between the view message it sent last
and the new one (made by :mod:`packplay_protocol.diff`); clients apply it to their
copy. Only ``add``, ``remove`` and ``replace`` are used, on documents made of JSON
values (objects with string keys, arrays, strings, numbers, booleans, null), so any
RFC 6902 library can apply them. Paths are JSON Pointers (RFC 6901) into the view
message.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import msgspec

Op = Literal["add", "remove", "replace"]


class PatchOp(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One operation of an RFC 6902 JSON Patch.

    `path` is a JSON Pointer into the view message (for example `/view/seats/0/hand/2`
    or `/cards/c4f1e2a9b0`). `add` inserts `value` (into an array before the index,
    or at the end for index `-`; into an object under the key), `remove` deletes what
    `path` points to, `replace` swaps it for `value`. Apply the operations in order.
    """

    op: Op
    path: str
    value: Any = msgspec.UNSET


class PatchError(ValueError):
    """A patch does not fit the document (a path that does not exist, a bad index)."""


def escape(key: str) -> str:
    """A key as a JSON Pointer reference token (RFC 6901: ``~`` and ``/`` escaped)."""
    if "~" in key or "/" in key:
        return key.replace("~", "~0").replace("/", "~1")
    return key


def unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~") if "~" in token else token


def apply(document: Any, ops: Sequence[PatchOp]) -> Any:
    """``document`` with ``ops`` applied in order; it is changed in place and returned.

    The document is JSON as decoded (arrays are lists).

    Raises:
        PatchError: an operation does not fit the document.
    """
    for op in ops:
        document = _apply_one(document, op)
    return document


def _apply_one(document: Any, op: PatchOp) -> Any:
    if op.path == "":
        if op.op == "remove":
            raise PatchError("cannot remove the whole document")
        return op.value
    parent, token = _parent(document, op.path)
    if isinstance(parent, dict):
        _apply_to_object(parent, unescape(token), op)
    elif isinstance(parent, list):
        _apply_to_array(parent, token, op)
    else:
        raise PatchError(f"{op.path}: the parent is not an object or an array")
    return document


def _parent(document: Any, path: str) -> tuple[Any, str]:
    if not path.startswith("/"):
        raise PatchError(f"{path!r} is not a JSON Pointer")
    *steps, last = path[1:].split("/")
    node = document
    for step in steps:
        node = _child(node, step, path)
    return node, last


def _child(node: Any, token: str, path: str) -> Any:
    if isinstance(node, dict):
        key = unescape(token)
        if key not in node:
            raise PatchError(f"{path}: no member {key!r}")
        return node[key]
    if isinstance(node, list):
        return node[_index(node, token, path, allow_end=False)]
    raise PatchError(f"{path}: cannot descend into a scalar")


def _apply_to_object(parent: dict[str, Any], key: str, op: PatchOp) -> None:
    if op.op == "add":
        parent[key] = op.value
    elif key not in parent:
        raise PatchError(f"{op.path}: no member {key!r}")
    elif op.op == "remove":
        del parent[key]
    else:
        parent[key] = op.value


def _apply_to_array(parent: list[Any], token: str, op: PatchOp) -> None:
    if op.op == "add":
        index = len(parent) if token == "-" else _index(parent, token, op.path, allow_end=True)
        parent.insert(index, op.value)
        return
    index = _index(parent, token, op.path, allow_end=False)
    if op.op == "remove":
        del parent[index]
    else:
        parent[index] = op.value


def _index(array: list[Any], token: str, path: str, *, allow_end: bool) -> int:
    if not token.isdigit() or (len(token) > 1 and token[0] == "0"):
        raise PatchError(f"{path}: {token!r} is not an array index")
    index = int(token)
    if index > len(array) or (index == len(array) and not allow_end):
        raise PatchError(f"{path}: index {index} is out of range")
    return index
