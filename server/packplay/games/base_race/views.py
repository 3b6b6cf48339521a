"""What each audience may see (BR-6, C-5, C-6): views, zones, hidden and known cards."""

from __future__ import annotations

from functools import cache

from packplay.games.base import Audience
from packplay.games.base_race.state import ROW_COL, SEATS, BaseRaceState
from packplay.games.layout import Changes, Part, ViewLayout, private, shared
from packplay_protocol.games import base_race as events
from packplay_protocol.games.base_race import Phase, Piece, View
from packplay_protocol.games.common import GameResult, game_result


def result(state: BaseRaceState) -> GameResult | None:
    """A land battle's winner scores 1; at the BR-7 move limit both score 0.5 (a draw)."""
    if state.winner >= 0:
        scores = tuple(1 if seat == state.winner else 0 for seat in SEATS)
        return game_result("base_race", (state.winner,), scores, state.end_reason)
    if state.draw:
        return game_result("base_race", SEATS, (0.5, 0.5), state.end_reason)
    return None


def phase(state: BaseRaceState) -> Phase:
    if state.over:
        return "over"
    return "play" if state.board_set else "layout"


RESULT = ("winner", "draw", "end_reason")
"""What the outcome is read from (the game is over once there is one)."""


@cache
def layout(players: int) -> ViewLayout[BaseRaceState]:
    """BR-6, part by part: every position is public, a face-down card's identity is its
    owner's only. Cards are named by id; the audience's card table (``known_cards``) gives
    the facts of those it may know."""
    parts: list[Part[BaseRaceState]] = [
        private("/seat", lambda state, audience: audience, ()),
        shared("/phase", phase, ("laid_out", *RESULT)),
        shared("/laid_out", lambda state: (0 in state.laid_out, 1 in state.laid_out), ("laid_out",)),
        private("/hand", _hand, ("hands",)),
        shared("/hand_counts", lambda state: (len(state.hands[0]), len(state.hands[1])), ("hands",)),
        private("/board", _pieces, ("board", "owners", "revealed", "laid_out", *RESULT)),
        shared("/discard", lambda state: tuple(state.discard), ("discard",)),
        shared("/set_aside", lambda state: tuple(state.set_aside), ("set_aside",)),
        shared("/out_count", lambda state: len(state.out), ("out",)),
        shared("/out", lambda state: tuple(state.out) if result(state) is not None else (), ("out", *RESULT)),
        shared("/first_seat", lambda state: state.laid_out[0] if state.laid_out else None, ("laid_out",)),
        shared(
            "/turn",
            lambda state: state.turn if state.board_set and result(state) is None else None,
            ("turn", "laid_out", *RESULT),
        ),
        shared("/extra_turns", lambda state: tuple(state.extra_turns), ("extra_turns",)),
        shared("/moves", lambda state: state.moves, ("moves",)),
        shared("/move_limit", lambda state: state.move_limit, ("move_limit",)),
        shared("/winners", _winners, RESULT),
        shared("/end_reason", _end_reason, RESULT),
    ]
    tag = View.__struct_config__.tag
    known = ("out", "hands", "board", "owners", "revealed", *RESULT)
    return ViewLayout(tag, BaseRaceState.__struct_fields__, parts, known)  # type: ignore[arg-type]


def _hand(state: BaseRaceState, audience: Audience) -> tuple[str, ...]:
    return tuple(sorted(state.hands[audience])) if audience is not None else ()


def _winners(state: BaseRaceState) -> tuple[int, ...]:
    outcome = result(state)
    return outcome.winners if outcome else ()


def _end_reason(state: BaseRaceState) -> str | None:
    outcome = result(state)
    return outcome.reason if outcome else None


def _pieces(state: BaseRaceState, audience: Audience) -> tuple[Piece, ...]:
    """The board in square order; before both layouts are in, only the viewer's own (C-5)."""
    owners, revealed = state.owners, set(state.revealed)
    only_own, all_known = not state.board_set, state.over
    pieces = []
    for card_id, (row, col) in zip(state.board, ROW_COL, strict=True):
        if card_id is None:
            continue
        owner = owners[card_id]
        if only_own and owner != audience:
            continue
        face_up = card_id in revealed
        known = face_up or owner == audience or all_known
        card = card_id if known else None
        pieces.append(Piece(id=card_id, owner=owner, row=row, col=col, face_up=face_up, card=card))
    return tuple(pieces)


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
    owners, revealed = state.owners, state.revealed
    hidden.update(
        card_id
        for card_id in state.board
        if card_id is not None and owners[card_id] != audience and card_id not in revealed
    )
    return frozenset(hidden)


def known_cards(state: BaseRaceState, audience: Audience) -> list[str]:
    """Every card not in ``hidden_from``, sorted, built from the public side of BR-6.

    Set-aside and discarded cards, the audience's own hand and board cards and the
    face-up ones; every card once the game is over.
    """
    if state.over:
        return sorted(state.cards)
    owners, revealed = state.owners, state.revealed
    known = [*state.set_aside, *state.discard]
    if audience is not None:
        known += state.hands[audience]
    known += [c for c in state.board if c is not None and (owners[c] == audience or c in revealed)]
    known.sort()
    return known


_TURN = ("turn", "normal_seat", "extra_turns", "moves")
CHANGES: dict[type, Changes] = {
    events.LaidOut: Changes(own=("hands",), table=("board", "laid_out")),
    events.BoardSet: Changes(table=("board", "laid_out", "hands", "owners", *_TURN)),
    events.Moved: Changes(table=("board", *_TURN)),
    events.Battle: Changes(
        table=("board", "discard", "revealed", "out", "set_aside", "winner", "draw", "end_reason", *_TURN)
    ),
    events.TurnStarted: Changes(table=_TURN),
    events.GameOver: Changes(table=("end_reason", "winner", "draw", "revealed", *_TURN)),
}
"""What each of the game's events changes (see :class:`packplay.games.layout.Changes`)."""
