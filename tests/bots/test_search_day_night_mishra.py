"""The search models of Day vs Night and Mishra's Factory, and the mended Mishra payment.

A world is built from the seat's view message alone: the engine must show that seat
the same view from it (an opponent's hidden simultaneous choice left undecided), the
same card table, and accept the seat's actions. Two games that differ only in cards
hidden from the seat give it the same message, hence the same worlds. The ``hard``
level plays legal actions through the arena, and the mended Mishra heuristics pay
for a back card with a card it can spare, not with the only card of a group.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from card_factory import make_card

from packplay.arena.engine import EngineTable
from packplay.arena.seating import seating
from packplay.bots.budget import Budget
from packplay.bots.day_night import DayNightModel
from packplay.bots.memory import Memory
from packplay.bots.mishra_factory import MishraFactoryModel, MishraFactoryStrategy
from packplay.bots.registry import make_bot
from packplay.bots.search import Model
from packplay.bots.strong import StrongBot
from packplay.cards.catalog import load_catalog
from packplay.games.base import Game, GameConfig, GameState, without_cards
from packplay.games.day_night import DayNightState
from packplay.games.mishra_factory.state import Collected, MishraFactoryState
from packplay.games.registry import get_game
from packplay.rng import Rng
from packplay_protocol.cards import CardInstance
from packplay_protocol.games import day_night as dn
from packplay_protocol.games.common import LegalActions
from packplay_protocol.games.mishra_factory import Take
from packplay_protocol.to_client import ViewMessage

CATALOG = load_catalog()
WORLDS = 3
"""Worlds checked at each decision of the games played."""


def message_of(engine: Game[Any], state: GameState, seat: int) -> ViewMessage:
    """What the seat is sent at ``state``: its view, its card table, its legal actions."""
    return ViewMessage(
        game_id="test",
        game=engine.name,
        version=1,
        seat=seat,
        pending=engine.pending(state),
        legal=engine.legal_actions(state, seat),
        view=engine.view(state, seat),
        cards={card_id: state.cards[card_id] for card_id in engine.known_cards(state, seat)},
    )


def undecided(view: dn.View) -> dn.View:
    """The seat's view with the opponent's hidden simultaneous choice not made yet (C-5)."""
    assert view.seat is not None
    them = view.seats[1 - view.seat]
    if view.phase == "place" and them.placed:
        them = msgspec.structs.replace(them, placed=False, row=(), hand_count=them.hand_count + len(them.row))
    elif them.committed:
        them = msgspec.structs.replace(them, committed=False)
    seats = list(view.seats)
    seats[1 - view.seat] = them
    return msgspec.structs.replace(view, seats=tuple(seats))


def same_choices(legal: LegalActions[Any]) -> tuple[Any, ...]:
    """Legal actions with each choice's options as a set (a Mishra view keeps the order
    of the cards taken within a group only, so a world lists a collection by group)."""
    return legal.actions, [(choice.template, sorted(choice.options)) for choice in legal.choices]


def check_world(model: Model[Any], message: ViewMessage, rng: Rng) -> None:
    engine = model.engine
    seat = message.seat
    assert seat is not None
    world = model.world(message, Memory(), rng)
    view = engine.view(world, seat)
    assert view == (undecided(message.view) if isinstance(view, dn.View) else message.view)
    assert engine.known_cards(world, seat) == sorted(message.cards)
    assert all(world.cards[card_id] == card for card_id, card in message.cards.items())
    zoned = [card_id for cards in engine.zones(world).values() for card_id in cards]
    assert sorted(zoned) == sorted(world.cards), "every card of the world is in one zone"
    if not isinstance(view, dn.View) or not view.seats[1 - seat].committed:
        assert same_choices(engine.legal_actions(world, seat)) == same_choices(message.legal)
    for action in model.candidates(message, Memory()):
        engine.apply(world, seat, action)


class Checking:
    """Plays as the strong bot; before each decision, checks worlds of its message."""

    def __init__(self, seed: int | None, budget: Budget | None, model: Model[Any]) -> None:
        self.inner = StrongBot(seed, Budget(samples=2))
        self.model, self.rng = model, Rng(seed or 0)
        self.checked = 0

    def choose(self, message: ViewMessage) -> Any:
        for _ in range(WORLDS):
            check_world(self.model, message, self.rng)
        self.checked += 1
        return self.inner.choose(message)


@pytest.mark.parametrize(
    ("game", "players", "model"),
    [
        ("day_night", 2, DayNightModel),
        ("mishra_factory", 2, MishraFactoryModel),
        ("mishra_factory", 3, MishraFactoryModel),
        ("mishra_factory", 4, MishraFactoryModel),
    ],
)
def test_a_world_shows_the_seat_its_own_view(game: str, players: int, model: Any) -> None:
    bots: list[Checking] = []

    def make(seed: int | None, budget: Budget | None) -> Checking:
        bots.append(Checking(seed, budget, model(Rng(seed or 0))))
        return bots[-1]

    for index in range(6 if game == "day_night" else 2):
        plan = seating(index, 40 + index, ("check",) * players)
        EngineTable(game, plan, {"check": make}, None, CATALOG).play()
    assert sum(bot.checked for bot in bots) > 20


def day_night_after_opponent_row() -> tuple[DayNightState, list[str]]:
    """A Day vs Night game where seat 1 has placed its row and seat 0 has not."""
    engine = get_game("day_night")
    state = engine.setup(GameConfig(game="day_night", players=2), 5, CATALOG)
    row = state.hands[1][:3]
    state = engine.apply(state, 1, dn.Place(cards=tuple(row))).state
    return state, [*state.hands[1], *state.rows[1]]


def with_other_facts(state: GameState, hidden: list[str]) -> GameState:
    """The same game with other cards behind the ids ``hidden``."""
    others = [card for card_id, card in state.cards.items() if card_id not in hidden]
    cards = dict(state.cards)
    for index, card_id in enumerate(hidden):
        cards[card_id] = msgspec.structs.replace(others[-1 - index % len(others)], id=card_id)
    changed = msgspec.structs.replace(state, cards=cards)
    assert changed.cards != state.cards
    return changed


def test_worlds_depend_on_the_seat_s_message_only() -> None:
    engine = get_game("day_night")
    state, hidden = day_night_after_opponent_row()
    other = with_other_facts(state, hidden)
    first, second = message_of(engine, state, 0), message_of(engine, other, 0)
    assert first == second
    worlds = [DayNightModel(Rng(3)).world(message, Memory(), Rng(4)) for message in (first, second)]
    encoded = [msgspec.msgpack.encode(without_cards(world)) for world in worlds]
    assert encoded[0] == encoded[1]
    assert worlds[0].cards == worlds[1].cards
    assert not set(worlds[0].cards) & set(hidden), "hidden cards are sampled, under ids of their own"
    assert worlds[0].rows[1] == [], "the opponent's row is left to be chosen"
    assert len(worlds[0].hands[1]) == len(hidden)


def test_mishra_worlds_deal_the_deck_from_fresh_boosters() -> None:
    engine = get_game("mishra_factory")
    state = engine.setup(GameConfig(game="mishra_factory", players=3), 8, CATALOG)
    message = message_of(engine, state, state.turn)
    model = MishraFactoryModel(Rng(2))
    decks = [model.world(message, Memory(), Rng(seed)).deck for seed in range(4)]
    assert all(len(deck) == len(state.deck) for deck in decks)
    assert not set(state.deck) & {card_id for deck in decks for card_id in deck}
    assert len({tuple(deck) for deck in decks}) == len(decks)


@pytest.mark.parametrize(
    ("game", "players"), [("day_night", 2), ("mishra_factory", 2), ("mishra_factory", 3)]
)
def test_hard_plays_legal_actions(game: str, players: int) -> None:
    def hard(seed: int | None, budget: Budget | None) -> Any:
        return make_bot("hard", seed, Budget(samples=4))

    factories = {"hard": hard, "strong": lambda seed, budget: make_bot("strong", seed, Budget(samples=4))}
    plan = seating(0, 3, ("hard", *["strong"] * (players - 1)))
    table = EngineTable(game, plan, factories, None, CATALOG)
    result, _ = table.play()  # raises ArenaError on an action the rules refuse
    assert result.scores and table.decisions[0] > 0


def mf_card(colors: str, mv: int, card_id: str) -> CardInstance:
    return make_card(colors=colors, mana_value=mv, card_id=card_id)


def payment_position() -> MishraFactoryState:
    """Seat 0 holds W (two cards, first), and one B and one R card, both third (worth no
    points now). The back card is green, a new group; the front cards add nothing.

    Paying with the B or R card loses the group the green card adds: three groups
    stay three. Paying with a W card keeps W first and makes four groups (MF-6: 2 points).
    """
    mine = [mf_card("W", 3, "w3"), mf_card("W", 2, "w2"), mf_card("B", 1, "b1"), mf_card("R", 1, "r1")]
    second = [mf_card("B", 2, f"x{n}") for n in range(3)] + [mf_card("R", 2, f"y{n}") for n in range(2)]
    third = [mf_card("B", 2, f"z{n}") for n in range(2)] + [mf_card("R", 2, f"v{n}") for n in range(3)]
    belt = [mf_card("W", 1, "f1"), mf_card("W", 1, "f2"), mf_card("G", 2, "g1"), mf_card("W", 1, "f3")]
    deck = [mf_card("U", 1, f"d{n}") for n in range(20)]
    everything = [*mine, *second, *third, *belt, *deck]
    return MishraFactoryState(
        cards={card.id: card for card in everything},
        config=GameConfig(game="mishra_factory", players=3),
        seed=0,
        players=3,
        first_seat=0,
        turn=0,
        deck=[card.id for card in deck],
        belt=[card.id for card in belt],
        collections=[
            [Collected(card=card.id, group=card.colors[0]) for card in seat] for seat in (mine, second, third)
        ],
    )


def test_the_mended_heuristics_pay_with_a_card_they_can_spare() -> None:
    engine = get_game("mishra_factory")
    message = message_of(engine, payment_position(), 0)
    reference = MishraFactoryStrategy(Rng(1), Budget(), fixed=False).choose(message, Memory())
    mended = MishraFactoryStrategy(Rng(1), Budget(), fixed=True).choose(message, Memory())
    # the reference's mistake, kept as it was: only its two cheapest cards were tried
    assert reference == Take(belt_position=2, group="G", discard="b1")
    assert isinstance(mended, Take) and (mended.belt_position, mended.group) == (2, "G")
    assert mended.discard in ("w2", "w3")
    assert mended in MishraFactoryModel(Rng(1)).candidates(message, Memory())
