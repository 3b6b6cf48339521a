"""The Mishra's Factory rules engine (RULES.md, ``mishra_factory``)."""

from __future__ import annotations

from typing import Any

import msgspec

from packplay.cards.model import CardInstance
from packplay.games.base import Audience, Emitted, Game, GameConfig, GivenBoosters, place_in_turn_order
from packplay.games.layout import ViewLayout
from packplay.games.mishra_factory import rules, scoring, setup, views
from packplay.games.mishra_factory.state import MishraFactoryState
from packplay_protocol.audit import MishraFactoryDeal
from packplay_protocol.games.common import ChooseCards, GameResult, LegalActions, game_result
from packplay_protocol.games.mishra_factory import (
    FACTS,
    Action,
    Ended,
    Group,
    Refilled,
    Take,
    Taken,
    View,
)


class MishraFactory(Game[MishraFactoryState]):
    """2-4 players take cards off a conveyor belt and score their color groups.

    Options (``config.options``): ``shuffle`` (bool, default true; false keeps the
    given deck order, booster 0 first) and ``first_seat`` (a seat; default drawn).
    """

    name = "mishra_factory"
    title = FACTS.title
    min_players = FACTS.min_players
    max_players = FACTS.max_players
    default_sets = setup.DEFAULT_SETS
    state_type = MishraFactoryState
    action_type = Action
    deal_type = MishraFactoryDeal
    view_type = View
    event_changes = views.CHANGES

    def _setup(
        self, config: GameConfig, seed: int, catalog: Any, boosters: GivenBoosters
    ) -> MishraFactoryState:
        return setup.new_game(config, seed, catalog, boosters)

    def _deal(self, state: MishraFactoryState) -> MishraFactoryDeal:
        return setup.deal_of(state)

    def _from_deal(
        self, config: GameConfig, deal: MishraFactoryDeal, cards: dict[str, CardInstance], seed: int
    ) -> MishraFactoryState:
        return setup.from_deal(config, deal, cards, seed)

    def _pending(self, state: MishraFactoryState) -> tuple[int, ...]:
        return () if state.over else (state.turn,)

    def _legal_actions(self, state: MishraFactoryState, seat: int) -> LegalActions[Any]:
        actions: list[Take] = []
        choices: list[ChooseCards] = []
        discards = tuple(entry.card for entry in state.collections[seat])
        for position, card_id in enumerate(state.belt):
            for group in rules.allowed_groups(state.cards[card_id]):
                if not rules.is_back(position):
                    actions.append(Take(belt_position=position, group=group))
                elif discards:  # MF-2
                    choices.append(discard_choice(position, group, discards))
        return LegalActions(actions=tuple(actions), choices=tuple(choices))

    def _apply(self, state: MishraFactoryState, seat: int, action: Any) -> list[Emitted]:
        take = rules.validate_take(state, seat, action)
        card, discarded = rules.take(state, seat, take)
        refilled = rules.refill(state)
        state.turn_number += 1
        state.turn = (seat + 1) % state.players  # clockwise = seat order
        taken = Taken(
            seat=seat,
            belt_position=take.belt_position,
            card=card,
            group=take.group,
            discarded=discarded,
            next_seat=None if state.over else state.turn,
        )
        events = [Emitted(taken)]
        if refilled is not None:
            events.append(Emitted(refill_event(state, refilled)))
        if state.over:
            lines = scoring.score_lines(state.collections, state.cards)
            events.append(Emitted(Ended(scores=lines, winners=scoring.winners(lines))))
        return events

    def result(self, state: MishraFactoryState) -> GameResult | None:
        if not state.over:
            return None
        lines = scoring.score_lines(state.collections, state.cards)
        scores = tuple(line.total for line in lines)
        return game_result(self.name, scoring.winners(lines), scores, "all_cards_collected")

    def layout(self, players: int) -> ViewLayout[MishraFactoryState]:
        return views.layout(players)

    def players(self, state: MishraFactoryState) -> int:
        return state.players

    def roles(self, state: MishraFactoryState) -> tuple[str, ...]:
        """Place in turn order: turns go clockwise (seat order) from the first seat."""
        return tuple(
            place_in_turn_order((seat - state.first_seat) % state.players) for seat in range(state.players)
        )

    def zones(self, state: MishraFactoryState) -> dict[str, list[str]]:
        return views.zones(state)

    def hidden_from(self, state: MishraFactoryState, audience: Audience) -> frozenset[str]:
        return views.hidden_from(state, audience)


def discard_choice(position: int, group: Group, discards: tuple[str, ...]) -> ChooseCards:
    """MF-2: a back card, paid with any one collected card (filled into ``discard``)."""
    template = msgspec.to_builtins(Take(belt_position=position, group=group, discard=""))
    del template["discard"]
    return ChooseCards(
        template=template, field="discard", options=discards, min_count=1, max_count=1, single=True
    )


def refill_event(state: MishraFactoryState, card: str) -> Refilled:
    return Refilled(belt_position=len(state.belt) - 1, card=card, deck_count=len(state.deck))
