"""Every game's wire types in one table, and the unions the messages carry.

Adding a game to the protocol is one import line below plus its entry in
``_MODULES``; everything else (messages, schemas, specs, vectors) follows.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import ModuleType
from typing import TYPE_CHECKING, Any, Union, get_args

import msgspec

from packplay_protocol.games import base_race, day_night, mishra_factory, wedding_planner
from packplay_protocol.games.common import GameFacts

_MODULES: tuple[ModuleType, ...] = (day_night, mishra_factory, wedding_planner, base_race)


class GameTypes(msgspec.Struct, frozen=True, kw_only=True):
    """One game's wire types: its action structs, its view struct, its event structs, its
    options struct; and its facts (title, player range, default sets)."""

    name: str
    actions: tuple[type[msgspec.Struct], ...]
    view: type[msgspec.Struct]
    events: tuple[type[msgspec.Struct], ...]
    options: type[msgspec.Struct]
    facts: GameFacts


def tag_of(cls: type[msgspec.Struct]) -> str | None:
    """The ``type`` value that identifies a tagged struct on the wire."""
    tag = cls.__struct_config__.tag
    return tag if isinstance(tag, str) else None


def game_types(module: ModuleType) -> GameTypes:
    """Read a game module: ``Action`` (a union), ``View``, ``Event`` (a union),
    ``Options`` (a struct) and ``FACTS``.

    A module without an ``Event`` union contributes every struct it defines whose
    tag starts with ``<game>.`` and that is neither an action nor the view.
    """
    name = module.__name__.rsplit(".", 1)[-1]
    actions = _members(module.Action)
    view: type[msgspec.Struct] = module.View
    event_union = getattr(module, "Event", None)
    events = _members(event_union) if event_union is not None else _tagged_events(module, name, actions, view)
    return GameTypes(
        name=name, actions=actions, view=view, events=events, options=module.Options, facts=module.FACTS
    )


def _members(union: Any) -> tuple[type[msgspec.Struct], ...]:
    return tuple(get_args(union)) or (union,)


def _tagged_events(
    module: ModuleType, name: str, actions: tuple[type[msgspec.Struct], ...], view: type[msgspec.Struct]
) -> tuple[type[msgspec.Struct], ...]:
    def is_event(obj: Any) -> bool:
        if not (isinstance(obj, type) and issubclass(obj, msgspec.Struct)):
            return False
        tag = tag_of(obj)
        own = obj.__module__ == module.__name__ and tag is not None and tag.startswith(f"{name}.")
        return own and obj not in actions and obj is not view

    return tuple(obj for obj in vars(module).values() if is_event(obj))


def union_of(types: tuple[type[msgspec.Struct], ...]) -> Any:
    """The union of ``types``: a type msgspec decodes by the ``type`` tag."""
    # Without any game module the slot accepts anything.
    return Union[types] if types else Any  # noqa: UP007


GAMES: Mapping[str, GameTypes] = {t.name: t for t in map(game_types, _MODULES)}
"""Game name -> its wire types, for every game of this protocol version."""

ACTION_TYPES = tuple(a for g in GAMES.values() for a in g.actions)
VIEW_TYPES = tuple(g.view for g in GAMES.values())
EVENT_TYPES = tuple(e for g in GAMES.values() for e in g.events)

ANY_ACTION: Any = union_of(ACTION_TYPES)
ANY_VIEW: Any = union_of(VIEW_TYPES)
ANY_EVENT: Any = union_of(EVENT_TYPES)

if TYPE_CHECKING:
    AnyAction = Any
    AnyView = Any
    AnyEvent = Any
else:
    AnyAction = ANY_ACTION
    AnyView = ANY_VIEW
    AnyEvent = ANY_EVENT
