"""What each audience may see (BR-6, C-5, C-6): views, zones and hidden cards."""

from __future__ import annotations

from collections.abc import Iterator

from packplay.games.base import Audience
from packplay.games.base_race.state import SEATS, BaseRaceState, row_col
from packplay_protocol.games.base_race import Phase, Piece, View
from packplay_protocol.games.common import GameResult


def result(state: BaseRaceState) -> GameResult | None:
    """A land battle's winner scores 1; at the BR-7 move limit both score 0.5 (a draw)."""
    if state.winner >= 0:
        scores = tuple(1.0 if seat == state.winner else 0.0 for seat in SEATS)
        return GameResult(winners=(state.winner,), draw=False, scores=scores, reason=state.end_reason)
    if state.draw:
        return GameResult(winners=SEATS, draw=True, scores=(0.5, 0.5), reason=state.end_reason)
    return None


def phase(state: BaseRaceState) -> Phase:
    if state.over:
        return "over"
    return "play" if state.board_set else "layout"


def view(state: BaseRaceState, audience: Audience) -> View:
    """BR-6: every position is public, a face-down card's identity is its owner's only."""
    outcome = result(state)
    cards = state.cards
    own_hand = state.hands[audience] if audience is not None else []
    return View(
        seat=audience,
        phase=phase(state),
        laid_out=tuple(seat in state.laid_out for seat in SEATS),
        hand=tuple(cards[card_id] for card_id in sorted(own_hand)),
        hand_counts=tuple(len(hand) for hand in state.hands),
        board=tuple(_pieces(state, audience)),
        discard=tuple(cards[card_id] for card_id in state.discard),
        set_aside=tuple(cards[card_id] for card_id in state.set_aside),
        out_count=len(state.out),
        out=tuple(cards[card_id] for card_id in state.out) if state.over else (),
        first_seat=state.laid_out[0] if state.laid_out else None,
        turn=state.turn if state.board_set and not state.over else None,
        extra_turns=tuple(state.extra_turns),
        moves=state.moves,
        move_limit=state.move_limit,
        winners=outcome.winners if outcome else (),
        end_reason=outcome.reason if outcome else None,
    )


def _pieces(state: BaseRaceState, audience: Audience) -> Iterator[Piece]:
    """The board in square order; before both layouts are in, only the viewer's own (C-5)."""
    for index, card_id in enumerate(state.board):
        if card_id is None:
            continue
        owner = state.owners[card_id]
        if not state.board_set and owner != audience:
            continue
        face_up = card_id in state.revealed
        known = face_up or owner == audience or state.over
        row, col = row_col(index)
        card = state.cards[card_id] if known else None
        yield Piece(id=card_id, owner=owner, row=row, col=col, face_up=face_up, card=card)


def zones(state: BaseRaceState) -> dict[str, list[str]]:
    """Every card of the game in exactly one zone."""
    return {
        "set_aside": list(state.set_aside),
        "out": list(state.out),
        "hand:0": list(state.hands[0]),
        "hand:1": list(state.hands[1]),
        "board": [card_id for card_id in state.board if card_id is not None],
        "discard": list(state.discard),
    }


def hidden_from(state: BaseRaceState, audience: Audience) -> frozenset[str]:
    """Out-of-play cards, other seats' hands and their face-down cards; nothing once over."""
    if state.over:
        return frozenset()
    hidden = set(state.out)
    for seat in SEATS:
        if seat != audience:
            hidden.update(state.hands[seat])
    hidden.update(
        card_id
        for card_id in state.board
        if card_id is not None and state.owners[card_id] != audience and card_id not in state.revealed
    )
    return frozenset(hidden)
