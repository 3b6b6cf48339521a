"""The two halves of a turn: pick up (draw or take), then discard.

Each move checks everything before it changes the state, so a refused action
leaves the state as it was.
"""

from __future__ import annotations

from packplay.cards.model import CardInstance
from packplay.games.base import Emitted, RuleError, told_apart
from packplay.games.wedding_planner.scoring import score_hand, winners
from packplay.games.wedding_planner.state import (
    WeddingState,
    current_seat,
    is_over,
)
from packplay_protocol.games.wedding_planner import Discarded, Drew, Revealed, Score, Took


def draw(state: WeddingState, seat: int) -> list[Emitted]:
    """Pick up the top card of the draw pile: private to the drawer, redacted for the rest."""
    _require_phase(state, "pickup")
    if not state.draw:
        raise RuleError("WP-4", "the draw pile is empty: take from the discard pile")
    card = state.draw.pop(0)
    state.hands[seat].append(card)
    state.phase = "discard"
    count = len(state.draw)
    private = Drew(seat=seat, draw_count=count, card=card)
    return told_apart(seat, private, Drew(seat=seat, draw_count=count))


def take(state: WeddingState, seat: int, card: str) -> list[Emitted]:
    """WP-3: pick up ``card`` from the discard pile with every card above it (all public)."""
    _require_phase(state, "pickup")
    if card not in state.discard:
        raise RuleError("WP-3", "that card is not in the discard pile")
    index = state.discard.index(card)
    taken = state.discard[index:]
    del state.discard[index:]
    state.hands[seat].extend(taken)
    state.revealed.extend(taken)
    state.phase = "discard"
    return [Emitted(Took(seat=seat, cards=tuple(taken)))]


def discard(state: WeddingState, seat: int, card: str) -> list[Emitted]:
    """Put one hand card on the discard pile and end the turn (and maybe the game)."""
    _require_phase(state, "discard")
    hand = state.hands[seat]
    if card not in hand:
        raise RuleError("card", "that card is not in your hand")
    hand.remove(card)
    if card in state.revealed:
        state.revealed.remove(card)
    state.discard.append(card)
    state.turns_done += 1
    state.phase = "pickup"
    over = is_over(state)
    next_seat = None if over else current_seat(state)
    events = [Emitted(Discarded(seat=seat, card=card, next_seat=next_seat))]
    if over:
        events.append(Emitted(revelation(state)))
    return events


def final_scores(state: WeddingState) -> tuple[Score, ...]:
    """Every seat's hand score against its own theme, in seat order."""
    return tuple(
        score_hand(seat, [state.cards[c] for c in hand], _theme_card(state, seat))
        for seat, hand in enumerate(state.hands)
    )


def revelation(state: WeddingState) -> Revealed:
    """WP-5: the end-of-game reveal of every hand and theme with the scores."""
    scores = final_scores(state)
    return Revealed(
        themes=tuple(state.themes),
        hands=tuple(tuple(sorted(hand)) for hand in state.hands),
        scores=scores,
        winners=winners(scores),
    )


def _theme_card(state: WeddingState, seat: int) -> CardInstance | None:
    theme = state.themes[seat]
    return None if theme is None else state.cards[theme]


def _require_phase(state: WeddingState, phase: str) -> None:
    if state.phase == phase:
        return
    if phase == "pickup":
        raise RuleError("turn", "you have picked up already: discard a card from your hand")
    raise RuleError("turn", "pick up first: draw a card or take from the discard pile")
