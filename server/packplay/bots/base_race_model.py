"""Base Race's search model: worlds from a seat's view, candidates, rollouts, cut-off.

A world is the whole game the view could come from: the seat's own pieces as it
knows them; among the opponent's face-down pieces, one is the camp (a basic land),
drawn by the fixed heuristics' camp odds (row, corners, guards, moves seen); the
others are drawn from fresh boosters without lands, less the cards already seen
(:class:`.priors.CardPrior`). Before both layouts are in, the opponent's hand is
drawn the same way and, if it already laid out, placed as the fixed layout would.
Only the view, its card table and the events received are read.

The candidates are the fixed heuristics' best few moves (or a few fixed layouts with
their camps on different squares). Games run to 200 moves, so rollouts are short
(``depth`` actions) and the cut-off matters: it is the fixed position heuristic,
squashed to [0, 1]. The rollout policy is greedy with some randomness and sees what
its seat could: its own pieces and the face-up ones; an unrevealed enemy piece is
judged by its odds of being the camp from its square, and by how often the mover
beats a card of the set, never by the world's card.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import msgspec

from packplay.bots.base_race import (
    Board,
    Evaluation,
    Race,
    Spot,
    camp_prior,
    camp_square,
    layout_at,
    square_prior,
)
from packplay.bots.budget import Budget
from packplay.bots.memory import Memory
from packplay.bots.priors import CardPrior, main_set
from packplay.cards.model import Card, CardInstance
from packplay.games.base import GameConfig
from packplay.games.base_race import BaseRace
from packplay.games.base_race.battle import resolve
from packplay.games.base_race.setup import is_basic
from packplay.games.base_race.state import NEIGHBOURS, ROW_COL, SQUARES, BaseRaceState, layout_squares, square
from packplay.rng import Rng
from packplay_clients.legal import fill
from packplay_protocol.games.base_race import COLUMNS, LAYOUT_SIZE, Layout, Move, TurnStarted, View
from packplay_protocol.games.common import LegalActions
from packplay_protocol.to_client import ViewMessage

DEFAULT_SET = "ZNR"
DEPTH = 4
"""Actions a rollout plays before the cut-off (two moves a side)."""
CANDIDATES = 5
"""Moves the search compares: the fixed heuristics' best ones."""
CLEAR_LEAD = 60.0
"""A heuristic best this far ahead of the next move is played without search."""
LAYOUTS = 3
"""Layouts the search compares, each with its camp on another square."""
GUIDE_BUDGET = Budget(samples=8)
"""Sampled defenders behind the candidates' heuristic judgement."""
VALUE_SCALE = 30.0
"""Heuristic points for which the cut-off value moves from 1/2 to about 3/4."""
DRAW_NEAR = 30
"""Moves before the limit from which a position's lead fades toward the draw."""
EXPLORE = 8
"""A rollout move in this many is played at random."""
WIN_POINTS = 100.0
KILL_POINTS = 10.0
DEFEND_POINTS = 40.0
LOSS_POINTS = 8.0
LAND_MOVE = -50.0
SAMPLE_BOOSTERS = 3


@dataclass
class Decision:
    """What one decision's worlds share: the guide's judgement and the camp odds."""

    key: tuple[str, int]
    seat: int
    race: Race | None
    seen: Sequence[Card]
    """The non-land cards of the game the seat has seen (what the hidden ones are not)."""
    normal_seat: int


class BaseRaceModel:
    """The search's view of Base Race, for the seat it decides for."""

    depth = DEPTH

    def __init__(self, rng: Rng) -> None:
        self.rng = rng
        self.engine = BaseRace()
        self._prior: CardPrior | None = None
        self._decision: Decision | None = None
        self._camp: CardInstance | None = None

    # what the seat knows

    def prior(self, cards: Mapping[str, Card]) -> CardPrior:
        if self._prior is None:
            self._prior = CardPrior(main_set(cards.values(), DEFAULT_SET), self.rng)
        return self._prior

    def decision(self, message: ViewMessage, memory: Memory) -> Decision:
        key = (message.game_id, message.version)
        if self._decision is None or self._decision.key != key:
            view = message.view
            assert isinstance(view, View) and view.seat is not None
            prior = self.prior(message.cards)
            race = None
            if view.phase == "play":
                race = Race(view, message.cards, memory, prior, GUIDE_BUDGET, fixed=True)
            known = [*view.discard, *view.hand, *(p.card for p in view.board if p.card is not None)]
            seen = [message.cards[c] for c in known if c in message.cards and not message.cards[c].is_land]
            self._decision = Decision(key, view.seat, race, seen, normal_seat(view, memory))
        return self._decision

    # the Model protocol

    def world(self, message: ViewMessage, memory: Memory, rng: Rng) -> BaseRaceState:
        view = message.view
        assert isinstance(view, View) and view.seat is not None
        decision = self.decision(message, memory)
        cards: dict[str, CardInstance] = dict(message.cards)
        state = BaseRaceState(
            seed=0,
            config=GameConfig(game="base_race", players=2),
            move_limit=view.move_limit,
            cards=cards,
            owners={},
            set_aside=list(view.set_aside),
            out=[f"~out{i}" for i in range(view.out_count)],
            camps=["", ""],
            hands=[[], []],
            board=[None] * SQUARES,
            discard=list(view.discard),
            extra_turns=list(view.extra_turns),
            moves=view.moves,
        )
        for piece in view.board:
            state.board[square(piece.row, piece.col)] = piece.id
            state.owners[piece.id] = piece.owner
            if piece.face_up:
                state.revealed.append(piece.id)
        if view.phase == "layout":
            self._layout_world(state, view, decision, rng)
        else:
            self._play_world(state, view, decision, rng)
        return state

    def _basic(self) -> CardInstance:
        """A basic land of the set: what a camp is (which one does not matter to the rules)."""
        if self._camp is None:
            assert self._prior is not None
            catalog = self._prior.catalog
            basics = [c for c in catalog.set(self._prior.set_code).cards if c.is_land and is_basic(c)]
            basics = basics or [c for c in catalog.set(DEFAULT_SET).cards if c.is_land and is_basic(c)]
            self._camp = instance(basics[0], "~camp")
        return self._camp

    def _hidden_cards(self, decision: Decision, count: int) -> list[CardInstance]:
        assert self._prior is not None
        return self._prior.hidden(decision.seen, SAMPLE_BOOSTERS, count, keep=lambda card: not card.is_land)

    def _play_world(self, state: BaseRaceState, view: View, decision: Decision, rng: Rng) -> None:
        assert view.seat is not None and decision.race is not None and view.first_seat is not None
        seat = view.seat
        state.laid_out = [view.first_seat, 1 - view.first_seat]
        state.turn = view.turn if view.turn is not None else seat
        state.normal_seat = decision.normal_seat
        hidden = [p.id for p in view.board if p.owner != seat and p.card is None]
        odds = decision.race.camp_odds
        camp = draw(hidden, [odds.get(card_id, 0.0) for card_id in hidden], rng)
        drawn = iter(self._hidden_cards(decision, len(hidden) - 1))
        for card_id in hidden:
            state.cards[card_id] = instance(self._basic() if card_id == camp else next(drawn), card_id)
        mine = next(p.id for p in view.board if p.owner == seat and state.cards[p.id].is_land)
        state.camps[seat], state.camps[1 - seat] = mine, camp

    def _layout_world(self, state: BaseRaceState, view: View, decision: Decision, rng: Rng) -> None:
        assert view.seat is not None
        seat, other = view.seat, 1 - view.seat
        state.hands[seat] = list(view.hand)
        theirs = [*self._hidden_cards(decision, LAYOUT_SIZE - 1), self._basic()]
        ids = [f"~hand{i}" for i in range(LAYOUT_SIZE)]
        for card_id, card in zip(ids, theirs, strict=True):
            state.cards[card_id] = instance(card, card_id)
        state.owners.update({card_id: seat for card_id in view.hand} | {card_id: other for card_id in ids})
        state.camps[seat] = next(c for c in view.hand if state.cards[c].is_land)
        state.camps[other] = ids[-1]
        if view.laid_out[other]:
            cards = [state.cards[c] for c in ids]
            order = layout_at(other, cards, camp_square(other, rng))
            for index, card_id in zip(layout_squares(other), order, strict=True):
                state.board[index] = card_id
            state.laid_out = [other]
        else:
            state.hands[other] = ids

    def candidates(self, message: ViewMessage, memory: Memory) -> Sequence[Any]:
        view = message.view
        assert isinstance(view, View) and view.seat is not None
        if view.phase == "layout":
            return self._layouts(message, view.seat)
        race = self.decision(message, memory).race
        assert race is not None
        judged = sorted(((race.judge(m), i) for i, m in enumerate(message.legal.actions)), reverse=True)
        if len(judged) > 1 and judged[0][0] - judged[1][0] > CLEAR_LEAD:
            judged = judged[:1]
        return [message.legal.actions[i] for _, i in judged[:CANDIDATES]]

    def _layouts(self, message: ViewMessage, seat: int) -> list[Any]:
        assert isinstance(message.view, View)
        hand = [message.cards[c] for c in message.view.hand]
        camps: list[tuple[int, int]] = []
        for _ in range(4 * LAYOUTS):
            place = camp_square(seat, self.rng)
            if place not in camps:
                camps.append(place)
            if len(camps) == LAYOUTS:
                break
        return [fill(message.legal.choices[0], layout_at(seat, hand, place)) for place in camps]

    def policy(self, state: BaseRaceState, seat: int, legal: LegalActions[Any], rng: Rng) -> Any:
        if legal.choices:
            hand = [state.cards[c] for c in state.hands[seat]]
            return Layout(cards=tuple(layout_at(seat, hand, camp_square(seat, rng))))
        actions = legal.actions
        if len(actions) == 1 or rng.below(EXPLORE) == 0:
            return actions[rng.below(len(actions))]
        sight = Sight(state, seat, self._strengths(state))
        decided = self._decision
        if decided is not None and decided.race is not None and decided.seat == seat:
            sight.odds = still_hidden(decided.race.camp_odds, sight.odds)
        offset = rng.below(len(actions))
        best, best_score = actions[offset], -math.inf
        for i in range(len(actions)):
            move = actions[(i + offset) % len(actions)]
            score = sight.score(move)
            if score > best_score:
                best, best_score = move, score
        return best

    def _strengths(self, state: BaseRaceState) -> Strengths:
        if self._prior is None:
            self._prior = CardPrior(main_set(state.cards.values(), DEFAULT_SET), self.rng)
        return strengths(self._prior.set_code)

    def value(self, state: BaseRaceState, seat: int) -> float:
        if not state.board_set:
            return 0.5
        board, odds = seat_board(state, seat)
        decided = self._decision
        if decided is not None and decided.race is not None and decided.seat == seat:
            odds = still_hidden(decided.race.camp_odds, odds)
        score = Evaluation(seat, odds, fixed=True).position(board, extra=state.turn == seat)
        score *= min(1.0, (state.move_limit - state.moves) / DRAW_NEAR)
        return 1 / (1 + math.exp(-score / VALUE_SCALE))


def instance(card: Card, card_id: str) -> CardInstance:
    """``card``'s facts under the id of the piece it stands for."""
    if isinstance(card, CardInstance):
        return msgspec.structs.replace(card, id=card_id)
    fields = {f: getattr(card, f) for f in Card.__struct_fields__}
    return CardInstance(**fields, id=card_id)


def draw(items: Sequence[str], weights: Sequence[float], rng: Rng) -> str:
    """One of ``items`` with odds in proportion to ``weights`` (evenly when all are zero)."""
    total = sum(weights)
    if total <= 0:
        return items[rng.below(len(items))]
    point = rng.below(1 << 30) / (1 << 30) * total
    for item, weight in zip(items, weights, strict=True):
        point -= weight
        if point < 0:
            return item
    return items[-1]


def still_hidden(odds: Mapping[str, float], hidden: Mapping[str, float]) -> dict[str, float]:
    """``odds`` of the pieces still hidden, made to sum to one (``hidden`` when none is left)."""
    kept = {card_id: odds[card_id] for card_id in hidden if card_id in odds}
    total = sum(kept.values())
    if total <= 0:
        return dict(hidden)
    return {card_id: weight / total for card_id, weight in kept.items()}


def normal_seat(view: View, memory: Memory) -> int:
    """The seat of the last normal turn: the last one the events started without ``extra``."""
    seat = view.turn if view.turn is not None else 0
    for event in memory.events():
        if isinstance(event, TurnStarted) and not event.extra:
            seat = event.seat
    return seat


def seat_board(state: BaseRaceState, seat: int) -> tuple[Board, dict[str, float]]:
    """The board as ``seat`` sees it, and its odds of each hidden enemy piece being the camp
    (from the squares alone)."""
    revealed = set(state.revealed)
    board: Board = {}
    for index, card_id in enumerate(state.board):
        if card_id is None:
            continue
        owner = state.owners[card_id]
        known = owner == seat or card_id in revealed
        card = state.cards[card_id] if known else None
        board[ROW_COL[index]] = Spot(card_id, owner, card, card_id in revealed)
    weights = {
        spot.id: camp_prior(board, place, spot.owner)
        for place, spot in board.items()
        if spot.owner != seat and not spot.face_up
    }
    total = sum(weights.values()) or 1.0
    return board, {card_id: weight / total for card_id, weight in weights.items()}


class Strengths:
    """How a card fares attacking an unknown non-land card of the set: the share of them it
    removes and the share that remove it (kept by card name)."""

    def __init__(self, pool: Sequence[Card]) -> None:
        self.pool = pool
        self._known: dict[str, tuple[float, float]] = {}

    def odds(self, card: Card) -> tuple[float, float]:
        found = self._known.get(card.name)
        if found is None:
            outcomes = [resolve(card, other, 0) for other in self.pool]
            found = (
                sum(o.defender_lost for o in outcomes) / len(outcomes),
                sum(o.attacker_lost for o in outcomes) / len(outcomes),
            )
            self._known[card.name] = found
        return found


@cache
def strengths(set_code: str) -> Strengths:
    """The set's reference pool: the non-land cards of a few boosters opened with a fixed seed."""
    prior = CardPrior(set_code, Rng(1))
    return Strengths(prior.pool(4 * SAMPLE_BOOSTERS, keep=lambda card: not card.is_land))


class Sight:
    """A rollout seat's quick judgement of a move, from what that seat could know."""

    def __init__(self, state: BaseRaceState, seat: int, strengths: Strengths) -> None:
        self.state, self.seat, self.strengths = state, seat, strengths
        self.revealed = set(state.revealed)
        self.squares: dict[str, int] = {}
        weights: dict[str, float] = {}
        board, owners = state.board, state.owners
        for index, card_id in enumerate(board):
            if card_id is None:
                continue
            self.squares[card_id] = index
            owner = owners[card_id]
            if owner != seat and card_id not in self.revealed:
                guards = sum(1 for n in NEIGHBOURS[index] if owners.get(board[n] or "") == owner)
                weights[card_id] = square_prior(ROW_COL[index], owner, guards)
        total = sum(weights.values()) or 1.0
        self.odds = {card_id: weight / total for card_id, weight in weights.items()}
        camp = self.squares.get(state.camps[seat])
        self.guarded = frozenset(NEIGHBOURS[camp]) if camp is not None else frozenset()
        self.targets = [self.squares[card_id] for card_id in self.odds]
        self._nearest: dict[int, int] = {}

    def score(self, move: Move) -> float:
        state = self.state
        origin = self.squares[move.card]
        target = move.row * COLUMNS + move.col
        mover = state.cards[move.card]
        if mover.is_land:
            return LAND_MOVE
        other = state.board[target]
        if other is None:
            return self._approach(origin, target)
        defend = DEFEND_POINTS if target in self.guarded else 0.0
        if other in self.revealed:
            outcome = resolve(mover, state.cards[other], self.seat)
            kill = (KILL_POINTS + defend) if outcome.defender_lost else 0.0
            return kill - (LOSS_POINTS if outcome.attacker_lost else 0.0)
        camp = self.odds.get(other, 0.0)
        kills, losses = self.strengths.odds(mover)
        return camp * WIN_POINTS + (1 - camp) * (kills * (KILL_POINTS + defend) - losses * LOSS_POINTS)

    def _approach(self, origin: int, target: int) -> float:
        if not self.targets:
            return 0.0
        leaving = 1.0 if origin in self.guarded else 0.0
        return self._near(origin) - self._near(target) - leaving

    def _near(self, index: int) -> int:
        """Steps from ``index`` to the nearest hidden enemy piece."""
        found = self._nearest.get(index)
        if found is None:
            distances = DISTANCE[index]
            found = self._nearest[index] = min(distances[t] for t in self.targets)
        return found


DISTANCE: tuple[tuple[int, ...], ...] = tuple(
    tuple(abs(a[0] - b[0]) + abs(a[1] - b[1]) for b in ROW_COL) for a in ROW_COL
)
"""Steps between two squares, by index."""
