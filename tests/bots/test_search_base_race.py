"""Base Race: the fixed heuristics mend the reference's known mistakes, and the search's
model builds worlds that agree with the seat's view and read nothing hidden.

Positions are built by hand (cards made for the case) or played from a real deal; a
seat's view message is made as the server makes it: the engine's view and the facts of
the cards the engine says the seat may know.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec
import pytest
from reachable import walk

from packplay.bots.base_race import BaseRaceStrategy, Race, layout
from packplay.bots.base_race_model import BaseRaceModel
from packplay.bots.budget import Budget
from packplay.bots.levels import SearchBot
from packplay.bots.memory import Memory
from packplay.bots.strong import StrongBot
from packplay.cards.catalog import load_catalog
from packplay.games.base import GameConfig, events_for
from packplay.games.base_race import BaseRace
from packplay.games.base_race.state import SQUARES, BaseRaceState, square
from packplay.rng import Rng
from packplay_protocol.cards import CardInstance
from packplay_protocol.games.base_race import Move, View
from packplay_protocol.to_client import ViewMessage

ENGINE = BaseRace()
CATALOG = load_catalog()


def card(card_id: str, types: tuple[str, ...], toughness: str | None = None, **facts: Any) -> CardInstance:
    return CardInstance(
        id=card_id, set="ZNR", number="0", name=f"Test {card_id}", rarity="common", types=types,
        toughness=toughness, **facts,
    )  # fmt: skip


def camp(card_id: str) -> CardInstance:
    return card(card_id, ("Land",), supertypes=("Basic",), basic_land=True)


def creature(card_id: str, toughness: int, legendary: bool = False) -> CardInstance:
    supertypes = ("Legendary",) if legendary else ()
    return card(card_id, ("Creature",), str(toughness), supertypes=supertypes)


def position(
    pieces: Sequence[tuple[CardInstance, int, tuple[int, int]]], face_up: Sequence[str] = (), turn: int = 0
) -> BaseRaceState:
    """A play-phase state with ``pieces`` (card, owner, square), ``turn`` to move."""
    board: list[str | None] = [None] * SQUARES
    for piece, _, (row, col) in pieces:
        board[square(row, col)] = piece.id
    lands = {owner: piece.id for piece, owner, _ in pieces if piece.is_land}
    return BaseRaceState(
        seed=0,
        config=GameConfig(game="base_race", players=2),
        move_limit=200,
        cards={piece.id: piece for piece, _, _ in pieces},
        owners={piece.id: owner for piece, owner, _ in pieces},
        set_aside=[],
        out=[],
        camps=[lands[0], lands[1]],
        hands=[[], []],
        board=board,
        laid_out=[0, 1],
        revealed=list(face_up),
        turn=turn,
        normal_seat=turn,
        moves=10,
    )


def message(state: BaseRaceState, seat: int, version: int = 1) -> ViewMessage:
    """The seat's view message, as the server renders it."""
    return ViewMessage(
        game_id="game",
        game="base_race",
        version=version,
        seat=seat,
        pending=ENGINE.pending(state),
        legal=ENGINE.legal_actions(state, seat),
        view=ENGINE.view(state, seat),
        cards={card_id: state.cards[card_id] for card_id in ENGINE.known_cards(state, seat)},
    )


def best_move(state: BaseRaceState, fixed: bool) -> Move:
    seen = message(state, 0)
    view = seen.view
    assert isinstance(view, View)
    strategy = BaseRaceStrategy(Rng(3), Budget(samples=8), fixed=fixed)
    race = Race(view, seen.cards, Memory(), strategy.prior(seen.cards), Budget(samples=8), fixed=fixed)
    move = race.best(seen.legal.actions)
    assert isinstance(move, Move)
    return move


# the mistakes, fixed


def test_the_last_attacker_does_not_throw_itself_at_a_legendary_creature() -> None:
    attacker, legend = creature("mine", 3), creature("legend", 5, legendary=True)
    state = position(
        [(camp("camp0"), 0, (0, 0)), (attacker, 0, (2, 3)), (legend, 1, (3, 3)), (camp("camp1"), 1, (5, 0))],
        face_up=["legend"],
    )
    suicide = Move(card="mine", row=3, col=3)
    assert best_move(state, fixed=False) == suicide
    assert best_move(state, fixed=True) != suicide


def test_a_sure_removal_beside_the_camp_beats_a_gamble_on_a_hidden_piece() -> None:
    giant, sorcery, scout = creature("giant", 17), card("sorcery", ("Sorcery",)), creature("scout", 4)
    state = position(
        [
            (camp("camp0"), 0, (0, 0)),
            (sorcery, 0, (1, 1)),
            (scout, 0, (4, 0)),
            (giant, 1, (0, 1)),
            (camp("camp1"), 1, (5, 0)),
            (creature("h1", 2), 1, (5, 1)),
            (creature("h2", 2), 1, (5, 3)),
        ],
        face_up=["giant"],
    )
    gamble, removal = Move(card="scout", row=5, col=0), Move(card="sorcery", row=0, col=1)
    assert best_move(state, fixed=False) == gamble
    assert best_move(state, fixed=True) == removal


def test_the_fixed_layout_varies_the_camp_square_and_guards_it() -> None:
    hand = [camp("land"), *(creature(f"c{i}", i) for i in range(11))]
    reference = {tuple(layout(0, hand, Rng(seed))).index("land") for seed in range(30)}
    assert reference <= {0, 3}, "the reference's camp is always in a back corner"
    strategy = BaseRaceStrategy(Rng(1), Budget(samples=1), fixed=True)
    theirs = [camp("land1"), *(creature(f"d{i}", 2) for i in range(11))]
    state = msgspec.structs.replace(
        position([(hand[0], 0, (0, 0)), (theirs[0], 1, (5, 0))]),
        cards={c.id: c for c in [*hand, *theirs]},
        owners={c.id: seat for seat, cards in enumerate((hand, theirs)) for c in cards},
        hands=[[c.id for c in hand], [c.id for c in theirs]],
        board=[None] * SQUARES,
        laid_out=[],
        turn=-1,
        normal_seat=-1,
        moves=0,
    )
    squares = set()
    for _ in range(30):
        order = strategy.choose(message(state, 0, version=0), Memory()).cards
        spot = order.index("land")
        squares.add(spot)
        strongest = {"c10", "c9", "c8", "c7"}
        beside = [order[i] for i in range(12) if abs(i // 4 - spot // 4) + abs(i % 4 - spot % 4) == 1]
        assert set(beside) <= strongest, "the camp's neighbours are its strongest cards"
    assert len(squares) >= 3 and squares - {0, 3}


def test_the_fixed_guess_of_their_camp_weighs_the_board() -> None:
    pieces = [(camp("camp0"), 0, (0, 0)), (creature("mine", 5), 0, (2, 1))]
    pieces += [(creature(f"t{row}{col}", 2), 1, (row, col)) for row in (3, 4, 5) for col in range(3)]
    pieces += [(creature(f"t{row}3", 2), 1, (row, 3)) for row in (3, 4)] + [(camp("t53"), 1, (5, 3))]
    state = position(pieces)
    seen = message(state, 0)
    view = seen.view
    assert isinstance(view, View)
    prior = BaseRaceStrategy(Rng(3), Budget(samples=1)).prior(seen.cards)
    reference = Race(view, seen.cards, Memory(), prior, Budget(samples=1)).camp_odds
    fixed = Race(view, seen.cards, Memory(), prior, Budget(samples=1), fixed=True).camp_odds
    assert len(set(reference.values())) == 1, "the reference ignores where the pieces stand"
    assert {"t50", "t53"} == {card_id for card_id, odds in fixed.items() if odds == max(fixed.values())}
    assert fixed["t53"] > fixed["t43"] > fixed["t33"]


# the search's model


def played(seed: int, moves: int) -> tuple[BaseRaceState, list[Memory]]:
    """A real deal laid out and played ``moves`` moves by the fixed heuristics, with each
    seat's memory of the events it was sent."""
    state = ENGINE.setup(GameConfig(game="base_race", players=2), seed, CATALOG)
    bots = [StrongBot(seed + seat, Budget(samples=2), fixed=True) for seat in (0, 1)]
    memories = [Memory(), Memory()]
    version = 0
    while ENGINE.result(state) is None and (not state.board_set or state.moves < moves):
        seat = ENGINE.pending(state)[0]
        action = bots[seat].choose(message(state, seat, version))
        transition = ENGINE.apply(state, seat, action)
        state, version = transition.state, version + 1
        for other in (0, 1):
            seen = events_for(transition.events, other)
            bots[other].observe(version, seen)
            memories[other].add(version, seen)
    return state, memories


@pytest.mark.parametrize("moves", [0, 8, 16])
def test_a_world_shows_the_seat_its_own_view(moves: int) -> None:
    state, memories = played(7, moves)
    assert ENGINE.result(state) is None
    seat = state.turn
    seen = message(state, seat)
    model = BaseRaceModel(Rng(5))
    for _ in range(5):
        world = model.world(seen, memories[seat], Rng(9))
        assert ENGINE.view(world, seat) == seen.view
        assert ENGINE.legal_actions(world, seat) == seen.legal
        assert sum(world.cards[c].is_land for c in world.board if c is not None) == 2, "one camp a side"


def test_a_layout_world_shows_the_seat_its_own_view() -> None:
    state = ENGINE.setup(GameConfig(game="base_race", players=2), 3, CATALOG)
    first = StrongBot(1, Budget(samples=1), fixed=True).choose(message(state, 1, 0))
    state = ENGINE.apply(state, 1, first).state
    seen = message(state, 0)
    world = BaseRaceModel(Rng(5)).world(seen, Memory(), Rng(2))
    assert ENGINE.view(world, 0) == seen.view
    assert ENGINE.legal_actions(world, 0) == seen.legal


def test_the_world_reads_nothing_hidden() -> None:
    """Two games that differ only in what the seat cannot see give the same worlds; the
    opponent's camp is drawn, not read."""
    state, memories = played(11, 20)
    seat = state.turn
    other = 1 - seat
    hidden = [
        c for c in state.board if c is not None and state.owners[c] == other and c not in state.revealed
    ]
    real_camp = state.camps[other]
    decoy = next(c for c in hidden if c != real_camp)
    swapped = msgspec.structs.replace(state, cards=dict(state.cards))
    swapped.cards[real_camp], swapped.cards[decoy] = (
        msgspec.structs.replace(state.cards[decoy], id=real_camp),
        msgspec.structs.replace(state.cards[real_camp], id=decoy),
    )
    assert message(swapped, seat) == message(state, seat)
    worlds = [BaseRaceModel(Rng(4)).world(message(s, seat), memories[seat], Rng(8)) for s in (state, swapped)]
    assert msgspec.to_builtins(worlds[0]) == msgspec.to_builtins(worlds[1])
    model = BaseRaceModel(Rng(4))
    camps = {model.world(message(state, seat), memories[seat], Rng(i)).camps[other] for i in range(20)}
    assert len(camps) > 1


def assert_keeps_nothing_hidden(bot: Any, hidden: frozenset[str]) -> None:
    """After a decision the bot keeps no game state (its worlds are gone) and no hidden card."""
    for item in walk(bot):
        assert not isinstance(item, BaseRaceState), "the bot keeps a whole state"
        if isinstance(item, CardInstance):
            assert item.id not in hidden, "the bot keeps a card under a hidden card's id"


def test_hard_plays_legal_actions_and_keeps_no_world() -> None:
    state = ENGINE.setup(GameConfig(game="base_race", players=2), 21, CATALOG)
    bots: list[Any] = [SearchBot(1, Budget(samples=4)), StrongBot(2, Budget(samples=2))]
    version = 0
    while ENGINE.result(state) is None and state.moves < 30:
        seat = ENGINE.pending(state)[0]
        seen = message(state, seat, version)
        action = bots[seat].choose(seen)
        if seat == 0:
            assert action in seen.legal.actions or seen.view.phase == "layout"
            assert_keeps_nothing_hidden(bots[0], ENGINE.hidden_from(state, 0))
        transition = ENGINE.apply(state, seat, action)
        state, version = transition.state, version + 1
        for other in (0, 1):
            bots[other].observe(version, events_for(transition.events, other))
    assert state.moves >= 30 or ENGINE.result(state) is not None


def test_the_layout_candidates_hide_the_camp_on_different_squares() -> None:
    state = ENGINE.setup(GameConfig(game="base_race", players=2), 3, CATALOG)
    seen = message(state, 0, 0)
    layouts = BaseRaceModel(Rng(5)).candidates(seen, Memory())
    camp_id = next(c for c in state.hands[0] if state.cards[c].is_land)
    assert len({fill.cards.index(camp_id) for fill in layouts}) == len(layouts) > 1
    for fill in layouts:
        ENGINE.apply(state, 0, fill)


def test_the_cut_off_values_a_threat_to_the_camp() -> None:
    pieces = [(camp("camp0"), 0, (0, 0)), (creature("mine", 5), 0, (2, 2)), (camp("camp1"), 1, (5, 3))]
    safe = position([*pieces, (creature("enemy", 3), 1, (3, 0))], turn=1)
    threatened = position([*pieces, (creature("enemy", 3), 1, (0, 1))], turn=1)
    model = BaseRaceModel(Rng(1))
    values = [model.value(state, 0) for state in (safe, threatened)]
    assert all(0 <= value <= 1 for value in values)
    assert values[0] > values[1] + 0.3
