"""Seeds open the boosters they always opened (C-4): pinned contents, ids and draws.

``data/pinned_boosters.json`` was computed once from the opener as it stood before
it was optimised. For each set (and ``GEN``, a set without collation that opens the
generic layout) three seeds open two boosters each from one generator, and one seed
opens a booster of every set in a row. Each entry pins every card's set, collector
number, foil and instance id, a digest of the full encoded boosters (every fact), and
the generator's next token, so the number of draws is pinned too. A change that makes
any of these differ changes every game of those seeds: it is a bug, not a re-pin.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from packplay.cards.boosters import BoosterOpener
from packplay.cards.catalog import CardSet, Catalog, load_catalog
from packplay.rng import Rng

PINNED: dict[str, Any] = json.loads((Path(__file__).parent / "data" / "pinned_boosters.json").read_text())
ENCODER = msgspec.msgpack.Encoder()


def every_fact(booster: list[Any]) -> list[dict[str, Any]]:
    """Each card as a map of every field in declaration order, defaults included (the wire
    leaves defaults out; the digest covers them all)."""
    return [msgspec.structs.asdict(card) for card in booster]


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    """The packaged sets, plus ``GEN``: MID's cards without collation data."""
    packaged = load_catalog()
    generic = CardSet(code="GEN", name="No collation", cards=packaged.set("MID").cards)
    return Catalog([*packaged, generic])


@pytest.mark.parametrize("case", sorted(PINNED))
def test_seed_opens_its_pinned_boosters(catalog: Catalog, case: str) -> None:
    pinned = PINNED[case]
    rng = Rng(pinned["seed"])
    opener = BoosterOpener(catalog, rng)
    boosters = [opener.open(code) for code in pinned["sets"]]
    cards = [[[c.set, c.number, c.foil, c.id] for c in booster] for booster in boosters]
    assert cards == pinned["boosters"]
    assert hashlib.sha256(ENCODER.encode([every_fact(b) for b in boosters])).hexdigest() == pinned["sha256"]
    assert rng.token(40) == pinned["next_token"]
