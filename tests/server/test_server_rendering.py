"""Updates made part by part: for every game, each audience's whole view patched by its updates
is the whole view of the next version, and what every audience shares is computed once."""

from __future__ import annotations

import dataclasses
from typing import Any

import msgspec
import pytest

from packplay.cards.catalog import load_catalog
from packplay.games.base import GameConfig
from packplay.games.layout import Part, ViewLayout
from packplay.games.random_policy import random_action
from packplay.games.registry import get_game
from packplay.rng import Rng
from packplay.table.game_copy import GameCopy
from packplay.table.records import GameMeta
from packplay.table.rendering import HeldViews, view_doc, whole_view
from packplay_protocol import patch
from packplay_protocol.codec import encode_plain
from packplay_protocol.version import Encoding

CASES = [
    ("day_night", 2),
    ("mishra_factory", 3),
    ("wedding_planner", 4),
    ("base_race", 2),
]
CATALOG = load_catalog()


def _dealt(game: str, players: int, seed: int) -> GameCopy:
    engine = get_game(game)
    config = GameConfig(game=game, players=players, sets=engine.default_sets)
    meta = GameMeta(id=f"g{seed}", config=config, seed=seed, created=0.0, clock=30.0)
    return GameCopy.dealt(meta, engine, engine.setup(config, seed, CATALOG), 0.0)


def _plain(message: Any) -> Any:
    """A message as a client decodes it (JSON)."""
    return msgspec.json.decode(encode_plain(message, Encoding.JSON))


@pytest.mark.parametrize(("game", "players"), CASES)
def test_each_update_patches_the_view_held_into_the_next_whole_view(game: str, players: int) -> None:
    for seed in range(4):
        copy = _dealt(game, players, seed)
        audiences = [*range(players), None]
        views = HeldViews()
        held = {a: _plain(whole_view(views.message(copy, a), 0)) for a in audiences}
        rng = Rng(seed)
        while copy.pending:
            seat = copy.pending[rng.below(len(copy.pending))]
            action = random_action(copy.legal[seat], copy.engine.action_type, rng)
            step = copy.step(seat, action, f"a{copy.version}", float(copy.version))
            copy.advance(step)
            change = views.change(copy, step)
            assert change is not None
            for audience in audiences:
                update = _plain(views.update(change, audience))
                assert update["version"] == copy.version
                assert (update["action_id"] is not None) == (audience == seat)
                document = patch.apply(held[audience], [patch.PatchOp(**op) for op in update["patch"]])
                document["version"] = update["version"]
                fresh = _plain(whole_view(view_doc(copy, audience), copy.version))
                assert document == fresh, f"{game} seed {seed} version {copy.version} audience {audience}"


def test_shared_parts_are_computed_once_a_step_however_many_audiences() -> None:
    copy = _dealt("wedding_planner", 6, 1)
    layout = copy.layout
    calls = {"shared": 0, "private": 0}

    def counting(part: Part[Any]) -> Part[Any]:
        def show(state: Any, audience: Any) -> Any:
            calls["shared" if part.shared else "private"] += 1
            return part.show(state, audience)

        return Part(part.path, show, part.shared, part.reads)

    fields = copy.engine.state_type.__struct_fields__
    counted: ViewLayout[Any] = ViewLayout(layout.tag, fields, [counting(part) for part in layout.parts], ())
    copy.layout = counted
    views = HeldViews()
    for audience in [*range(6), None]:
        views.message(copy, audience)
    calls.update(shared=0, private=0)
    seat = copy.pending[0]
    action = random_action(copy.legal[seat], copy.engine.action_type, Rng(1))
    step = dataclasses.replace(copy.step(seat, action, "a", 1.0), touched=counted.everything)
    copy.advance(step)
    change = views.change(copy, step)  # every part may change
    assert change is not None
    for audience in [*range(6), None]:
        views.update(change, audience)
    assert calls["shared"] == len(layout.shared), "each shared part once, not once per audience"
    assert calls["private"] == 7 * len(layout.private)
