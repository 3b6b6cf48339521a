"""Read the card data people have (MTGJSON set files, Scryfall card JSON) into set files.

Only facts are kept: set, collector number, name, rarity, layout, front-face colors,
mana value, type line and type words, power, toughness, loyalty, basic-land flag,
and, from MTGJSON, the draft-booster collation.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import msgspec

from packplay.cards.catalog import BoosterLayout, CardSet, Collation, Sheet
from packplay.cards.model import COLOR_ORDER, Card, Color, Rarity

SUPERTYPES = frozenset({"Basic", "Legendary", "Snow", "World", "Ongoing", "Elite", "Host"})
NON_CARD_LAYOUTS = frozenset(
    {"token", "double_faced_token", "emblem", "art_series", "vanguard", "scheme", "planar", "reversible_card"}
)
RARITIES: Mapping[str, Rarity] = {
    "common": "common",
    "uncommon": "uncommon",
    "rare": "rare",
    "mythic": "mythic",
    "special": "special",
    "bonus": "special",
}
ONE_FACE_LAYOUTS = frozenset({"split", "aftermath"})
"""Layouts whose halves share one physical face: colors and types are the union of the halves."""
_DASHES = re.compile(r"\s+[—-]\s+")


class ImportFormatError(ValueError):
    """The file is neither an MTGJSON set file nor Scryfall card JSON."""


def import_file(path: Path) -> list[CardSet]:
    """Read one file in either format; return the sets it holds."""
    try:
        document = msgspec.json.decode(path.read_bytes())
    except msgspec.DecodeError as exc:
        raise ImportFormatError(f"{path}: not JSON ({exc})") from exc
    return import_document(document, source=path.name)


def import_document(document: Any, source: str = "") -> list[CardSet]:
    if isinstance(document, dict) and ("data" in document or "cards" in document):
        root = document.get("data", document)
        if isinstance(root, dict) and isinstance(root.get("cards"), list):
            return [from_mtgjson(root, source)]
    scryfall = document.get("data") if isinstance(document, dict) else document
    if isinstance(scryfall, list) and all(isinstance(c, dict) and "collector_number" in c for c in scryfall):
        return from_scryfall(scryfall, source)
    raise ImportFormatError(f"{source or 'input'}: neither an MTGJSON set file nor Scryfall card JSON")


def _colors(values: Iterable[str] | None) -> tuple[Color, ...]:
    present = set(values or ())
    return tuple(c for c in COLOR_ORDER if c in present)


def _mana_value(value: Any) -> int | float:
    number = float(value or 0)
    return int(number) if number.is_integer() else number


def _card(fields: dict[str, Any]) -> Card:
    return Card(
        **{k: v for k, v in fields.items() if v is not None or k in ("power", "toughness", "loyalty")}
    )


# --- MTGJSON -----------------------------------------------------------------------------------


def from_mtgjson(root: Mapping[str, Any], source: str = "") -> CardSet:
    """An MTGJSON v5 set file (``data`` object, or the same fields at the top level)."""
    meta = root.get("set", root)
    code = str(meta.get("code") or root.get("code")).upper()
    base_size = int(meta.get("baseSetSize") or 0)
    printed = [c for c in root["cards"] if not c.get("isOnlineOnly")]
    fronts = [_merge_halves(c, printed) if c.get("layout") in ONE_FACE_LAYOUTS else c for c in printed]
    fronts = [c for c in fronts if c.get("side") in (None, "a")]
    kept = _mtgjson_rows(fronts, base_size)
    cards = tuple(_mtgjson_card(c, code) for c in sorted(kept, key=_number_key))
    booster = (root.get("booster") or {}).get("default")
    collation = _mtgjson_collation(booster, fronts, cards) if booster else None
    return CardSet(
        code=code,
        name=str(meta.get("name", code)),
        released=str(meta.get("releaseDate", "")),
        source=source,
        cards=cards,
        collation=collation,
    )


def _number_key(card: Mapping[str, Any]) -> tuple[int, str]:
    digits = re.match(r"\d+", str(card["number"]))
    return (int(digits.group()) if digits else 1 << 30, str(card["number"]))


def _is_main(card: Mapping[str, Any], base_size: int) -> bool:
    number = str(card["number"])
    return number.isdigit() and (base_size == 0 or int(number) <= base_size)


def _is_basic(card: Mapping[str, Any]) -> bool:
    return "Basic" in card.get("supertypes", ()) and "Land" in card.get("types", ())


def _mtgjson_rows(fronts: list[dict[str, Any]], base_size: int) -> list[dict[str, Any]]:
    """The main set; plus, when it has no basics, the set's own non-promo basics beyond it."""
    main = [c for c in fronts if _is_main(c, base_size)]
    if any(_is_basic(c) for c in main):
        return main
    extra_basics = [
        c
        for c in fronts
        if _is_basic(c) and not _is_main(c, base_size) and str(c["number"]).isdigit()
        if not c.get("isPromo") and not c.get("isStarter")
    ]
    return main + extra_basics


def _merge_halves(card: dict[str, Any], printed: list[dict[str, Any]]) -> dict[str, Any]:
    if card.get("side") != "a":
        return card
    halves = [c for c in printed if c.get("number") == card.get("number") and c.get("name") == card["name"]]
    halves.sort(key=lambda c: str(c.get("side")))
    merged = dict(card)
    merged["colors"] = [color for half in halves for color in half.get("colors", ())]
    merged["type"] = " // ".join(str(half.get("type", "")) for half in halves)
    for key in ("supertypes", "types", "subtypes"):
        merged[key] = list(dict.fromkeys(word for half in halves for word in half.get(key, ())))
    return merged


def _mtgjson_card(c: Mapping[str, Any], code: str) -> Card:
    return _card(
        {
            "set": code,
            "number": str(c["number"]),
            "name": c["name"],
            "rarity": RARITIES.get(c.get("rarity", "common"), "special"),
            "layout": c.get("layout", "normal"),
            "colors": _colors(c.get("colors")),
            "mana_value": _mana_value(c.get("manaValue", c.get("convertedManaCost"))),
            "type_line": c.get("type", ""),
            "supertypes": tuple(c.get("supertypes", ())),
            "types": tuple(c.get("types", ())),
            "subtypes": tuple(c.get("subtypes", ())),
            "power": c.get("power"),
            "toughness": c.get("toughness"),
            "loyalty": c.get("loyalty"),
            "basic_land": _is_basic(c),
        }
    )


def _mtgjson_collation(
    booster: Mapping[str, Any], fronts: list[dict[str, Any]], cards: tuple[Card, ...]
) -> Collation:
    numbers_by_uuid = _uuid_to_kept_number(fronts, cards)
    sheets = {
        name: Sheet(
            cards=tuple(_sheet_members(sheet["cards"], numbers_by_uuid)),
            foil=bool(sheet.get("foil")),
            balance_colors=bool(sheet.get("balanceColors")),
        )
        for name, sheet in booster["sheets"].items()
    }
    layouts = tuple(
        BoosterLayout(weight=int(b["weight"]), contents={k: int(v) for k, v in b["contents"].items()})
        for b in booster["boosters"]
    )
    return Collation(layouts=layouts, sheets=sheets)


def _uuid_to_kept_number(fronts: list[dict[str, Any]], cards: tuple[Card, ...]) -> dict[str, str]:
    """Sheet members are printings; a variant printing maps to the kept card of the same name."""
    kept_numbers = {card.number for card in cards}
    first_by_name: dict[str, str] = {}
    for card in cards:
        first_by_name.setdefault(card.name, card.number)
    mapping: dict[str, str] = {}
    for printing in fronts:
        number = str(printing["number"])
        target = number if number in kept_numbers else first_by_name.get(printing["name"])
        if target is not None:
            mapping[printing["uuid"]] = target
    return mapping


def _sheet_members(members: Mapping[str, int], numbers_by_uuid: Mapping[str, str]) -> list[tuple[str, int]]:
    weights: dict[str, int] = defaultdict(int)
    for uuid, weight in members.items():
        number = numbers_by_uuid.get(uuid)
        if number is not None:
            weights[number] += int(weight)
    return sorted(weights.items(), key=lambda item: _number_key({"number": item[0]}))


# --- Scryfall ----------------------------------------------------------------------------------


def from_scryfall(objects: list[dict[str, Any]], source: str = "") -> list[CardSet]:
    """Scryfall card objects (bulk data array, or a search result's ``data``), grouped by set.

    Scryfall has no collation, so these sets open the generic booster layout.
    """
    by_set: dict[str, list[dict[str, Any]]] = defaultdict(list)
    names: dict[str, str] = {}
    for obj in objects:
        if obj.get("object", "card") != "card" or obj.get("layout") in NON_CARD_LAYOUTS:
            continue
        if obj.get("digital") or ("games" in obj and "paper" not in obj["games"]):
            continue
        code = str(obj["set"]).upper()
        by_set[code].append(obj)
        names.setdefault(code, str(obj.get("set_name", code)))
    return [
        CardSet(code=code, name=names[code], source=source, cards=_scryfall_cards(objs, code))
        for code, objs in sorted(by_set.items())
    ]


def _scryfall_cards(objects: list[dict[str, Any]], code: str) -> tuple[Card, ...]:
    """One card per name (its lowest collector number), but every basic land printing."""
    seen: set[str] = set()
    cards: list[Card] = []
    for obj in sorted(objects, key=lambda o: _number_key({"number": o["collector_number"]})):
        card = _scryfall_card(obj, code)
        if card.name in seen and not card.basic_land:
            continue
        seen.add(card.name)
        cards.append(card)
    return tuple(cards)


def _scryfall_card(obj: Mapping[str, Any], code: str) -> Card:
    faces = obj.get("card_faces") or []
    split = obj.get("layout") in ("split", "aftermath", "flip", "adventure")
    front = faces[0] if faces and not split else obj
    type_line = str(front.get("type_line") or obj.get("type_line", ""))
    supertypes, types, subtypes = parse_type_line(type_line if not split else obj.get("type_line", ""))
    colors = obj.get("colors") if "colors" in obj and not faces or split else front.get("colors")
    return _card(
        {
            "set": code,
            "number": str(obj["collector_number"]),
            "name": obj["name"],
            "rarity": RARITIES.get(str(obj.get("rarity", "common")), "special"),
            "layout": obj.get("layout", "normal"),
            "colors": _colors(colors if colors is not None else obj.get("colors")),
            "mana_value": _mana_value(obj.get("cmc")),
            "type_line": type_line,
            "supertypes": supertypes,
            "types": types,
            "subtypes": subtypes,
            "power": front.get("power"),
            "toughness": front.get("toughness"),
            "loyalty": front.get("loyalty"),
            "basic_land": "Basic" in supertypes and "Land" in types,
        }
    )


def parse_type_line(type_line: str) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """Split a type line (``Legendary Creature — Elf``; halves joined by `` // ``) into words."""
    supertypes: list[str] = []
    types: list[str] = []
    subtypes: list[str] = []
    for half in type_line.split(" // "):
        parts = _DASHES.split(half, maxsplit=1)
        for word in parts[0].split():
            target = supertypes if word in SUPERTYPES else types
            if word not in target:
                target.append(word)
        if len(parts) > 1:
            subtypes.extend(w for w in parts[1].split() if w not in subtypes)
    return tuple(supertypes), tuple(types), tuple(subtypes)
