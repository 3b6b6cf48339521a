"""The card catalog: the sets Packplay can open boosters of, read from compact set files.

Each set lives in one JSON file (``<CODE>.json``) written by :mod:`packplay.cards.importer`:
the card facts and, when known, the set's draft-booster collation. The package ships
MID, VOW, MH2 and ZNR; ``PACKPLAY_CARD_DIR`` (or ``extra_dirs``) adds user-imported sets.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, TypeVar, cast

import msgspec

from packplay.cards.model import Card

FORMAT_VERSION = 1
PACKAGED_DIR = Path(__file__).with_name("data")
T = TypeVar("T")
CARD_DIR_ENV = "PACKPLAY_CARD_DIR"


class Sheet(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """A print sheet: collector numbers with integer weights."""

    cards: tuple[tuple[str, int], ...]
    foil: bool = False
    balance_colors: bool = False


class BoosterLayout(msgspec.Struct, frozen=True, kw_only=True):
    """One booster variant: how many cards of each sheet, and its relative weight."""

    weight: int
    contents: dict[str, int]


class Collation(msgspec.Struct, frozen=True, kw_only=True):
    layouts: tuple[BoosterLayout, ...]
    sheets: dict[str, Sheet]


class CardSet(msgspec.Struct, frozen=True, kw_only=True):
    """One set as stored in a set file."""

    format: int = FORMAT_VERSION
    code: str
    name: str
    released: str = ""
    source: str = ""
    cards: tuple[Card, ...]
    collation: Collation | None = None

    def by_number(self) -> dict[str, Card]:
        return {card.number: card for card in self.cards}

    def basics(self) -> list[Card]:
        return [card for card in self.cards if card.basic_land]


class UnknownSetError(LookupError):
    def __init__(self, code: str, known: Iterable[str]) -> None:
        super().__init__(f"unknown set {code!r}; known sets: {', '.join(sorted(known))}")
        self.code = code


_decoder = msgspec.json.Decoder(CardSet)
_encoder = msgspec.json.Encoder()


def read_set_file(path: Path) -> CardSet:
    card_set = _decoder.decode(path.read_bytes())
    return msgspec.structs.replace(card_set, cards=tuple(map(_with_default_layout, card_set.cards)))


_NORMAL = Card(set="", number="", name="", rarity="common").layout
"""The default layout's own string object."""


def _with_default_layout(card: Card) -> Card:
    # msgspec leaves a field out at its default only when it is that very object: a decoded
    # "normal" is another string, and every card would carry "layout":"normal" on the wire.
    if card.layout == _NORMAL and card.layout is not _NORMAL:
        return msgspec.structs.replace(card, layout=_NORMAL)
    return card


def write_set_file(card_set: CardSet, directory: Path) -> Path:
    """Write ``<CODE>.json`` into ``directory``: one card per line, so diffs stay readable."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{card_set.code}.json"
    header = msgspec.structs.replace(card_set, cards=())
    head = _encoder.encode(header).decode()
    lines = ",\n".join(_encoder.encode(card).decode() for card in card_set.cards)
    body = head.replace('"cards":[]', '"cards":[\n' + lines + "\n]", 1)
    path.write_text(body + "\n", encoding="utf-8")
    return path


class Catalog:
    """All known sets, with lookups by set, collector number and name."""

    def __init__(self, sets: Iterable[CardSet]) -> None:
        self._sets: dict[str, CardSet] = {s.code: s for s in sets}
        self._numbers = {code: s.by_number() for code, s in self._sets.items()}
        self._derived: dict[tuple[str, Callable[[CardSet], Any]], Any] = {}

    def __contains__(self, code: object) -> bool:
        return code in self._sets

    def __iter__(self) -> Iterator[CardSet]:
        return iter(self._sets.values())

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(sorted(self._sets))

    def set(self, code: str) -> CardSet:
        """The set with ``code`` (case-insensitive).

        Raises:
            UnknownSetError: no such set is loaded.
        """
        found = self._sets.get(code.upper())
        if found is None:
            raise UnknownSetError(code, self._sets)
        return found

    def card(self, code: str, number: str) -> Card:
        card = self._numbers[self.set(code).code].get(number)
        if card is None:
            raise KeyError(f"{code} has no card number {number}")
        return card

    def basics(self, code: str) -> list[Card]:
        return self.set(code).basics()

    def derived(self, code: str, build: Callable[[CardSet], T]) -> T:
        """``build(set)`` for the set with ``code``, built once and kept with the catalog.

        For lookups that depend only on a set's data (the booster opener's prepared
        print sheets): the sets of a catalog never change, so neither does the result.
        Entries are kept per set and per ``build``.

        Raises:
            UnknownSetError: no such set is loaded.
        """
        card_set = self.set(code)
        key = (card_set.code, build)
        found = self._derived.get(key)
        if found is None:
            found = self._derived[key] = build(card_set)
        return cast(T, found)

    def find(self, name: str) -> list[Card]:
        """Cards whose full or front-face name matches ``name`` (case-insensitive)."""
        wanted = name.casefold()
        return [
            card
            for card_set in self._sets.values()
            for card in card_set.cards
            if wanted in (card.name.casefold(), card.front_name.casefold())
        ]


def card_dirs(extra_dirs: Iterable[Path] = ()) -> list[Path]:
    """Where set files are read from: the packaged data, ``PACKPLAY_CARD_DIR``, extras."""
    dirs = [PACKAGED_DIR]
    env = os.environ.get(CARD_DIR_ENV)
    if env:
        dirs.extend(Path(part) for part in env.split(os.pathsep) if part)
    dirs.extend(extra_dirs)
    return dirs


def load_catalog(extra_dirs: Iterable[Path] = ()) -> Catalog:
    """Load every set file; a later directory overrides a set of an earlier one."""
    sets: dict[str, CardSet] = {}
    for directory in card_dirs(extra_dirs):
        if directory.is_dir():
            for path in sorted(directory.glob("*.json")):
                card_set = read_set_file(path)
                sets[card_set.code] = card_set
    return Catalog(sets.values())


def user_card_dir() -> Path:
    """Where ``packplay cards import`` writes by default."""
    env = os.environ.get(CARD_DIR_ENV)
    if env:
        return Path(env.split(os.pathsep)[0])
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "packplay" / "cards"
