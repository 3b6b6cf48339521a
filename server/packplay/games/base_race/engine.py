"""The Base Race rules engine (RULES.md "Base Race", BR-1..BR-9).

Options (``config.options``):

- ``shuffle`` (bool, default true): false keeps the given order: the first two basic
  lands of the pool are the base camps of seats 0 and 1, and the other cards are dealt
  in pool order (seat 0 the first 11, seat 1 the next 11).
- ``move_limit`` (int >= 1, default 200): BR-7, the game is a draw after that many moves.

The random draws and their order are documented in :mod:`.setup`.
"""

from __future__ import annotations

from typing import Any, ClassVar

import msgspec

from packplay.cards.model import CardInstance
from packplay.games.base import Audience, Emitted, Game, GameConfig, GameState, GivenBoosters, RuleError
from packplay.games.base_race import play, views
from packplay.games.base_race.setup import deal_of, from_deal, new_state
from packplay.games.base_race.state import SEATS, BaseRaceState
from packplay.games.layout import ViewLayout
from packplay_protocol.audit import BaseRaceDeal
from packplay_protocol.games.base_race import FACTS, LAYOUT_SIZE, Action, Layout, Move, View
from packplay_protocol.games.common import ChooseCards, GameResult, LegalActions

_LAYOUT_TEMPLATE = {k: v for k, v in msgspec.to_builtins(Layout(cards=())).items() if k != "cards"}


class BaseRace(Game[BaseRaceState]):
    """Two players race to find the other's base camp on a 4 x 6 board."""

    name: ClassVar[str] = "base_race"
    title: ClassVar[str] = FACTS.title
    min_players: ClassVar[int] = FACTS.min_players
    max_players: ClassVar[int] = FACTS.max_players
    default_sets: ClassVar[tuple[str, ...]] = FACTS.default_sets
    state_type: ClassVar[type[GameState]] = BaseRaceState
    action_type: ClassVar[Any] = Action
    deal_type: ClassVar[type[BaseRaceDeal]] = BaseRaceDeal
    view_type: ClassVar[type[View]] = View
    event_changes = views.CHANGES

    def _setup(self, config: GameConfig, seed: int, catalog: Any, boosters: GivenBoosters) -> BaseRaceState:
        return new_state(config, seed, catalog, boosters, self.default_sets)

    def _deal(self, state: BaseRaceState) -> BaseRaceDeal:
        return deal_of(state)

    def _from_deal(
        self, config: GameConfig, deal: BaseRaceDeal, cards: dict[str, CardInstance], seed: int
    ) -> BaseRaceState:
        return from_deal(config, deal, cards, seed)

    def _pending(self, state: BaseRaceState) -> tuple[int, ...]:
        if state.over:
            return ()
        if not state.board_set:
            return tuple(seat for seat in (0, 1) if seat not in state.laid_out)
        return (state.turn,)

    def _legal_actions(self, state: BaseRaceState, seat: int) -> LegalActions[Any]:
        if state.board_set:
            return LegalActions(actions=tuple(play.legal_moves(state, seat)))
        choice = ChooseCards(
            template=dict(_LAYOUT_TEMPLATE),
            field="cards",
            options=tuple(sorted(state.hands[seat])),
            min_count=LAYOUT_SIZE,
            max_count=LAYOUT_SIZE,
            ordered=True,
        )
        return LegalActions(choices=(choice,))

    def _apply(self, state: BaseRaceState, seat: int, action: Any) -> list[Emitted]:
        if isinstance(action, Layout):
            return play.lay_out(state, seat, action)
        if isinstance(action, Move):
            return play.move(state, seat, action)
        raise RuleError("action", "not a Base Race action")

    def roles(self, state: BaseRaceState) -> tuple[str, ...] | None:
        """Once both layouts are in: which seat moves first (the first to lay out)."""
        if not state.board_set:
            return None
        return tuple("first" if seat == state.laid_out[0] else "second" for seat in (0, 1))

    def result(self, state: BaseRaceState) -> GameResult | None:
        return views.result(state)

    def layout(self, players: int) -> ViewLayout[BaseRaceState]:
        return views.layout(players)

    def players(self, state: BaseRaceState) -> int:
        return len(SEATS)

    def zones(self, state: BaseRaceState) -> dict[str, list[str]]:
        return views.zones(state)

    def hidden_from(self, state: BaseRaceState, audience: Audience) -> frozenset[str]:
        return views.hidden_from(state, audience)

    def known_cards(self, state: BaseRaceState, audience: Audience) -> list[str]:
        """The same cards as the default (every card not hidden), without scanning them all."""
        return views.known_cards(state, audience)
