"""The replay export (format packplay.replay.1) checked from its explicit set-up alone.

Games of every type and player count are played with random legal actions, exported as
the server exports them, sent through JSON, and replayed from the set-up with the random
generator and the booster opener made unusable and no catalog: the same result must
come out. Building a state from the set-up of a dealt game gives that state back
exactly. A tampered export fails, naming its first differing step.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest

from packplay.cards.boosters import BoosterOpener
from packplay.cards.catalog import load_catalog
from packplay.cli import main
from packplay.games.audit import load, verify
from packplay.games.base import GameConfig, RuleError
from packplay.games.playout import play, random_policy
from packplay.games.registry import get_game
from packplay.rng import Rng
from packplay_protocol.audit import REPLAY_FORMAT, MishraFactoryDeal
from packplay_protocol.games.mishra_factory import Take
from packplay_protocol.rest import GameSetup, LoggedAction, Replay

CASES = [
    ("day_night", 2, {}),
    ("mishra_factory", 2, {}),
    ("mishra_factory", 3, {}),
    ("mishra_factory", 4, {}),
    ("wedding_planner", 2, {}),
    ("wedding_planner", 3, {}),
    ("wedding_planner", 4, {}),
    ("wedding_planner", 5, {}),
    ("wedding_planner", 6, {}),
    ("base_race", 2, {}),
    ("base_race", 2, {"move_limit": 7}),
]
SEEDS = (1, 2, 3)
CATALOG = load_catalog()


def exported(game: str, players: int, seed: int, options: dict[str, Any] | None = None) -> bytes:
    """A finished random game, exported the way the server does, as JSON bytes."""
    engine = get_game(game)
    config = GameConfig(game=game, players=players, options=options or {})
    dealt = engine.setup(config, seed, CATALOG)
    rng = Rng(seed)
    played = play(engine, dealt, [random_policy(engine, rng)] * players, rng)
    result = engine.result(played.state)
    assert result is not None
    replay = Replay(
        game_id="g1",
        setup=GameSetup(game=game, players=players, sets=engine.default_sets, options=config.options),
        seed=seed,
        deal=engine.deal(dealt),
        cards=dict(sorted(dealt.cards.items())),
        log=tuple(
            LoggedAction(version=step, seat=entry.seat, action=entry.action)
            for step, entry in enumerate(played.log, 1)
        ),
        result=result,
    )
    return msgspec.json.encode(replay)


@pytest.fixture
def no_chance(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any random draw or booster opened from here on fails the test."""

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the check drew at random or opened a booster")

    monkeypatch.setattr(Rng, "__init__", refuse)
    monkeypatch.setattr(BoosterOpener, "__init__", refuse)


@pytest.mark.parametrize(("game", "players", "options"), CASES)
@pytest.mark.parametrize("seed", SEEDS)
def test_exported_games_replay_from_the_explicit_setup_alone(game, players, options, seed, request):
    raw = exported(game, players, seed, options)
    request.getfixturevalue("no_chance")
    with pytest.raises(AssertionError, match="drew at random"):
        get_game(game).setup(GameConfig(game=game, players=players), seed, CATALOG)
    document = msgspec.json.decode(raw)
    assert document["format"] == REPLAY_FORMAT and document["deal"]["type"] == f"{game}.deal"
    replay = load(raw)
    verdict = verify(msgspec.structs.replace(replay, seed=0))
    assert verdict.ok, verdict.problem
    assert verdict.result == replay.result and verdict.steps == len(replay.log)


@pytest.mark.parametrize(("game", "players", "options"), CASES)
@pytest.mark.parametrize("seed", SEEDS)
def test_the_setup_of_a_dealt_game_builds_that_game_back(game, players, options, seed):
    engine = get_game(game)
    config = GameConfig(game=game, players=players, options=options)
    dealt = engine.setup(config, seed, CATALOG)
    deal = engine.deal(dealt)
    wired = msgspec.json.decode(msgspec.json.encode(deal), type=engine.deal_type)
    assert engine.from_deal(config, wired, dealt.cards, seed) == dealt


def tampered(raw: bytes, change: Any) -> Replay:
    document = msgspec.json.decode(raw)
    change(document)
    return msgspec.convert(document, Replay)


def swap_scores(document: dict[str, Any]) -> None:
    document["result"]["scores"] = [*reversed(document["result"]["scores"]), 99][1:]


def drop_last_action(document: dict[str, Any]) -> None:
    document["log"].pop()


def move_a_belt_card(document: dict[str, Any]) -> None:
    deal = document["deal"]
    deal["deck"].append(deal["belt"].pop(0))


def lose_a_card(document: dict[str, Any]) -> None:
    del document["cards"][document["deal"]["deck"][0]]


def foreign_action(document: dict[str, Any]) -> None:
    document["log"][4]["action"] = {"type": "wedding_planner.draw"}


def renumber(document: dict[str, Any]) -> None:
    document["log"][2]["version"] = 7


@pytest.mark.parametrize(
    ("change", "step", "words"),
    [
        (swap_scores, "end", "the result is"),
        (drop_last_action, "end", "not over"),
        (move_a_belt_card, 0, "(deal)"),
        (lose_a_card, 0, "(deal)"),
        (foreign_action, 5, "refused (action)"),
        (renumber, 3, "version 7"),
    ],
)
def test_a_tampered_export_fails_at_its_first_differing_step(change, step, words):
    raw = exported("mishra_factory", 3, 1)
    replay = tampered(raw, change)
    verdict = verify(replay)
    assert not verdict.ok and verdict.problem is not None and words in verdict.problem
    assert verdict.step == (len(replay.log) + 1 if step == "end" else step)


def test_the_card_table_is_checked_too():
    """A card's facts decide what the log may do: the first card taken, made a card
    of another color, may no longer join the group it joined (MF-1)."""
    replay = load(exported("mishra_factory", 2, 2))
    first = replay.log[0].action
    assert isinstance(first, Take) and isinstance(replay.deal, MishraFactoryDeal)
    card_id = replay.deal.belt[first.belt_position]
    other = "U" if first.group == "W" else "W"
    cards = dict(replay.cards)
    cards[card_id] = msgspec.structs.replace(cards[card_id], colors=(other,), types=("Creature",))
    verdict = verify(msgspec.structs.replace(replay, cards=cards))
    assert (verdict.ok, verdict.step) == (False, 1)
    assert verdict.problem is not None and "refused (MF-1)" in verdict.problem


def test_a_setup_of_another_game_is_refused():
    engine = get_game("day_night")
    other = load(exported("mishra_factory", 2, 1))
    with pytest.raises(RuleError) as refused:
        engine.from_deal(GameConfig(game="day_night", players=2), other.deal, other.cards)
    assert refused.value.rule == "deal" and refused.value.reason == "bad_config"


def test_the_command_checks_a_file_and_names_the_first_difference(tmp_path: Path, capsys):
    good = tmp_path / "good.json"
    good.write_bytes(exported("wedding_planner", 4, 3))
    assert main(["replay", "verify", str(good)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("ok: wedding_planner, 4 players, ") and "from the explicit set-up" in out
    bad = tmp_path / "bad.json"
    bad.write_bytes(msgspec.json.encode(tampered(good.read_bytes(), renumber)))
    assert main(["replay", "verify", str(bad), "--json"]) == 1
    verdict = msgspec.json.decode(capsys.readouterr().out)
    assert (verdict["ok"], verdict["step"], verdict["steps"]) == (False, 3, 2)
    junk = tmp_path / "junk.json"
    junk.write_text('{"format": "packplay.replay.9"}')
    assert main(["replay", "verify", str(junk)]) == 2
    assert "is not a packplay.replay.1 export" in capsys.readouterr().err
    assert main(["replay", "verify", str(tmp_path / "missing.json")]) == 2
