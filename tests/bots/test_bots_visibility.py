"""A bot's decision inputs hold nothing its seat may not see, and it has no path to the game state.

Each of the house's bots that samples or searches (``strong``, ``hard``) and the sparring
partner ``thoughtful``, with a recording bot beside it, plays every game through the arena's
in-process feed. Before each decision and each delivery of events, the engine says
which cards are hidden from that seat (``hidden_from``); the test then checks that no
hidden card's facts are in what the bot is handed (the view's card table, any card
object in the view or the events), and, walking the bot's own objects after each
decision, that nothing it keeps is a hidden card's facts or an object of the game's
state, copy or steps (its sampled cards are its own).
"""

from __future__ import annotations

from typing import Any

import pytest
from bots_samples import Recorder
from reachable import assert_no_hidden_facts, walk

from packplay.arena.engine import EngineTable
from packplay.arena.seating import seating
from packplay.arena.stats import SeatOutcome
from packplay.bots.budget import Budget
from packplay.bots.registry import BotFactory, make_bot
from packplay.bots.strong import StrongBot
from packplay.cards.catalog import load_catalog
from packplay.games.base import Emitted, GameState
from packplay.table.game_copy import GameCopy, Step
from packplay_protocol.cards import CardInstance
from packplay_protocol.to_client import ViewMessage

CATALOG = load_catalog()
CASES = [
    ("day_night", 2),
    ("mishra_factory", 3),
    ("wedding_planner", 2),
    ("wedding_planner", 5),
    ("base_race", 2),
]
SERVER_SIDE = (GameState, GameCopy, Step, Emitted)


class Spy:
    """Wraps a bot; checks each input against what is hidden from its seat at that moment."""

    def __init__(self, inner: Any, table: WatchedTable | None, seat: int) -> None:
        self.inner, self.table, self.seat = inner, table, seat
        self.checked_views = 0
        self.checked_events = 0

    def choose(self, view: ViewMessage) -> Any:
        assert self.table is not None
        hidden = self.table.hidden(self.seat)
        assert not hidden & set(view.cards), "a hidden card's facts are in the view's card table"
        assert_no_hidden_facts(view, hidden)
        action = self.inner.choose(view)
        assert_keeps_nothing_hidden(self.inner, hidden, self.table)
        self.checked_views += 1
        return action

    def observe(self, version: int, events: Any) -> None:
        assert self.table is not None
        hidden = self.table.hidden(self.seat)
        assert_no_hidden_facts(events, hidden)
        self.checked_events += 1
        observe = getattr(self.inner, "observe", None)
        if observe is not None:
            observe(version, events)


def assert_keeps_nothing_hidden(bot: Any, hidden: frozenset[str], table: WatchedTable) -> None:
    state_cards = {id(card) for card in table.copy.state.cards.values()}
    for item in walk(bot):
        assert not isinstance(item, SERVER_SIDE), f"the bot holds server-side {type(item).__name__}"
        if isinstance(item, CardInstance):
            assert id(item) not in state_cards, "the bot holds a card object of the game state"
            assert item.id not in hidden, "the bot keeps a hidden card's facts"


class WatchedTable(EngineTable):
    def hidden(self, seat: int) -> frozenset[str]:
        return self.engine.hidden_from(self.copy.state, seat)


def play_watched(game: str, players: int, index: int, bot: str = "strong") -> tuple[WatchedTable, list[Spy]]:
    spies: list[Spy] = []

    def spying(make: BotFactory) -> BotFactory:
        def build(seed: int | None, budget: Budget) -> Any:
            spy = Spy(make(seed, budget), None, len(spies))
            spies.append(spy)
            return spy

        return build

    factories = {
        "strong": spying(lambda seed, budget: StrongBot(seed, budget)),
        "hard": spying(lambda seed, budget: make_bot("hard", seed, budget)),
        "thoughtful": spying(lambda seed, budget: make_bot("thoughtful", seed)),
        "recorder": spying(lambda seed, budget: Recorder(seed)),
    }
    plan = seating(index, 20 + index, (bot, *["recorder"] * (players - 1)))
    table = WatchedTable(game, plan, factories, Budget(samples=4), CATALOG)
    for spy in spies:
        spy.table = table
    result, _ = table.play()
    outcomes: list[SeatOutcome] = table.outcomes(result)
    assert len(outcomes) == players
    return table, spies


@pytest.mark.parametrize("bot", ["strong", "hard", "thoughtful"])
@pytest.mark.parametrize(("game", "players"), CASES)
def test_a_bot_sees_only_what_its_seat_may_see(game: str, players: int, bot: str) -> None:
    for index in range(players):  # the bot in every seat in turn
        table, spies = play_watched(game, players, index, bot)
        assert all(spy.checked_views > 0 for spy in spies)
        assert all(spy.checked_events > 0 for spy in spies)
        assert sum(spy.checked_views for spy in spies) == table.copy.version


def test_the_check_would_catch_a_leak() -> None:
    """The walk finds a hidden card handed to a bot (the check can fail)."""
    table, _ = play_watched("mishra_factory", 2, 0)
    engine, state = table.engine, table.copy.state
    secret = next(iter(state.cards.values()))
    with pytest.raises(AssertionError):
        assert_no_hidden_facts({"events": [secret]}, frozenset({secret.id}))
    assert engine.result(state) is not None
