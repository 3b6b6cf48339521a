"""The Day vs Night rules engine (RULES.md, ``day_night``)."""

from __future__ import annotations

import math
from itertools import permutations
from typing import Any

import msgspec

from packplay.games.base import Audience, Emitted, Game, GameConfig, GivenBoosters
from packplay.games.day_night import actions, flow, setup, views
from packplay.games.day_night.state import SEATS, DayNightState
from packplay_protocol.games.common import ChooseCards, GameResult, LegalActions
from packplay_protocol.games.day_night import FACTS, Action, Declare, Place, Replace, View

ENUMERATE_BELOW = 60
"""Concrete actions are listed when fewer than this; otherwise a ChooseCards describes them."""


class DayNight(Game[DayNightState]):
    """2 players, Day and Night, play rows of cards against each other by color.

    Options (``config.options``): ``day_seat`` (0 or 1; default drawn at random).
    """

    name = "day_night"
    title = FACTS.title
    min_players = SEATS
    max_players = SEATS
    default_sets = setup.DEFAULT_SETS
    state_type = DayNightState
    action_type = Action

    def _setup(self, config: GameConfig, seed: int, catalog: Any, boosters: GivenBoosters) -> DayNightState:
        return setup.new_game(config, seed, catalog, boosters)

    def _pending(self, state: DayNightState) -> tuple[int, ...]:
        return state.pending()

    def _legal_actions(self, state: DayNightState, seat: int) -> LegalActions[Any]:
        hand = tuple(state.hands[seat])
        if state.phase == "place":
            return place_actions(hand, state.k)
        if state.phase == "replace":
            return replace_actions(hand)
        card = state.cards[state.rows[seat][state.slot]]
        return LegalActions(actions=tuple(Declare(color=color) for color in card.colors))

    def _apply(self, state: DayNightState, seat: int, action: Any) -> list[Emitted]:
        return actions.apply_action(state, seat, action)

    def result(self, state: DayNightState) -> GameResult | None:
        if not state.over:
            return None
        won = flow.winners(state)
        draw = len(won) == SEATS
        return GameResult(
            winners=won,
            draw=draw,
            scores=tuple(float(score) for score in flow.scores(state)),
            reason="equal piles after three rounds" if draw else "most cards in pile after three rounds",
        )

    def view(self, state: DayNightState, audience: Audience) -> View:
        return views.build_view(state, audience)

    def roles(self, state: DayNightState) -> tuple[str, ...]:
        return tuple(state.role(seat) for seat in range(2))

    def zones(self, state: DayNightState) -> dict[str, list[str]]:
        return views.zones(state)

    def hidden_from(self, state: DayNightState, audience: Audience) -> frozenset[str]:
        return views.hidden_from(state, audience)

    def known_cards(self, state: DayNightState, audience: Audience) -> list[str]:
        return views.known_cards(state, audience)


def place_actions(hand: tuple[str, ...], k: int) -> LegalActions[Any]:
    """DN-1: any k distinct hand cards in slot order; listed when the orders are few."""
    if math.perm(len(hand), k) < ENUMERATE_BELOW:
        return LegalActions(actions=tuple(Place(cards=row) for row in permutations(hand, k)))
    template = msgspec.to_builtins(Place(cards=()))
    del template["cards"]
    choice = ChooseCards(
        template=template, field="cards", options=hand, min_count=k, max_count=k, ordered=True
    )
    return LegalActions(choices=(choice,))


def replace_actions(hand: tuple[str, ...]) -> LegalActions[Any]:
    """DN-2: any card of the hand."""
    if len(hand) < ENUMERATE_BELOW:
        return LegalActions(actions=tuple(Replace(card=card_id) for card_id in hand))
    template = msgspec.to_builtins(Replace(card=""))
    del template["card"]
    choice = ChooseCards(template=template, field="card", options=hand, min_count=1, max_count=1, single=True)
    return LegalActions(choices=(choice,))
