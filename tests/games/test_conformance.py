"""Properties every rules engine must have, checked on random legal play from random seeds.

For each game and player count: play ends; every card is in exactly one zone at every
step, and the card table holds exactly those cards and never changes; views and events
carry no card facts (cards travel by id; their facts are in each audience's card table,
which holds no card hidden from it), and every card they name is in that table, but for
the face-down pieces of Base Race; replaying the log gives the identical final state;
refused actions raise a typed RuleError and change nothing; every action described by
``legal_actions`` is accepted.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from packplay.cards.catalog import load_catalog
from packplay.games.base import SPECTATOR, Audience, Game, GameConfig, RuleError, clone, events_for
from packplay.games.playout import LoggedAction, replay
from packplay.games.random_policy import fill_choice, random_action
from packplay.games.registry import get_game
from packplay.rng import Rng
from packplay_protocol import rules

CASES = [
    ("day_night", 2),
    ("mishra_factory", 2),
    ("mishra_factory", 3),
    ("mishra_factory", 4),
    ("wedding_planner", 2),
    ("wedding_planner", 3),
    ("wedding_planner", 4),
    ("wedding_planner", 5),
    ("wedding_planner", 6),
    ("base_race", 2),
]
CATALOG = load_catalog()
SEEDS = st.integers(min_value=0, max_value=2**53 - 1)
NAMES_HIDDEN_CARDS = frozenset({"base_race"})
"""Games whose views name some cards the audience may not know, by id alone: Base Race shows
every face-down piece by id on purpose (BR-6: everyone sees where every card is)."""
DOCUMENTED = frozenset.intersection(
    *(
        frozenset(i for page in rules.PAGES for i in rules.ids(rules.text(page, lang)))
        for lang in rules.languages()
    )
)
"""Every ruling id and refusal code the rules reference explains, in every language."""
PROPERTY = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


STATE_ENCODER = msgspec.msgpack.Encoder(order="deterministic")


def encoded(state: Any) -> bytes:
    """State bytes that do not depend on set iteration order."""
    return STATE_ENCODER.encode(state)


def audiences(players: int) -> list[Audience]:
    return [*range(players), SPECTATOR]


def card_renderings(value: Any) -> Iterator[dict[str, Any]]:
    """Every object in a wire structure that shows a card's identity (an id with a name)."""
    if isinstance(value, dict):
        if "id" in value and "name" in value:
            yield value
        for item in value.values():
            yield from card_renderings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from card_renderings(item)


def strings(value: Any) -> Iterator[str]:
    """Every string in a wire structure, keys included (card ids are strings)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from strings(key)
            yield from strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from strings(item)


def assert_no_leak(engine: Game[Any], state: Any, audience: Audience, payload: Any) -> None:
    """No card facts travel; every card named is in the audience's card table (so none hidden
    from it is named), but for the games that name hidden cards by id alone."""
    wire = msgspec.to_builtins(payload)
    shown = [card["id"] for card in card_renderings(wire)]
    assert not shown, f"{engine.name}: card facts on the wire for {shown}"
    if engine.name in NAMES_HIDDEN_CARDS:
        return
    named = set(strings(wire)) & state.cards.keys()
    unknown = named - set(engine.known_cards(state, audience))
    assert not unknown, f"{engine.name}: audience {audience} is told of cards not in its table {unknown}"


def assert_card_table(engine: Game[Any], state: Any, audience: Audience) -> None:
    """An audience's card table: every card of the game not hidden from it."""
    hidden = engine.hidden_from(state, audience)
    assert engine.known_cards(state, audience) == sorted(set(state.cards) - hidden)


def all_ids(engine: Game[Any], state: Any) -> list[str]:
    return [card_id for ids in engine.zones(state).values() for card_id in ids]


class Checked:
    """One random game, checking the per-step properties as it goes."""

    def __init__(self, game: str, players: int, seed: int) -> None:
        self.engine = get_game(game)
        self.config = GameConfig(game=game, players=players)
        self.seed = seed
        self.players = players
        self.state = self.engine.setup(self.config, seed, CATALOG)
        self.rng = Rng(seed)
        self.log: list[LoggedAction] = []
        self.card_ids = sorted(all_ids(self.engine, self.state))
        assert len(set(self.card_ids)) == len(self.card_ids)
        assert set(self.card_ids) == self.state.cards.keys()
        self.card_table = dict(self.state.cards)

    def run(self, max_steps: int = 5000) -> None:
        self.check_step([])
        for _ in range(max_steps):
            pending = self.engine.pending(self.state)
            if not pending:
                assert self.engine.result(self.state) is not None
                return
            seat = pending[self.rng.below(len(pending))]
            action = random_action(
                self.engine.legal_actions(self.state, seat), self.engine.action_type, self.rng
            )
            transition = self.engine.apply(self.state, seat, action)
            self.state = transition.state
            self.log.append(LoggedAction(seat, action))
            self.check_step(list(transition.events))
        pytest.fail(f"{self.engine.name} did not end in {max_steps} actions")

    def check_step(self, events: list[Any]) -> None:
        assert sorted(all_ids(self.engine, self.state)) == self.card_ids
        assert self.state.cards == self.card_table, "the card table never changes"
        for audience in audiences(self.players):
            assert_card_table(self.engine, self.state, audience)
            assert_no_leak(self.engine, self.state, audience, self.engine.view(self.state, audience))
            assert_no_leak(self.engine, self.state, audience, events_for(events, audience))
        for seat in range(self.players):
            legal = self.engine.legal_actions(self.state, seat)
            assert legal.empty == (seat not in self.engine.pending(self.state))


@pytest.mark.parametrize(("game", "players"), CASES)
@PROPERTY
@given(seed=SEEDS)
def test_random_play_ends_with_cards_in_one_zone_and_no_leaks(game, players, seed):
    checked = Checked(game, players, seed)
    checked.run()
    result = checked.engine.result(checked.state)
    assert result is not None and len(result.scores) == players
    assert set(result.winners) <= set(range(players))


@pytest.mark.parametrize(("game", "players"), CASES)
@PROPERTY
@given(seed=SEEDS)
def test_replaying_the_log_gives_the_identical_state(game, players, seed):
    checked = Checked(game, players, seed)
    checked.run()
    again = replay(checked.engine, checked.config, seed, CATALOG, checked.log)
    assert encoded(again) == encoded(checked.state)


@pytest.mark.parametrize(("game", "players"), CASES)
def test_setup_is_reproducible_and_seeds_differ(game, players):
    engine = get_game(game)
    config = GameConfig(game=game, players=players)
    assert encoded(engine.setup(config, 5, CATALOG)) == encoded(engine.setup(config, 5, CATALOG))
    assert encoded(engine.setup(config, 5, CATALOG)) != encoded(engine.setup(config, 6, CATALOG))


@pytest.mark.parametrize(("game", "players"), CASES)
@PROPERTY
@given(seed=SEEDS)
def test_refused_actions_are_typed_and_change_nothing(game, players, seed):
    checked = Checked(game, players, seed)
    engine, rng = checked.engine, checked.rng
    for _ in range(400):
        state = checked.state
        pending = engine.pending(state)
        if not pending:
            break
        before = encoded(state)
        for seat in range(players):
            if seat not in pending:
                legal_elsewhere = engine.legal_actions(state, pending[0])
                action = random_action(legal_elsewhere, engine.action_type, rng)
                with pytest.raises(RuleError) as refused:
                    engine.apply(state, seat, action)
                assert (refused.value.reason, refused.value.rule) == ("not_your_turn", "turn")
        seat = pending[0]
        for bad in broken_actions(engine, engine.legal_actions(state, seat), rng):
            with pytest.raises(RuleError) as refused:
                engine.apply(state, seat, bad)
            assert refused.value.reason == "illegal_action" and refused.value.rule in DOCUMENTED
            assert encoded(state) == before
            # The hook itself must refuse before touching anything (its contract).
            work = clone(state)
            with pytest.raises(RuleError):
                engine._apply(work, seat, bad)
            assert encoded(work) == before
        chosen = random_action(engine.legal_actions(state, seat), engine.action_type, rng)
        checked.state = engine.apply(state, seat, chosen).state
        assert encoded(state) == before


def broken_actions(engine: Game[Any], legal: Any, rng: Rng) -> Iterator[Any]:
    """Actions built from legal ones with an unknown card id, or from another game."""
    for choice in legal.choices:
        action = fill_choice(choice, rng)
        value = action[choice.field]
        action[choice.field] = "c-unknown" if isinstance(value, str) else ["c-unknown", *value[1:]]
        yield msgspec.convert(action, engine.action_type)
    for action in legal.actions:
        raw = msgspec.to_builtins(action)
        for key, value in raw.items():
            if isinstance(value, str) and key != "type" and value.startswith("c"):
                yield msgspec.convert({**raw, key: "c-unknown"}, engine.action_type)
                break
    other = next(name for name in ("day_night", "base_race") if name != engine.name)
    other_engine = get_game(other)
    yield from _first_actions(other_engine)


def _first_actions(engine: Game[Any]) -> Iterator[Any]:
    state = engine.setup(GameConfig(game=engine.name, players=engine.min_players), 1, CATALOG)
    seat = engine.pending(state)[0]
    legal = engine.legal_actions(state, seat)
    yield random_action(legal, engine.action_type, Rng(1))


@pytest.mark.parametrize(("game", "players"), CASES)
def test_every_described_action_is_accepted(game, players):
    checked = Checked(game, players, seed=99)
    engine = checked.engine
    for _ in range(300):
        state = checked.state
        pending = engine.pending(state)
        if not pending:
            break
        for seat in pending:
            legal = engine.legal_actions(state, seat)
            for action in legal.actions[:20]:
                engine.apply(state, seat, action)
            for choice in legal.choices:
                for _ in range(5):
                    engine.apply(
                        state, seat, msgspec.convert(fill_choice(choice, checked.rng), engine.action_type)
                    )
        seat = pending[checked.rng.below(len(pending))]
        action = random_action(engine.legal_actions(state, seat), engine.action_type, checked.rng)
        checked.state = engine.apply(state, seat, action).state


@pytest.mark.parametrize(("game", "players"), CASES)
def test_finished_game_reveals_everything(game, players):
    checked = Checked(game, players, seed=3)
    checked.run()
    for audience in audiences(players):
        assert checked.engine.hidden_from(checked.state, audience) == frozenset()
    with pytest.raises(RuleError) as over:
        checked.engine.apply(checked.state, 0, checked.log[-1].action)
    assert over.value.reason == "game_over"
