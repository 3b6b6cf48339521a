"""The strong Base Race bot.

Strategy. A battle that hits the opponent's base camp wins at once, one that hits the
bot's own loses, so the game is a race between finding their camp and hiding one's
own. Layout: the camp goes to a back corner (two neighbours only), guarded by the two
strongest creatures; the next strongest cards hold the front row. Play: the camp is
one of the opponent's face-down pieces, likelier one that has not moved (the events
tell which moved); the other hidden cards are sampled (determinization) from fresh
boosters of the set without lands, less the opponent's cards already revealed. Each
move is judged one ply deep: an attack's chance of finding the camp, then, over the
sampled defenders, the battle's outcomes (rules 2-4, the rules' own battle code) and
the position each leaves: the threat on the bot's camp (opponent pieces next to it,
or one step from an open square next to it), the bot's chances on its next move,
pieces kept and lost, and how close its attackers stand to hidden opponent pieces.
The camp itself never attacks unless the odds favour it.

Fixed (``fixed``, the ``medium`` level and the search's guide), three mistakes of the
reference mended: losing the last attacker counts as the farthest distance from their
pieces, not none; a piece next to the camp weighs what it risks, most of a win
(a sure removal beats a one-in-three gamble); the camp goes to a square drawn among
the back row and the middle row's edges, and the guess of theirs weighs where a
sensible player hides it (the back, corners first), the pieces guarding it and how
rarely a camp moves.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from packplay.bots.budget import Budget
from packplay.bots.memory import Memory
from packplay.bots.priors import CardPrior, SampledStrategy
from packplay.games.base_race.battle import is_fighter, is_plain_artifact, resolve, strength
from packplay.rng import Rng
from packplay_clients.legal import fill
from packplay_protocol.cards import Card, CardInstance
from packplay_protocol.games.base_race import COLUMNS, ROWS, Battle, Move, Moved, View
from packplay_protocol.to_client import ViewMessage

WIN = 100.0
THREAT = 30.0
"""Worth of one opponent piece able to attack the bot's camp on its next move."""
NEAR_THREAT = 6.0
OPPORTUNITY = 25.0
"""Worth of the best chance of hitting the camp on the bot's next move."""
PIECE = 2.0
MOVED_WEIGHT = 0.7
"""A piece that moved is this much less likely to be the camp, per move."""
APPROACH = 0.5
FIXED_THREAT = 75.0
"""Fixed: a piece next to the camp stays there until removed, trying squares at leisure;
it finds the camp more often than not: it weighs most of a win."""
FIXED_MOVED_WEIGHT = 0.3
"""Fixed: a camp moves only when nothing else can, so a piece that moved rarely is one."""
DEPTH_WEIGHTS = (4.0, 2.0, 1.0)
"""Fixed: prior odds of the camp by the piece's row, counted from the owner's back row."""
AWAY_WEIGHT = 0.5
"""Fixed: the prior of a piece standing in the other seat's half."""
CORNER_WEIGHT = 2.0
"""Fixed: a back-row edge square has fewer neighbours: where a camp is best hidden."""
GUARD_WEIGHT = 0.25
"""Fixed: the odds grow by this for each own piece beside it (its guards)."""
CAMP_SQUARES = ((0, 0, 2), (0, 1, 2), (0, 2, 2), (0, 3, 2), (1, 0, 1), (1, 3, 1))
"""Fixed layout: (depth from the back row, column, weight) of the squares the camp is drawn among."""
NO_ATTACKER = float(ROWS + COLUMNS)
"""Fixed: the distance of a side with no attacker left (beyond any real one)."""


def neighbours(square: tuple[int, int]) -> list[tuple[int, int]]:
    row, col = square
    steps = ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1))
    return [(r, c) for r, c in steps if 0 <= r < ROWS and 0 <= c < COLUMNS]


@dataclass
class Spot:
    """A piece as the bot sees it: its owner, and its card when the bot may know it."""

    id: str
    owner: int
    card: CardInstance | None
    face_up: bool


Board = dict[tuple[int, int], Spot]


class BaseRaceStrategy(SampledStrategy):
    default_set = "ZNR"

    def choose(self, message: ViewMessage, memory: Memory) -> Any:
        view = message.view
        assert isinstance(view, View) and view.seat is not None
        if view.phase == "layout":
            hand = [message.cards[c] for c in view.hand]
            if self.fixed:
                order = layout_at(view.seat, hand, camp_square(view.seat, self.rng))
            else:
                order = layout(view.seat, hand, self.rng)
            return fill(message.legal.choices[0], order)
        race = Race(view, message.cards, memory, self.prior(message.cards), self.budget, fixed=self.fixed)
        return race.best(message.legal.actions)


def fighting_rank(card: Card) -> tuple[int, int, int]:
    """How well a card holds a square: creatures by rule 4, then artifacts, then spells."""
    if is_fighter(card):
        rank, value = strength(card)
        return 2, rank, value
    return (1, 0, 0) if is_plain_artifact(card) else (0, 0, 0)


def layout(seat: int, hand: Sequence[CardInstance], rng: Rng) -> list[str]:
    """The 12 ids in layout order: camp in a back corner, guards beside it, the front held."""
    rows = (0, 1, 2) if seat == 0 else (5, 4, 3)
    first = 0 if seat == 0 else 3
    back, middle, front = rows
    corner = (0, COLUMNS - 1)[rng.below(2)]
    ranked = sorted(hand, key=fighting_rank, reverse=True)
    camp = next((card for card in hand if card.is_land), ranked[-1])
    others = [card for card in ranked if card.id != camp.id]
    inward = 1 if corner == 0 else -1
    places = [(back, corner + inward), (middle, corner)]
    places += [(front, col) for col in range(COLUMNS)]
    places += [(row, col) for row in (middle, back) for col in range(COLUMNS) if (row, col) not in places]
    places = [place for place in places if place != (back, corner)]
    squares: dict[tuple[int, int], CardInstance] = {(back, corner): camp}
    squares.update(zip(places, others, strict=False))
    return [squares[(first + i // COLUMNS, i % COLUMNS)].id for i in range(len(hand))]


def home_rows(seat: int) -> tuple[int, int, int]:
    """The seat's rows from its back row to its front row."""
    return (0, 1, 2) if seat == 0 else (5, 4, 3)


def camp_square(seat: int, rng: Rng) -> tuple[int, int]:
    """Fixed: a square for the camp drawn among the back row and the middle row's edges."""
    total = sum(weight for _, _, weight in CAMP_SQUARES)
    draw = rng.below(total)
    for depth, col, weight in CAMP_SQUARES:
        if draw < weight:
            return home_rows(seat)[depth], col
        draw -= weight
    raise AssertionError("weights cover the draw")


def layout_at(seat: int, hand: Sequence[CardInstance], camp_at: tuple[int, int]) -> list[str]:
    """The 12 ids in layout order: the camp at ``camp_at``, the strongest cards on its
    neighbours, the next ones on the front row, the rest behind."""
    rows = home_rows(seat)
    first = min(rows)
    ranked = sorted(hand, key=fighting_rank, reverse=True)
    camp = next((card for card in hand if card.is_land), ranked[-1])
    others = [card for card in ranked if card.id != camp.id]
    places = [s for s in neighbours(camp_at) if s[0] in rows]
    places += [(rows[2], col) for col in range(COLUMNS) if (rows[2], col) not in places]
    places += [(row, col) for row in rows[1::-1] for col in range(COLUMNS) if (row, col) not in places]
    places = [place for place in places if place != camp_at]
    squares: dict[tuple[int, int], CardInstance] = {camp_at: camp}
    squares.update(zip(places, others, strict=False))
    return [squares[(first + i // COLUMNS, i % COLUMNS)].id for i in range(len(hand))]


def camp_prior(board: Board, square: tuple[int, int], owner: int) -> float:
    """Fixed: how likely a sensible player hid its camp on ``square``, from its row, a
    back-row edge, and the owner's pieces guarding it."""
    guards = sum(1 for n in neighbours(square) if n in board and board[n].owner == owner)
    return square_prior(square, owner, guards)


def square_prior(square: tuple[int, int], owner: int, guards: int) -> float:
    """Fixed: :func:`camp_prior` given the number of the owner's pieces beside the square."""
    depth = abs(square[0] - home_rows(owner)[0])
    weight = DEPTH_WEIGHTS[depth] if depth < len(DEPTH_WEIGHTS) else AWAY_WEIGHT
    if depth == 0 and square[1] in (0, COLUMNS - 1):
        weight *= CORNER_WEIGHT
    return weight * (1 + GUARD_WEIGHT * guards)


def movers(memory: Memory, seat: int) -> Counter[str]:
    """How often each opponent piece moved or attacked, from the events received."""
    counts: Counter[str] = Counter()
    for event in memory.events():
        if isinstance(event, Moved) and event.seat != seat:
            counts[event.card] += 1
        elif isinstance(event, Battle) and event.seat != seat:
            counts[event.attacker] += 1
    return counts


class Race:
    """One move decision."""

    def __init__(
        self,
        view: View,
        cards: Mapping[str, CardInstance],
        memory: Memory,
        prior: CardPrior,
        budget: Budget,
        *,
        fixed: bool = False,
    ) -> None:
        assert view.seat is not None
        self.seat = view.seat
        self.fixed = fixed
        self.cards = cards
        self.board: Board = {
            (p.row, p.col): Spot(p.id, p.owner, cards.get(p.card) if p.card else None, p.face_up)
            for p in view.board
        }
        moved = movers(memory, self.seat)
        self.camp_odds = self._camp_odds(moved)
        self.evaluation = Evaluation(self.seat, self.camp_odds, fixed)
        self.defenders = self._sample_defenders(view, prior, budget)

    def _camp_odds(self, moved: Counter[str]) -> dict[str, float]:
        if self.fixed:
            weights = {
                spot.id: FIXED_MOVED_WEIGHT ** moved[spot.id] * camp_prior(self.board, square, spot.owner)
                for square, spot in self.board.items()
                if spot.owner != self.seat and not spot.face_up
            }
        else:
            weights = {
                spot.id: MOVED_WEIGHT ** moved[spot.id]
                for spot in self.board.values()
                if spot.owner != self.seat and not spot.face_up
            }
        total = sum(weights.values()) or 1.0
        return {card_id: weight / total for card_id, weight in weights.items()}

    def _sample_defenders(self, view: View, prior: CardPrior, budget: Budget) -> list[CardInstance]:
        """Sampled identities of the opponent's hidden non-camp cards."""
        seen = [self.cards[c] for c in view.discard if c in self.cards]
        seen += [s.card for s in self.board.values() if s.owner != self.seat and s.card is not None]
        hidden = max(len(self.camp_odds) - 1, 1)
        samples: list[CardInstance] = []
        clock = budget.clock()
        while clock.more(len(samples) // hidden):
            samples += prior.hidden(seen, 3, hidden, keep=lambda card: not card.is_land)
        return samples

    # judging moves

    def best(self, moves: Sequence[Any]) -> Any:
        return max(moves, key=self.judge)

    def judge(self, move: Move) -> float:
        origin = next(square for square, spot in self.board.items() if spot.id == move.card)
        target = (move.row, move.col)
        mover = self.board[origin]
        defender = self.board.get(target)
        if defender is None:
            return self.position(self._moved(origin, target), extra=False)
        assert mover.card is not None
        camp = self.camp_odds.get(defender.id, 0.0)
        if mover.card.is_land:
            return camp * WIN - (1 - camp) * WIN
        if defender.card is not None:
            return self._battle_value(origin, target, mover.card, [defender.card])
        rest = self._battle_value(origin, target, mover.card, self.defenders)
        return camp * WIN + (1 - camp) * rest

    def _battle_value(
        self,
        origin: tuple[int, int],
        target: tuple[int, int],
        attacker: CardInstance,
        defenders: Sequence[Card],
    ) -> float:
        outcomes: Counter[tuple[bool, bool, int | None]] = Counter()
        for defender in defenders:
            result = resolve(attacker, defender, self.seat)
            outcomes[(result.attacker_lost, result.defender_lost, result.extra_turn)] += 1
        total = sum(outcomes.values())
        value = 0.0
        for (attacker_lost, defender_lost, extra), count in outcomes.items():
            board = dict(self.board)
            board[origin] = Spot(board[origin].id, self.seat, attacker, True)
            board[target] = Spot(board[target].id, 1 - self.seat, None, True)
            if defender_lost:
                del board[target]
            if attacker_lost:
                del board[origin]
            elif defender_lost:
                board[target] = board.pop(origin)
            value += (
                count / total * self.position(board, extra=extra == self.seat, theirs=extra == 1 - self.seat)
            )
        return value

    def _moved(self, origin: tuple[int, int], target: tuple[int, int]) -> Board:
        board = dict(self.board)
        board[target] = board.pop(origin)
        return board

    def position(self, board: Board, extra: bool, theirs: bool = False) -> float:
        """How good ``board`` is for the bot, the opponent to move (unless ``extra``)."""
        return self.evaluation.position(board, extra, theirs)


@dataclass
class Evaluation:
    """The position heuristic for ``seat``, given its odds of each opponent piece being the camp."""

    seat: int
    camp_odds: Mapping[str, float]
    fixed: bool = False

    @property
    def threat_weight(self) -> float:
        return FIXED_THREAT if self.fixed else THREAT

    def position(self, board: Board, extra: bool, theirs: bool = False) -> float:
        """How good ``board`` is for the bot, the opponent to move (unless ``extra``)."""
        mine = [square for square, spot in board.items() if spot.owner == self.seat]
        camp = next((s for s in mine if board[s].card is not None and board[s].card.is_land), None)  # type: ignore[union-attr]
        threat = 0.0
        if camp is not None:
            around = neighbours(camp)
            threat = sum(1 for s in around if s in board and board[s].owner != self.seat)
            open_squares = [s for s in around if s not in board]
            threat += (
                NEAR_THREAT
                / THREAT
                * sum(
                    1
                    for s in open_squares
                    for n in neighbours(s)
                    if n in board and board[n].owner != self.seat
                )
            )
        chance = self._best_chance(board, mine)
        pieces = len(mine) - sum(1 for spot in board.values() if spot.owner != self.seat)
        if extra:
            return OPPORTUNITY * 2 * chance + PIECE * pieces - APPROACH * self._distance(board, mine)
        weight = self.threat_weight * (1.5 if theirs else 1.0)
        return (
            -weight * threat + OPPORTUNITY * chance + PIECE * pieces - APPROACH * self._distance(board, mine)
        )

    def _best_chance(self, board: Board, mine: Sequence[tuple[int, int]]) -> float:
        best = 0.0
        for square in mine:
            card = board[square].card
            if card is None or card.is_land:
                continue
            for near in neighbours(square):
                spot = board.get(near)
                if spot is not None and spot.owner != self.seat:
                    best = max(best, self.camp_odds.get(spot.id, 0.0))
        return best

    def _distance(self, board: Board, mine: Sequence[tuple[int, int]]) -> float:
        targets = [s for s, spot in board.items() if spot.owner != self.seat and spot.id in self.camp_odds]
        if not targets:
            return 0.0
        attackers = [s for s in mine if board[s].card is not None and not board[s].card.is_land]  # type: ignore[union-attr]
        if not attackers:
            return NO_ATTACKER if self.fixed else 0.0
        return min(abs(a[0] - t[0]) + abs(a[1] - t[1]) for a in attackers for t in targets)
