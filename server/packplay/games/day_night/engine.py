"""The Day vs Night rules engine (RULES.md, ``day_night``)."""

from __future__ import annotations

from typing import Any

import msgspec

from packplay.cards.model import CardInstance
from packplay.games.base import Audience, Emitted, Game, GameConfig, GivenBoosters
from packplay.games.day_night import actions, flow, setup, views
from packplay.games.day_night.state import SEATS, DayNightState
from packplay.games.layout import ViewLayout
from packplay_protocol.audit import DayNightDeal
from packplay_protocol.games.common import ChooseCards, GameResult, LegalActions, game_result
from packplay_protocol.games.day_night import FACTS, Action, Declare, Place, Replace, View


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
    deal_type = DayNightDeal
    view_type = View
    event_changes = views.CHANGES

    def _setup(self, config: GameConfig, seed: int, catalog: Any, boosters: GivenBoosters) -> DayNightState:
        return setup.new_game(config, seed, catalog, boosters)

    def _deal(self, state: DayNightState) -> DayNightDeal:
        return setup.deal_of(state)

    def _from_deal(
        self, config: GameConfig, deal: DayNightDeal, cards: dict[str, CardInstance], seed: int
    ) -> DayNightState:
        return setup.from_deal(config, deal, cards, seed)

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
        reason = "equal_piles" if len(won) == SEATS else "most_cards_in_pile"
        return game_result(self.name, won, flow.scores(state), reason)

    def layout(self, players: int) -> ViewLayout[DayNightState]:
        return views.layout(players)

    def players(self, state: DayNightState) -> int:
        return SEATS

    def roles(self, state: DayNightState) -> tuple[str, ...]:
        return tuple(state.role(seat) for seat in range(2))

    def zones(self, state: DayNightState) -> dict[str, list[str]]:
        return views.zones(state)

    def hidden_from(self, state: DayNightState, audience: Audience) -> frozenset[str]:
        return views.hidden_from(state, audience)

    def known_cards(self, state: DayNightState, audience: Audience) -> list[str]:
        return views.known_cards(state, audience)


_PLACE = {key: value for key, value in msgspec.to_builtins(Place(cards=())).items() if key != "cards"}
"""A row's action without its cards: the template of the choice of a row."""


def place_actions(hand: tuple[str, ...], k: int) -> LegalActions[Any]:
    """DN-1: any k distinct hand cards in slot order, always as one ordered card choice
    (whatever the hand size), never as a list of rows."""
    choice = ChooseCards(template=_PLACE, field="cards", options=hand, min_count=k, max_count=k, ordered=True)
    return LegalActions(choices=(choice,))


def replace_actions(hand: tuple[str, ...]) -> LegalActions[Any]:
    """DN-2: any card of the hand, always as concrete actions, one per card."""
    return LegalActions(actions=tuple(Replace(card=card_id) for card_id in hand))
