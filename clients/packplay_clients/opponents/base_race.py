"""Base Race opponents: find their base camp, keep yours hidden.

Both lay the base camp (the one land) in the back row and judge a battle as the printed
rules do: a land revealed loses, a land attacking a land wins; an instant, sorcery or
enchantment takes both cards; a non-creature artifact is discarded for an extra turn;
legendary creatures and planeswalkers beat the others, then the higher toughness or
loyalty wins, the attacker on equal values. A face-down card of theirs is their camp one
time in as many face-down cards as they have, and otherwise looks like any card seen so
far (their side is dealt from the same boosters).

``greedy`` makes the move of best immediate worth: a battle it expects to win, a probe
that may find the camp, else a step forward (a thoughtful player steps toward their
nearest face-down card instead). ``thoughtful`` hides its camp in a back
corner with its two toughest creatures beside it and its spells in front as probes, and
also weighs the board its move leaves: their pieces next to its camp, open squares around
the camp that one of theirs is near, and its pieces left beside a revealed card of theirs
that beats them.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

from packplay_clients.legal import fill
from packplay_clients.opponents.common import best, cards_of, first_legal
from packplay_protocol.cards import CardInstance
from packplay_protocol.games.base_race import COLUMNS, Move, Piece, View
from packplay_protocol.to_client import ViewMessage

WIN = 10.0
"""A won game, in cards: finding the camp is worth a lot of material."""
CAMP_THREAT = 4.0
OPEN_APPROACH = 0.4
HANGING = 0.8
EXTRA_TURN = 0.3
SPELL_TYPES = frozenset({"Instant", "Sorcery", "Enchantment"})

Square = tuple[int, int]


@dataclass(frozen=True)
class Clash:
    """A battle's result for the attacker: the game (+1 won, -1 lost, 0 on), who is discarded,
    and who takes an extra turn (+1 the attacker, -1 the defender, 0 none)."""

    game: int
    attacker_dies: bool
    defender_dies: bool
    extra: int = 0

    @property
    def worth(self) -> float:
        if self.game:
            return WIN * self.game
        return float(self.defender_dies) - float(self.attacker_dies) + EXTRA_TURN * self.extra


def kind(card: CardInstance) -> str:
    """land, creature (planeswalkers too, BR-1), spell or artifact (non-creature)."""
    if card.is_land:
        return "land"
    if "Creature" in card.types or "Planeswalker" in card.types:
        return "creature"
    if SPELL_TYPES & set(card.types) or "Artifact" not in card.types:
        return "spell"
    return "artifact"


def number(text: str | None) -> int:
    """BR-4: a printed value with ``*`` counts as its number part, or 0."""
    found = re.search(r"-?\d+", text or "")
    return int(found.group()) if found else 0


def strength(card: CardInstance) -> tuple[bool, int]:
    """Legendary creatures and planeswalkers first, then toughness or loyalty."""
    if "Planeswalker" in card.types and "Creature" not in card.types:
        return True, number(card.loyalty)
    return card.is_legendary, number(card.toughness)


def clash(attacker: CardInstance, defender: CardInstance) -> Clash:
    """How a battle ends, from the printed rules 1-4."""
    a, d = kind(attacker), kind(defender)
    if a == "land" or d == "land":
        return Clash(1 if d == "land" else -1, False, False)
    a_artifact = "Artifact" in attacker.types and a != "creature"
    d_artifact = "Artifact" in defender.types and d != "creature"
    extra = 1 if a_artifact else (-1 if d_artifact else 0)
    if a == "spell" or d == "spell":
        return Clash(0, True, True, extra)
    if a_artifact or d_artifact:
        return Clash(0, a_artifact, d_artifact, extra)
    wins = strength(attacker) >= strength(defender)
    return Clash(0, not wins, wins)


class Board:
    """The pieces by square, from one seat's side."""

    def __init__(self, message: ViewMessage) -> None:
        view: View = message.view
        self.seat = view.seat if view.seat is not None else 0
        self.cards = message.cards
        self.pieces: dict[Square, Piece] = {(p.row, p.col): p for p in view.board}
        self.forward = 1 if self.seat == 0 else -1
        seen = [c for c in message.cards.values() if c.magic_back and not c.is_land]
        self.population = seen or []

    def card(self, piece: Piece) -> CardInstance | None:
        return self.cards.get(piece.card) if piece.card else None

    def hidden_theirs(self) -> int:
        return sum(1 for p in self.pieces.values() if p.owner != self.seat and not p.face_up)

    def camp(self) -> Square | None:
        for square, piece in self.pieces.items():
            card = self.card(piece)
            if piece.owner == self.seat and card is not None and card.is_land:
                return square
        return None

    def piece_of(self, card_id: str) -> tuple[Square, Piece]:
        return next((s, p) for s, p in self.pieces.items() if p.id == card_id)


def neighbours(square: Square) -> list[Square]:
    row, col = square
    steps = ((row + 1, col), (row - 1, col), (row, col + 1), (row, col - 1))
    return [(r, c) for r, c in steps if 0 <= r < 6 and 0 <= c < COLUMNS]


def probe(board: Board, card: CardInstance) -> float:
    """The worth of attacking a face-down card of theirs with ``card``."""
    hidden = max(board.hidden_theirs(), 1)
    camp = clash(card, _LAND).worth / hidden
    if not board.population:
        return camp
    other = sum(clash(card, x).worth for x in board.population) / len(board.population)
    return camp + (1 - 1 / hidden) * other


def distance(square: Square, targets: list[Square]) -> int:
    """Steps from ``square`` to the nearest of ``targets`` (0 when there is none)."""
    return min((abs(square[0] - r) + abs(square[1] - c) for r, c in targets), default=0)


def immediate(board: Board, move: Move, hunt: bool = False) -> float:
    """What the move gains now: a battle's worth, or a small step forward (with ``hunt``,
    a step toward their nearest face-down card, where the camp hides)."""
    origin, piece = board.piece_of(move.card)
    mine = board.card(piece)
    if mine is None:
        return 0.0
    target = board.pieces.get((move.row, move.col))
    if target is None:
        step = (move.row - origin[0]) * board.forward
        if hunt:
            hidden = [s for s, p in board.pieces.items() if p.owner != board.seat and not p.face_up]
            step += 2 * (distance(origin, hidden) - distance((move.row, move.col), hidden))
        return (-1.0 if mine.is_land else 0.05 * step) + 0.01
    theirs = board.card(target)
    return clash(mine, theirs).worth if theirs is not None else probe(board, mine)


def after(board: Board, move: Move) -> dict[Square, Piece]:
    """The pieces after the move, when its outcome is known (else the attacker stays put)."""
    origin, piece = board.piece_of(move.card)
    pieces = dict(board.pieces)
    target = pieces.get((move.row, move.col))
    mine, theirs = board.card(piece), board.card(target) if target else None
    moved = Piece(
        id=piece.id, owner=piece.owner, row=move.row, col=move.col, face_up=piece.face_up, card=piece.card
    )
    if target is None:
        del pieces[origin]
        pieces[(move.row, move.col)] = moved
    elif mine is not None and theirs is not None:
        result = clash(mine, theirs)
        if result.defender_dies:
            del pieces[(move.row, move.col)]
        if result.attacker_dies or result.defender_dies:
            del pieces[origin]
        if result.defender_dies and not result.attacker_dies:
            pieces[(move.row, move.col)] = moved
    return pieces


def danger(board: Board, pieces: dict[Square, Piece]) -> float:
    """What the board risks for the seat: its camp in reach, and pieces a revealed card beats."""
    risk = 0.0
    enemies = [square for square, piece in pieces.items() if piece.owner != board.seat]
    for square, piece in pieces.items():
        if piece.owner != board.seat:
            continue
        card = board.card(piece)
        around = [pieces[n] for n in neighbours(square) if n in pieces and pieces[n].owner != board.seat]
        if card is not None and card.is_land:
            risk += CAMP_THREAT * len(around)
            # An empty square beside the camp matters when one of theirs is two steps from it.
            near = [n for n in neighbours(square) if n not in pieces and distance(n, enemies) <= 2]
            risk += OPEN_APPROACH * len(near) if enemies else 0.0
            continue
        for enemy in around:
            theirs = board.card(enemy)
            if card is not None and theirs is not None and clash(theirs, card).worth > 0:
                risk += HANGING
                break
    return risk


def play(message: ViewMessage, rng: random.Random, thoughtful: bool) -> Any:
    board = Board(message)
    moves = [a for a in message.legal.actions if isinstance(a, Move)]
    if not moves:
        return first_legal(message)

    def worth(move: Move) -> float:
        if not thoughtful:
            return immediate(board, move)
        return immediate(board, move, hunt=True) - danger(board, after(board, move))

    return best(moves, worth, rng)


_LAND = CardInstance(set="", number="", name="camp", rarity="common", types=("Land",), id="camp")
"""A stand-in for their camp: what a probe finds one time in as many face-down cards."""


def layout(message: ViewMessage, rng: random.Random, thoughtful: bool) -> Any:
    """The camp in the back row, the strongest cards where they serve (see the module)."""
    choice = message.legal.choices[0]
    view: View = message.view
    cards = cards_of(message, choice.options)
    camp = next((c for c in cards if c.is_land), None)
    rest = [c for c in cards if c is not camp]
    rng.shuffle(rest)
    rest.sort(key=lambda c: (kind(c) == "creature", strength(c)), reverse=True)
    squares: dict[tuple[int, int], CardInstance] = {}  # (depth: 0 back .. 2 front, column)
    column = rng.choice((0, COLUMNS - 1)) if thoughtful else rng.randrange(COLUMNS)
    if camp is not None:
        squares[(0, column)] = camp
    if thoughtful:
        guards = [(0, 1 if column == 0 else COLUMNS - 2), (1, column)]
        for square, guard in zip(guards, rest, strict=False):
            squares[square] = guard
        rest = rest[len(guards) :]
        spells = [c for c in rest if kind(c) == "spell"][:2]
        rest = spells + [c for c in rest if c not in spells]
    free = [(d, c) for d in (2, 1, 0) for c in range(COLUMNS) if (d, c) not in squares]
    for square, card in zip(free, rest, strict=False):
        squares[square] = card
    first_row = 0 if view.seat == 0 else 3
    order = []
    for index in range(len(cards)):
        row = first_row + index // COLUMNS
        depth = row if view.seat == 0 else 5 - row
        order.append(squares[(depth, index % COLUMNS)].id)
    return fill(choice, order)


def decide(message: ViewMessage, rng: random.Random, thoughtful: bool) -> Any:
    if message.view.phase == "layout" and message.legal.choices:
        return layout(message, rng, thoughtful)
    return play(message, rng, thoughtful)


def greedy(message: ViewMessage, rng: random.Random) -> Any:
    return decide(message, rng, thoughtful=False)


def thoughtful(message: ViewMessage, rng: random.Random) -> Any:
    return decide(message, rng, thoughtful=True)
