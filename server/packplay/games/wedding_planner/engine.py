"""Vampire Wedding Planner (Innistrad: Crimson Vow), 2-6 players: the rules engine.

Setup, options and the order of random draws: see ``setup``. Turns go
counter-clockwise (reverse seat order) from a random first seat; each turn is a
pick-up (draw or take) then a discard; the game ends after 4 turns per player.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from packplay.cards.model import CardInstance
from packplay.games.base import (
    Audience,
    Emitted,
    Game,
    GameConfig,
    GivenBoosters,
    RuleError,
    place_in_turn_order,
)
from packplay.games.layout import ViewLayout
from packplay.games.wedding_planner import moves, views
from packplay.games.wedding_planner.scoring import winners
from packplay.games.wedding_planner.setup import deal_of, from_deal, new_state
from packplay.games.wedding_planner.state import WeddingState, current_seat, is_over
from packplay.games.wedding_planner.state import players as players_of
from packplay_protocol.audit import WeddingPlannerDeal
from packplay_protocol.games.common import GameResult, LegalActions, game_result
from packplay_protocol.games.wedding_planner import FACTS, Action, Discard, Draw, Take, View


class WeddingPlanner(Game[WeddingState]):
    """Collect the hand that best matches your secret wedding theme."""

    name: ClassVar[str] = "wedding_planner"
    title: ClassVar[str] = FACTS.title
    min_players: ClassVar[int] = FACTS.min_players
    max_players: ClassVar[int] = FACTS.max_players
    default_sets: ClassVar[tuple[str, ...]] = FACTS.default_sets
    state_type: ClassVar[type[WeddingState]] = WeddingState
    action_type: ClassVar[Any] = Action
    deal_type: ClassVar[type[WeddingPlannerDeal]] = WeddingPlannerDeal
    view_type: ClassVar[type[View]] = View
    event_changes = views.CHANGES

    def _setup(self, config: GameConfig, seed: int, catalog: Any, boosters: GivenBoosters) -> WeddingState:
        return new_state(config, seed, catalog, boosters, self.default_sets)

    def _deal(self, state: WeddingState) -> WeddingPlannerDeal:
        return deal_of(state)

    def _from_deal(
        self, config: GameConfig, deal: WeddingPlannerDeal, cards: dict[str, CardInstance], seed: int
    ) -> WeddingState:
        return from_deal(config, deal, cards, seed)

    def _pending(self, state: WeddingState) -> tuple[int, ...]:
        return () if is_over(state) else (current_seat(state),)

    def _legal_actions(self, state: WeddingState, seat: int) -> LegalActions[Any]:
        if state.phase == "discard":
            return LegalActions(actions=tuple(Discard(card=card) for card in sorted(state.hands[seat])))
        draws: tuple[Draw, ...] = (Draw(),) if state.draw else ()
        return LegalActions(actions=draws + tuple(Take(card=card) for card in state.discard))

    def _apply(self, state: WeddingState, seat: int, action: Any) -> list[Emitted]:
        if isinstance(action, Draw):
            return moves.draw(state, seat)
        if isinstance(action, Take):
            return moves.take(state, seat, action.card)
        if isinstance(action, Discard):
            return moves.discard(state, seat, action.card)
        raise RuleError("action", "not a Vampire Wedding Planner action")

    def result(self, state: WeddingState) -> GameResult | None:
        """WP-5: the highest score wins; equal scores share the win (a draw when all tie)."""
        if not is_over(state):
            return None
        scores = moves.final_scores(state)
        best = winners(scores)
        reason = "all_scores_tied" if len(best) == len(scores) else "highest_hand_score"
        return game_result(self.name, best, tuple(score.total for score in scores), reason)

    def layout(self, players: int) -> ViewLayout[WeddingState]:
        return views.layout(players)

    def players(self, state: WeddingState) -> int:
        return players_of(state)

    def roles(self, state: WeddingState) -> tuple[str, ...]:
        """Place in turn order: turns go counter-clockwise (reverse seat order)."""
        n = state.config.players
        return tuple(place_in_turn_order((state.first_seat - seat) % n) for seat in range(n))

    def zones(self, state: WeddingState) -> Mapping[str, Sequence[str]]:
        return views.zones(state)

    def hidden_from(self, state: WeddingState, audience: Audience) -> frozenset[str]:
        return views.hidden_from(state, audience)
