"""Building a new game: options, boosters, themes, the shuffle and the deal.

Random draws, all from one ``Rng(seed)`` and in this order (C-4):

1. the boosters, one per seat in seat order (only when none are given);
2. each seat's theme, in seat order: ``below(k)`` over that seat's k theme
   candidates in booster order (skipped for a seat whose theme is fixed by the
   ``themes`` option, or that has no candidate);
3. the shuffle of the draw pile (skipped with ``shuffle: false``);
4. the first player, ``below(players)`` (skipped when ``first_seat`` is given).

Options (``GameConfig.options``):

- ``shuffle`` (bool, default true): false keeps the pile in booster order, seat 0's
  cards first, each booster in its given order (minus set-aside cards and themes).
- ``first_seat`` (int): the seat that plays first.
- ``themes`` (list, one entry per seat): the id of a theme candidate of that seat's
  own booster, or null to draw that seat's theme at random.

The pile (top first) is dealt in blocks: seat 0 gets the top 4 cards, seat 1 the
next 4, and so on; the next card starts the discard pile.

No theme candidate: a booster with no non-land, non-colorless Magic card gives
its seat no theme; all its cards go to the pile and that seat's theme line
scores nothing (the other lines still count).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from packplay.cards.model import CardInstance
from packplay.games.base import GameConfig, RuleError
from packplay.games.dealing import check_set_aside, game_boosters
from packplay.games.wedding_planner.state import HAND_SIZE, WeddingState
from packplay.rng import Rng
from packplay_protocol.audit import WeddingPlannerDeal


class Options(msgspec.Struct, frozen=True, kw_only=True):
    """The validated options of one game."""

    shuffle: bool = True
    first_seat: int | None = None
    themes: tuple[str | None, ...] | None = None


def parse_options(config: GameConfig) -> Options:
    """Check ``config.options``.

    Raises:
        RuleError: an unknown option or a bad value (reason ``bad_config``).
    """
    unknown = sorted(set(config.options) - set(Options.__struct_fields__))
    if unknown:
        raise RuleError("options", f"unknown option(s): {', '.join(unknown)}", "bad_config")
    try:
        options = msgspec.convert(config.options, Options, strict=True)
    except msgspec.ValidationError as exc:
        raise RuleError("options", f"bad option value: {exc}", "bad_config") from exc
    first = options.first_seat
    if first is not None and not 0 <= first < config.players:
        raise RuleError("options", "first_seat must be a seat of this game", "bad_config")
    if options.themes is not None and len(options.themes) != config.players:
        raise RuleError("options", "themes needs one entry per seat", "bad_config")
    return options


def is_theme_candidate(card: CardInstance) -> bool:
    """A card that may be drawn as a theme: a non-land, non-colorless Magic card."""
    return card.magic_back and not card.is_land and bool(card.colors)


def new_state(
    config: GameConfig,
    seed: int,
    catalog: Any,
    boosters: Sequence[Sequence[CardInstance]] | None,
    default_sets: tuple[str, ...],
) -> WeddingState:
    """A game ready for its first turn (see the module docstring for the draws).

    Raises:
        RuleError: bad options, boosters or sets, or too few cards (``bad_config``).
    """
    options = parse_options(config)
    rng = Rng(seed)
    opened = game_boosters(config, config.players, default_sets, catalog, rng, boosters, rule="WP-6")
    cards = {card.id: card for booster in opened for card in booster}
    themes = [_theme(seat, booster, options, rng) for seat, booster in enumerate(opened)]
    pile = [card.id for booster in opened for card in booster if card.magic_back and card.id not in themes]
    if options.shuffle:
        rng.shuffle(pile)
    dealt = HAND_SIZE * config.players
    if len(pile) < dealt + 1:
        raise RuleError("setup", f"the pile needs at least {dealt + 1} cards to deal", "bad_config")
    first = rng.below(config.players) if options.first_seat is None else options.first_seat
    deal = WeddingPlannerDeal(
        first_seat=first,
        hands=tuple(tuple(pile[seat * HAND_SIZE : (seat + 1) * HAND_SIZE]) for seat in range(config.players)),
        themes=tuple(themes),
        draw=tuple(pile[dealt + 1 :]),
        discard=(pile[dealt],),
        set_aside=tuple(card.id for booster in opened for card in booster if not card.magic_back),
    )
    return from_deal(config, deal, cards, seed)


def deal_of(state: WeddingState) -> WeddingPlannerDeal:
    """The explicit set-up of a game at version 0."""
    return WeddingPlannerDeal(
        first_seat=state.first_seat,
        hands=tuple(tuple(hand) for hand in state.hands),
        themes=tuple(state.themes),
        draw=tuple(state.draw),
        discard=tuple(state.discard),
        set_aside=tuple(state.set_aside),
    )


def from_deal(
    config: GameConfig, deal: WeddingPlannerDeal, cards: dict[str, CardInstance], seed: int
) -> WeddingState:
    """The game at version 0 from its explicit set-up (each card of ``cards`` in one zone).

    Raises:
        RuleError: bad options, or a set-up this game could not deal (``deal``).
    """
    options = parse_options(config)
    players = config.players
    if not 0 <= deal.first_seat < players or options.first_seat not in (None, deal.first_seat):
        raise RuleError("deal", "the first seat is a seat (the first_seat option, if given)", "bad_config")
    if len(deal.hands) != players or any(len(hand) != HAND_SIZE for hand in deal.hands):
        raise RuleError("deal", f"each seat is dealt {HAND_SIZE} cards", "bad_config")
    if len(deal.themes) != players or len(deal.discard) != 1:
        raise RuleError("deal", "one theme entry per seat and one card on the discard pile", "bad_config")
    fixed = options.themes or (None,) * players
    themes = [theme for theme in deal.themes if theme is not None]
    if any(want not in (None, got) for want, got in zip(fixed, deal.themes, strict=True)):
        raise RuleError("deal", "a theme differs from the themes option", "bad_config")
    if not all(is_theme_candidate(cards[theme]) for theme in themes):
        raise RuleError("deal", "a theme must be a non-land, non-colorless Magic card", "bad_config")
    in_play = [*(c for hand in deal.hands for c in hand), *themes, *deal.draw, *deal.discard]
    check_set_aside(cards, in_play, deal.set_aside)
    return WeddingState(
        config=config,
        seed=seed,
        cards=cards,
        hands=[list(hand) for hand in deal.hands],
        themes=list(deal.themes),
        draw=list(deal.draw),
        discard=list(deal.discard),
        set_aside=list(deal.set_aside),
        revealed=[],
        first_seat=deal.first_seat,
    )


def _theme(seat: int, booster: Sequence[CardInstance], options: Options, rng: Rng) -> str | None:
    """The seat's secret theme, drawn from its own booster's candidates (None if it has none)."""
    candidates = [card.id for card in booster if is_theme_candidate(card)]
    fixed = None if options.themes is None else options.themes[seat]
    if fixed is not None:
        if fixed not in candidates:
            message = f"themes[{seat}] is not a theme candidate of that seat's booster"
            raise RuleError("options", message, "bad_config")
        return fixed
    if not candidates:
        return None
    return candidates[rng.below(len(candidates))]
