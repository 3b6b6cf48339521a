"""``packplay cards``: list, show, open boosters, import sets."""

from __future__ import annotations

import argparse
import secrets
import sys
from pathlib import Path
from typing import Any

import msgspec

from packplay.cards.boosters import open_boosters
from packplay.cards.catalog import Catalog, UnknownSetError, load_catalog, user_card_dir, write_set_file
from packplay.cards.importer import ImportFormatError, import_file
from packplay.cards.model import Card, CardInstance
from packplay.rng import SEED_BITS


def register(commands: Any) -> None:
    parser = commands.add_parser("cards", help="the card catalog and booster generator")
    sub = parser.add_subparsers(dest="cards_command", required=True, metavar="ACTION")

    opened = sub.add_parser("open", help="open seeded boosters of a set")
    opened.add_argument("set")
    opened.add_argument("--seed", type=int, help="same seed, same boosters (default: random)")
    opened.add_argument("--count", type=int, default=1)
    opened.add_argument("--json", action="store_true", help="print a JSON list of boosters")
    opened.set_defaults(handler=open_command)

    listed = sub.add_parser("list", help="list the cards of a set, or the sets")
    listed.add_argument("set", nargs="?")
    listed.set_defaults(handler=list_command)

    shown = sub.add_parser("show", help="show a card's facts by name")
    shown.add_argument("name")
    shown.set_defaults(handler=show_command)

    imported = sub.add_parser("import", help="add sets from an MTGJSON set file or Scryfall card JSON")
    imported.add_argument("files", nargs="+", type=Path)
    imported.add_argument("--out", type=Path, help=f"directory for set files (default {user_card_dir()})")
    imported.set_defaults(handler=import_command)


def _fail(message: str) -> int:
    print(f"packplay: {message}", file=sys.stderr)
    return 2


def open_command(args: argparse.Namespace) -> int:
    seed = args.seed if args.seed is not None else secrets.randbits(SEED_BITS)
    try:
        boosters = open_boosters(load_catalog(), args.set, args.count, seed)
    except UnknownSetError as exc:
        return _fail(str(exc))
    if args.json:
        every_field = [[msgspec.structs.asdict(card) for card in booster] for booster in boosters]
        sys.stdout.write(msgspec.json.encode(every_field).decode() + "\n")
        return 0
    print(f"seed {seed}")
    for index, booster in enumerate(boosters, 1):
        print(f"\nbooster {index} of {args.count} ({args.set.upper()})")
        print(_table(booster))
    return 0


def _table(booster: list[CardInstance]) -> str:
    rows = [("#", "name", "rarity", "colors", "mv", "type", "foil")]
    for card in booster:
        rows.append(
            (
                card.number or "-",
                card.name,
                card.rarity,
                "".join(card.colors) or "-",
                str(card.mana_value),
                card.type_line if card.magic_back else "(no Magic back: set aside)",
                "foil" if card.foil else "",
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join(
        "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip() for row in rows
    )


def list_command(args: argparse.Namespace) -> int:
    catalog = load_catalog()
    if args.set is None:
        for card_set in catalog:
            layout = "collated" if card_set.collation else "generic boosters"
            print(f"{card_set.code}  {card_set.name}  {len(card_set.cards)} cards  {layout}")
        return 0
    try:
        card_set = catalog.set(args.set)
    except UnknownSetError as exc:
        return _fail(str(exc))
    for card in card_set.cards:
        print(f"{card.number:>4}  {card.rarity:<8}  {''.join(card.colors) or '-':<5}  {card.name}")
    return 0


def show_command(args: argparse.Namespace) -> int:
    cards = load_catalog().find(args.name)
    if not cards:
        return _fail(f"no card named {args.name!r}")
    for card in cards:
        print(_describe(card))
    return 0


def _describe(card: Card) -> str:
    facts = msgspec.structs.asdict(card)
    width = max(len(key) for key in facts)
    return "\n".join(f"{key:<{width}}  {_format(value)}" for key, value in facts.items()) + "\n"


def _format(value: object) -> str:
    if isinstance(value, tuple):
        return " ".join(map(str, value)) or "-"
    return "-" if value is None else str(value)


def import_command(args: argparse.Namespace) -> int:
    out = args.out or user_card_dir()
    for path in args.files:
        try:
            sets = import_file(path)
        except (OSError, ImportFormatError) as exc:
            return _fail(str(exc))
        for card_set in sets:
            written = write_set_file(card_set, out)
            kind = "with draft collation" if card_set.collation else "generic boosters"
            print(f"{card_set.code}: {len(card_set.cards)} cards, {kind} -> {written}")
    return 0


__all__ = ["Catalog", "register"]
