"""The importers read MTGJSON set files and Scryfall card JSON into set files."""

from pathlib import Path

import pytest

from packplay.cards.catalog import load_catalog, read_set_file, write_set_file
from packplay.cards.importer import ImportFormatError, import_document, import_file, parse_type_line

DATA = Path(__file__).with_name("data")


def test_scryfall_search_result():
    [card_set] = import_file(DATA / "scryfall_search.json")
    assert card_set.code == "TST" and card_set.collation is None
    by_name = {c.name: c for c in card_set.cards}
    assert "Spirit" not in by_name  # tokens are not cards of a set
    assert [c.number for c in card_set.cards] == ["1", "2", "3", "4", "5", "6"]  # the #301 reprint dropped
    knight = by_name["Glimmer Knight"]
    assert knight.supertypes == ("Legendary",) and knight.subtypes == ("Human", "Knight")
    assert (knight.power, knight.toughness, knight.mana_value) == ("2", "*", 3)
    caller = by_name["Dawn Caller // Dusk Caller"]
    assert caller.colors == ("U",) and caller.type_line == "Creature — Human Wizard"
    assert caller.toughness == "3"
    split = by_name["Spark // Ash"]
    assert split.colors == ("B", "R") and split.types == ("Instant", "Sorcery")
    path = by_name["Hill Path // Sky Path"]
    assert path.is_land and path.colors == ()
    assert by_name["Mountain"].basic_land
    assert by_name["Seer of Ages"].loyalty == "4"


def test_scryfall_bulk_array(tmp_path: Path):
    import json

    bulk = json.loads((DATA / "scryfall_search.json").read_text())["data"]
    [card_set] = import_document(bulk)
    assert len(card_set.cards) == 6


def test_mtgjson_set_file_with_collation():
    [card_set] = import_file(DATA / "mtgjson_set.json")
    assert (card_set.code, card_set.name, card_set.released) == ("TMJ", "Test Junction", "2024-02-02")
    assert [c.number for c in card_set.cards] == ["1", "2", "3", "4"]
    rise = card_set.cards[1]
    assert rise.colors == ("U", "B") and rise.type_line == "Sorcery // Instant"
    acolyte = card_set.cards[2]
    assert acolyte.toughness == "1+*" and acolyte.is_legendary and acolyte.rarity == "mythic"
    collation = card_set.collation
    assert collation is not None
    # the showcase printing u5 counts as the main-set card of the same name
    assert collation.sheets["common"].cards == (("1", 2), ("4", 2))
    assert collation.sheets["rareMythic"].foil
    assert [layout.weight for layout in collation.layouts] == [3, 1]


def test_imported_set_round_trips_and_opens(tmp_path: Path, monkeypatch):
    [card_set] = import_file(DATA / "scryfall_search.json")
    written = write_set_file(card_set, tmp_path)
    assert read_set_file(written) == card_set
    monkeypatch.setenv("PACKPLAY_CARD_DIR", str(tmp_path))
    assert "TST" in load_catalog()


@pytest.mark.parametrize("document", [{"hello": 1}, [1, 2], "text", {"data": {"cards": "no"}}])
def test_unknown_formats_are_refused(document):
    with pytest.raises(ImportFormatError):
        import_document(document)


def test_non_json_file_is_refused(tmp_path: Path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(ImportFormatError, match="not JSON"):
        import_file(bad)


def test_parse_type_line():
    assert parse_type_line("Legendary Enchantment Creature — God") == (
        ("Legendary",),
        ("Enchantment", "Creature"),
        ("God",),
    )
    assert parse_type_line("Basic Snow Land — Forest") == (("Basic", "Snow"), ("Land",), ("Forest",))
    assert parse_type_line("Instant // Sorcery") == ((), ("Instant", "Sorcery"), ())
