"""Hypothesis strategies for any protocol type, built from msgspec's type information.

``st.from_type`` does not understand msgspec structs and constraints, so each
strategy follows the type as msgspec sees it (lengths, bounds, patterns, tags).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC
from typing import Any

import msgspec.inspect as mi
from hypothesis import strategies as st

MAX_ITEMS = 3
_INT64 = 2**63 - 1

_json_leaf = (
    st.none()
    | st.booleans()
    | st.integers(-_INT64, _INT64)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8)
)
_json = st.recursive(
    _json_leaf,
    lambda inner: (
        st.lists(inner, max_size=MAX_ITEMS) | st.dictionaries(st.text(max_size=6), inner, max_size=MAX_ITEMS)
    ),
    max_leaves=6,
)


def for_type(type_: Any) -> st.SearchStrategy[Any]:
    """A strategy of valid values of ``type_`` (a struct, a union, an annotated type...)."""
    return _strategy(mi.type_info(type_))


def _strategy(info: mi.Type) -> st.SearchStrategy[Any]:
    handler = _HANDLERS.get(type(info))
    if handler is None:
        raise NotImplementedError(f"no strategy for {info!r}")
    return handler(info)


def _struct(info: mi.StructType) -> st.SearchStrategy[Any]:
    fields = {f.name: _field(f) for f in info.fields}
    if not hasattr(info.cls, "__post_init__"):
        return st.builds(info.cls, **fields)
    # A struct that checks its fields together (a create-game body): keep the values it accepts.
    # Its optional fields are left at their default half the time, or few values would pass.
    fields = {f.name: _maybe_default(f) for f in info.fields}
    return st.builds(_or_none(info.cls), **fields).filter(lambda value: value is not None)


def _maybe_default(field: mi.Field) -> st.SearchStrategy[Any]:
    if field.required:
        return _field(field)
    default = field.default if field.default is not mi.NODEFAULT else field.default_factory()
    return st.one_of(st.just(default), _field(field))


def _or_none(cls: type) -> Any:
    def build(**fields: Any) -> Any:
        try:
            return cls(**fields)
        except ValueError:
            return None

    return build


def _field(field: mi.Field) -> st.SearchStrategy[Any]:
    return st.deferred(lambda: _strategy(field.type))


def _int(info: mi.IntType) -> st.SearchStrategy[int]:
    low = info.ge if info.ge is not None else (info.gt + 1 if info.gt is not None else -_INT64)
    high = info.le if info.le is not None else (info.lt - 1 if info.lt is not None else _INT64)
    return st.integers(low, high)


def _float(info: mi.FloatType) -> st.SearchStrategy[float]:
    return st.floats(
        min_value=info.ge if info.ge is not None else info.gt,
        max_value=info.le if info.le is not None else info.lt,
        exclude_min=info.gt is not None,
        exclude_max=info.lt is not None,
        allow_nan=False,
        allow_infinity=False,
    )


def _str(info: mi.StrType) -> st.SearchStrategy[str]:
    low, high = info.min_length or 0, info.max_length if info.max_length is not None else 24
    if info.pattern is None:
        return st.text(min_size=low, max_size=min(high, low + 24))
    return st.from_regex(info.pattern, fullmatch=True).filter(lambda s: low <= len(s) <= high)


def _seq(info: mi.ListType | mi.VarTupleType) -> st.SearchStrategy[Any]:
    low = info.min_length or 0
    items = st.lists(_strategy(info.item_type), min_size=low, max_size=max(low, MAX_ITEMS))
    return items.map(tuple) if isinstance(info, mi.VarTupleType) else items


def _dict(info: mi.DictType) -> st.SearchStrategy[dict[Any, Any]]:
    return st.dictionaries(_strategy(info.key_type), _strategy(info.value_type), max_size=MAX_ITEMS)


_HANDLERS: dict[type, Callable[[Any], st.SearchStrategy[Any]]] = {
    mi.StructType: _struct,
    mi.IntType: _int,
    mi.FloatType: _float,
    mi.StrType: _str,
    mi.ListType: _seq,
    mi.VarTupleType: _seq,
    mi.DictType: _dict,
    mi.AnyType: lambda _: _json,
    mi.NoneType: lambda _: st.none(),
    mi.BoolType: lambda _: st.booleans(),
    mi.LiteralType: lambda i: st.sampled_from(i.values),
    mi.EnumType: lambda i: st.sampled_from(list(i.cls)),
    mi.UnionType: lambda i: st.one_of([_strategy(t) for t in i.types]),
    mi.TupleType: lambda i: st.tuples(*[_strategy(t) for t in i.item_types]),
    mi.Metadata: lambda i: _strategy(i.type),
    mi.DateTimeType: lambda _: st.datetimes(timezones=st.just(UTC)),
}
