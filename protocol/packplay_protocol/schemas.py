"""JSON Schema of every wire type, with stable public names shared by all documents.

Game types are named ``<game>.<Class>`` (``mishra_factory.Take``); protocol types by
their class name. Every document (schema files, OpenAPI, AsyncAPI) uses these names.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from functools import cache
from typing import Any

import msgspec
import msgspec.inspect as mi

from packplay_protocol import catalog, from_client, problems, rest, to_client, tournaments

_PLACEHOLDER = "#/$pp/"
JSON_SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"

REST_TYPES: tuple[Any, ...] = (
    *rest.CREATE_GAME_TYPES.values(),
    rest.GameType,
    rest.GameTypeList,
    rest.CreatedGame,
    rest.GameSummary,
    rest.GameList,
    rest.JoinSeat,
    rest.SeatGrant,
    rest.GameSnapshot,
    rest.Replay,
    rest.Health,
    rest.Readiness,
    problems.Problem,
    tournaments.CreateTournament,
    tournaments.CreatedTournament,
    tournaments.TournamentSummary,
    tournaments.Tournament,
    tournaments.RegisterPlayer,
    tournaments.Registration,
    tournaments.Standings,
    tournaments.Pairings,
    tournaments.MyTable,
)
ROOT_TYPES: tuple[Any, ...] = (
    from_client.ClientMessage,
    to_client.ServerMessage,
    *from_client.CLIENT_MESSAGES,
    *to_client.SERVER_MESSAGES,
    rest.CreateGame,
    *REST_TYPES,
    *(catalog.union_of(g.actions) for g in catalog.GAMES.values()),
    *(catalog.union_of(g.events) for g in catalog.GAMES.values()),
    *catalog.ACTION_TYPES,
    *catalog.VIEW_TYPES,
    *catalog.EVENT_TYPES,
)
"""Every type a document may refer to; names are computed over all of them at once."""


class SchemaSet(msgspec.Struct, frozen=True):
    """Schemas of ``ROOT_TYPES`` (refs into ``components``) and the components by public name."""

    roots: dict[Any, dict[str, Any]]
    components: dict[str, dict[str, Any]]


@cache
def schema_set() -> SchemaSet:
    """The schemas of every root type, with public component names."""
    refs, comps = msgspec.json.schema_components(ROOT_TYPES, ref_template=_PLACEHOLDER + "{name}")
    # Defaults come back as Python values (tuples); keep only JSON values.
    refs, comps = msgspec.json.decode(msgspec.json.encode((refs, comps)))
    names = _public_names()
    names |= {k: _generic_base(k) for k in comps if k not in names and _generic_base(k) != k}
    components = {names.get(k, k): _renamed(v, names) for k, v in comps.items()}
    for name, component in components.items():
        if isinstance(component.get("title"), str):
            component["title"] = title_of(name)
    roots = {t: _renamed(r, names) for t, r in zip(ROOT_TYPES, refs, strict=True)}
    return SchemaSet(roots=roots, components=components)


def title_of(name: str) -> str:
    """A component's title, unique across games: `day_night.View` is `DayNightView`.

    Code generators name their classes after titles, so two games' `View` need two."""
    game, dot, rest_ = name.rpartition(".")
    base = _generic_base(rest_)
    if not dot:
        return base
    return "".join(word.capitalize() for word in re.split(r"[._]", game)) + base


def with_refs(schema: Any, ref_prefix: str) -> Any:
    """``schema`` with its component references pointing under ``ref_prefix``."""
    if isinstance(schema, dict):
        return {k: with_refs(v, ref_prefix) for k, v in schema.items()}
    if isinstance(schema, list):
        return [with_refs(v, ref_prefix) for v in schema]
    if isinstance(schema, str) and schema.startswith(_PLACEHOLDER):
        return ref_prefix + schema.removeprefix(_PLACEHOLDER)
    return schema


def standalone(root: Any, title: str, description: str = "") -> dict[str, Any]:
    """A self-contained JSON Schema (2020-12) document for one root type."""
    schemas = schema_set()
    start = schemas.roots[root]
    defs = components_for([root])
    doc: dict[str, Any] = {"$schema": JSON_SCHEMA_DIALECT, "title": title}
    if description:
        doc["description"] = description
    doc |= start
    if defs:
        doc["$defs"] = defs
    return with_refs(doc, "#/$defs/")  # type: ignore[no-any-return]


def components_for(roots: Iterable[Any]) -> dict[str, dict[str, Any]]:
    """The components reachable from ``roots`` (root types), by public name."""
    schemas = schema_set()
    names: set[str] = set()
    for root in roots:
        names |= _reachable(schemas.roots[root], schemas.components)
    return {name: schemas.components[name] for name in sorted(names)}


def inline(type_: Any) -> dict[str, Any]:
    """The schema of a simple (component-free) type such as a path parameter."""
    schema: dict[str, Any] = msgspec.json.schema(type_)
    return schema


def _reachable(schema: Any, components: dict[str, Any]) -> set[str]:
    seen: set[str] = set()
    pending = list(_refs_in(schema))
    while pending:
        name = pending.pop()
        if name not in seen:
            seen.add(name)
            pending.extend(_refs_in(components[name]))
    return seen


def _refs_in(schema: Any) -> Iterator[str]:
    if isinstance(schema, dict):
        ref = schema.get("$ref")
        if isinstance(ref, str) and ref.startswith(_PLACEHOLDER):
            yield ref.removeprefix(_PLACEHOLDER)
        for value in schema.values():
            yield from _refs_in(value)
    elif isinstance(schema, list):
        for value in schema:
            yield from _refs_in(value)


def _renamed(schema: Any, names: dict[str, str]) -> Any:
    if isinstance(schema, dict):
        return {k: _renamed(v, names) for k, v in schema.items()}
    if isinstance(schema, list):
        return [_renamed(v, names) for v in schema]
    if isinstance(schema, str) and schema.startswith(_PLACEHOLDER):
        name = schema.removeprefix(_PLACEHOLDER)
        return _PLACEHOLDER + names.get(name, name)
    return schema


def _generic_base(name: str) -> str:
    """A generic struct's name without its parameters (``LegalActions[...]`` -> ``LegalActions``)."""
    return re.split(r"\[|_typing\.", name, maxsplit=1)[0]


@cache
def always_sent() -> frozenset[str]:
    """Public names of the structs whose encoding holds every field, defaults included
    (every struct but those that leave out fields at their default)."""
    classes = _named_classes(ROOT_TYPES)
    own_counts = Counter(cls.__name__ for cls in classes if _game_of(cls) is None)
    return frozenset(
        _public_name(cls, own_counts)
        for cls in classes
        if isinstance(cls, type)
        and issubclass(cls, msgspec.Struct)
        and not cls.__struct_config__.omit_defaults
    )


def _public_names() -> dict[str, str]:
    """msgspec's component name -> ours, for every named class reachable from the roots."""
    classes = _named_classes(ROOT_TYPES)
    all_counts = Counter(cls.__name__ for cls in classes)
    own_counts = Counter(cls.__name__ for cls in classes if _game_of(cls) is None)
    return {_msgspec_name(cls, all_counts): _public_name(cls, own_counts) for cls in classes}


def _msgspec_name(cls: type, counts: Counter[str]) -> str:
    if counts[cls.__name__] == 1:
        return _normalize(cls.__name__)
    return _normalize(f"{cls.__module__}.{cls.__qualname__}")


def _public_name(cls: type, own_counts: Counter[str]) -> str:
    game = _game_of(cls)
    if game is not None:
        return f"{game}.{cls.__name__}"
    if own_counts[cls.__name__] == 1:
        return cls.__name__
    return f"{cls.__module__.rsplit('.', 1)[-1]}.{cls.__name__}"


def _game_of(cls: type) -> str | None:
    module = cls.__module__.rsplit(".", 1)[-1]
    return module if module in catalog.GAMES else None


def _normalize(name: str) -> str:
    return re.sub(r"[^a-zA-Z0-9.\-_]", "_", name)


def _named_classes(types: Sequence[Any]) -> list[type]:
    found: dict[type, None] = {}
    for info in mi.multi_type_info(types):
        _collect(info, found)
    return list(found)


def _collect(info: mi.Type, found: dict[type, None]) -> None:
    if isinstance(info, mi.StructType | mi.EnumType):
        if info.cls in found:
            return
        found[info.cls] = None
    for child in _children(info):
        _collect(child, found)


def _children(info: mi.Type) -> Sequence[mi.Type]:
    if isinstance(info, mi.StructType):
        return [f.type for f in info.fields]
    if isinstance(info, mi.UnionType):
        return list(info.types)
    if isinstance(info, mi.ListType | mi.VarTupleType | mi.SetType | mi.FrozenSetType):
        return [info.item_type]
    if isinstance(info, mi.TupleType):
        return list(info.item_types)
    if isinstance(info, mi.DictType):
        return [info.key_type, info.value_type]
    if isinstance(info, mi.Metadata):
        return [info.type]
    return []
