"""The Vampire Wedding Planner search model: worlds consistent with the view and blind to
hidden cards, and the ``hard`` level playing legal actions."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from packplay.bots.budget import Budget
from packplay.bots.levels import SearchBot
from packplay.bots.memory import Memory
from packplay.bots.priors import packaged_catalog
from packplay.bots.wedding_planner import WeddingPlannerModel
from packplay.games.base import GameConfig, events_for
from packplay.games.registry import get_game
from packplay.games.wedding_planner.setup import is_theme_candidate
from packplay.games.wedding_planner.state import WeddingState
from packplay.rng import Rng
from packplay_protocol.to_client import ViewMessage

ENGINE = get_game("wedding_planner")


def new_game(players: int, seed: int) -> WeddingState:
    config = GameConfig(game="wedding_planner", players=players)
    state: WeddingState = ENGINE.setup(config, seed, packaged_catalog())
    return state


def message_for(state: WeddingState, seat: int) -> ViewMessage:
    """What a client of ``seat`` is sent: its view, its card table and its legal actions."""
    return ViewMessage(
        game_id="g",
        game="wedding_planner",
        version=state.turns_done,
        seat=seat,
        pending=ENGINE.pending(state),
        legal=ENGINE.legal_actions(state, seat),
        view=ENGINE.view(state, seat),
        cards={card: state.cards[card] for card in ENGINE.known_cards(state, seat)},
    )


def play_until(state: WeddingState, steps: int, seed: int, memories: list[Memory]) -> WeddingState:
    """``steps`` random actions, each seat remembering the events it was sent."""
    rng = Rng(seed)
    for step in range(steps):
        if ENGINE.result(state) is not None:
            break
        seat = ENGINE.pending(state)[0]
        transition = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat).actions))
        state = transition.state
        for audience, memory in enumerate(memories):
            memory.add(step + 1, events_for(transition.events, audience))
    return state


def assert_consistent(world: WeddingState, message: ViewMessage) -> None:
    """The world is a whole state the seat's message could come from."""
    seat = message.seat
    assert seat is not None
    assert ENGINE.view(world, seat) == message.view
    known = ENGINE.known_cards(world, seat)
    assert known == sorted(message.cards)
    assert all(world.cards[card] == message.cards[card] for card in known)
    placed = [card for zone in ENGINE.zones(world).values() for card in zone]
    assert Counter(placed) == Counter(list(world.cards)), "every card of the table in exactly one zone"
    assert all(card.id == card_id for card_id, card in world.cards.items())
    assert all(world.cards[card].magic_back for card in placed if card not in world.set_aside)
    assert all(is_theme_candidate(world.cards[theme]) for theme in world.themes if theme is not None)
    assert set(world.revealed) <= {card for hand in world.hands for card in hand}
    assert ENGINE.legal_actions(world, seat) == message.legal


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_a_world_is_consistent_with_the_seat_s_view(players: int) -> None:
    for game in range(4):
        for steps in (0, 1, 5 * players, 8 * players - 1):
            memories = [Memory() for _ in range(players)]
            state = play_until(new_game(players, 100 * players + game), steps, game, memories)
            if ENGINE.result(state) is not None:
                continue
            for seat in range(players):
                model = WeddingPlannerModel(Rng(seat))
                message = message_for(state, seat)
                assert_consistent(model.world(message, memories[seat], model.rng), message)


def test_a_world_hides_the_hidden_cards_under_new_ids() -> None:
    memories = [Memory() for _ in range(4)]
    state = play_until(new_game(4, 7), 9, 1, memories)
    model = WeddingPlannerModel(Rng(3))
    message = message_for(state, 0)
    world = model.world(message, memories[0], model.rng)
    hidden = ENGINE.hidden_from(world, 0)
    assert len(hidden) == len(ENGINE.hidden_from(state, 0)) > 0
    assert not hidden & set(state.cards), "no id of a hidden card of the real game"


def swapped_hidden(state: WeddingState, seat: int) -> WeddingState:
    """The same game for ``seat`` with other hidden cards: the draw pile and another seat's
    hidden hand card exchanged, two draw-pile cards swapped."""
    other = next(s for s in range(len(state.hands)) if s != seat)
    hands = [list(hand) for hand in state.hands]
    draw = list(state.draw)
    hidden = next(i for i, card in enumerate(hands[other]) if card not in state.revealed)
    hands[other][hidden], draw[0] = draw[0], hands[other][hidden]
    draw[1], draw[2] = draw[2], draw[1]
    return WeddingState(
        config=state.config,
        seed=state.seed,
        cards=state.cards,
        hands=hands,
        themes=list(state.themes),
        draw=draw,
        discard=list(state.discard),
        set_aside=list(state.set_aside),
        revealed=list(state.revealed),
        first_seat=state.first_seat,
        turns_done=state.turns_done,
        phase=state.phase,
    )


@pytest.mark.parametrize("players", [2, 4])
def test_the_world_builder_cannot_see_hidden_cards(players: int) -> None:
    memories = [Memory() for _ in range(players)]
    state = play_until(new_game(players, 11), 3 * players, 5, memories)
    other = swapped_hidden(state, 0)
    assert other.hands != state.hands and other.draw != state.draw
    first, second = message_for(state, 0), message_for(other, 0)
    assert first == second
    worlds = []
    for game in (first, second):
        model = WeddingPlannerModel(Rng(9))
        worlds.append([ENGINE.zones(model.world(game, memories[0], model.rng)) for _ in range(5)])
    assert worlds[0] == worlds[1]


def test_worlds_differ_from_draw_to_draw() -> None:
    memories = [Memory() for _ in range(3)]
    state = play_until(new_game(3, 2), 4, 2, memories)
    model = WeddingPlannerModel(Rng(1))
    message = message_for(state, 1)
    worlds = [model.world(message, memories[1], model.rng) for _ in range(3)]
    assert len({tuple(world.cards[card].name for card in world.draw) for world in worlds}) > 1


def test_the_rollout_policy_plays_whole_games() -> None:
    for players in (2, 5):
        state = new_game(players, players)
        model = WeddingPlannerModel(Rng(0))
        rng = Rng(4)
        while ENGINE.result(state) is None:
            seat = ENGINE.pending(state)[0]
            legal = ENGINE.legal_actions(state, seat)
            action = model.policy(state, seat, legal, rng)
            assert action in legal.actions
            state = ENGINE.apply(state, seat, action).state
        assert 0.0 <= model.value(state, 0) <= 1.0


@pytest.mark.parametrize("players", [2, 3])
def test_hard_plays_legal_actions(players: int) -> None:
    state = new_game(players, 21)
    bots = [SearchBot(seed=seat, budget=Budget(samples=4)) for seat in range(players)]
    version = 0
    while ENGINE.result(state) is None:
        seat = ENGINE.pending(state)[0]
        message = message_for(state, seat)
        action: Any = bots[seat].choose(message)
        assert action in message.legal.actions
        transition = ENGINE.apply(state, seat, action)
        state, version = transition.state, version + 1
        for audience, bot in enumerate(bots):
            bot.observe(version, events_for(transition.events, audience))
