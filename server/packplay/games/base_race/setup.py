"""Setting up a Base Race game: options, boosters, base camps and the deal.

Random draws, in this order, all from ``Rng(seed)``:

1. when no boosters are given, opening 3 boosters (booster i from
   ``sets[i % len(sets)]``) with one ``BoosterOpener``;
2. BR-8, only when the pool holds fewer than two basic lands: for each missing
   basic, one pick among ``catalog.basics(set)`` (the first of ``sets`` that has
   basics), instanced by the opener (a new one when boosters were given);
3. unless ``shuffle`` is false, shuffling the basic lands (the first two go to
   seats 0 and 1 as base camps), then shuffling the other cards (seat 0 is dealt
   the first 11, seat 1 the next 11; the rest stay out of the game, face down).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from packplay.cards.boosters import BoosterOpener
from packplay.cards.model import Card, CardInstance
from packplay.games.base import GameConfig, RuleError
from packplay.games.base_race.state import SEATS, SQUARES, BaseRaceState
from packplay.games.dealing import check_set_aside, game_boosters
from packplay.rng import Rng
from packplay_protocol.audit import BaseRaceDeal
from packplay_protocol.games.base_race import DEFAULT_MOVE_LIMIT, LAYOUT_SIZE

BOOSTERS = 3
DEALT = LAYOUT_SIZE - 1
OPTIONS = ("shuffle", "move_limit")


class Options:
    """The parsed ``config.options``: ``shuffle`` (bool) and ``move_limit`` (int >= 1)."""

    def __init__(self, raw: dict[str, Any]) -> None:
        unknown = sorted(set(raw) - set(OPTIONS))
        if unknown:
            raise RuleError("options", f"unknown options: {', '.join(unknown)}", "bad_config")
        shuffle = raw.get("shuffle", True)
        if not isinstance(shuffle, bool):
            raise RuleError("options", "shuffle must be true or false", "bad_config")
        limit = raw.get("move_limit", DEFAULT_MOVE_LIMIT)
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise RuleError("BR-7", "move_limit must be a positive integer", "bad_config")
        self.shuffle: bool = shuffle
        self.move_limit: int = limit


class Pool:
    """The opened cards sorted for play: set aside (C-1), basics, other lands, the rest."""

    def __init__(self, boosters: Sequence[Sequence[CardInstance]]) -> None:
        self.set_aside: list[CardInstance] = []
        self.basics: list[CardInstance] = []
        self.lands: list[CardInstance] = []
        self.deck: list[CardInstance] = []
        for booster in boosters:
            for card in booster:
                self._sort(card)

    def _sort(self, card: CardInstance) -> None:
        if not card.magic_back:
            self.set_aside.append(card)
        elif card.is_land and is_basic(card):
            self.basics.append(card)
        elif card.is_land:
            self.lands.append(card)
        else:
            self.deck.append(card)


def is_basic(card: Card) -> bool:
    return card.basic_land or "Basic" in card.supertypes


def new_state(
    config: GameConfig,
    seed: int,
    catalog: Any,
    boosters: Sequence[Sequence[CardInstance]] | None,
    default_sets: tuple[str, ...],
) -> BaseRaceState:
    """A game in its layout phase, every random step drawn as the module docstring says."""
    options = Options(config.options)
    sets = config.sets or default_sets
    rng = Rng(seed)
    boosters = game_boosters(config, BOOSTERS, default_sets, catalog, rng, boosters)
    pool = Pool(boosters)
    if len(pool.basics) < len(SEATS):
        taken = [card.id for booster in boosters for card in booster]
        pool.basics += _added_basics(len(SEATS) - len(pool.basics), catalog, sets, rng, taken)
    if len(pool.deck) < DEALT * len(SEATS):
        raise RuleError("setup", f"fewer than {DEALT * len(SEATS)} non-land cards opened", "bad_config")
    if options.shuffle:
        rng.shuffle(pool.basics)
        rng.shuffle(pool.deck)
    return _dealt(config, seed, options, pool)


def _added_basics(
    count: int, catalog: Any, sets: Sequence[str], rng: Rng, taken: Sequence[str]
) -> list[CardInstance]:
    """BR-8: ``count`` new instances of the first of ``sets`` that has basic lands."""
    choices = _catalog_basics(catalog, sets)
    if not choices:
        raise RuleError("BR-8", "fewer than two basic lands and none in the catalog", "bad_config")
    opener = BoosterOpener(catalog, rng, taken)
    return [opener.instance(rng.choice(choices)) for _ in range(count)]


def _catalog_basics(catalog: Any, sets: Sequence[str]) -> list[Card]:
    if catalog is None:
        return []
    for code in sets:
        try:
            found = list(catalog.basics(code))
        except LookupError:
            continue
        if found:
            return found
    return []


def _dealt(config: GameConfig, seed: int, options: Options, pool: Pool) -> BaseRaceState:
    every = pool.set_aside + pool.basics + pool.lands + pool.deck
    cards = {c.id: c for c in every}
    if len(cards) != len(every):
        raise RuleError("setup", "card ids are not unique", "bad_config")
    hands = [tuple(c.id for c in pool.deck[seat * DEALT : (seat + 1) * DEALT]) for seat in SEATS]
    camps = tuple(pool.basics[seat].id for seat in SEATS)
    dealt = {card_id for hand in hands for card_id in hand} | set(camps)
    deal = BaseRaceDeal(
        camps=camps,
        hands=tuple(hands),
        out=tuple(c.id for c in every if c.magic_back and c.id not in dealt),
        set_aside=tuple(c.id for c in pool.set_aside),
    )
    return from_deal(config, deal, cards, seed)


def deal_of(state: BaseRaceState) -> BaseRaceDeal:
    """The explicit set-up of a game at version 0 (each hand is the dealt cards, then the camp)."""
    return BaseRaceDeal(
        camps=tuple(state.camps),
        hands=tuple(tuple(hand[:-1]) for hand in state.hands),
        out=tuple(state.out),
        set_aside=tuple(state.set_aside),
    )


def from_deal(
    config: GameConfig, deal: BaseRaceDeal, cards: dict[str, CardInstance], seed: int
) -> BaseRaceState:
    """The game at version 0 from its explicit set-up (each card of ``cards`` in one zone).

    Raises:
        RuleError: bad options, or a set-up this game could not deal (``deal``).
    """
    options = Options(config.options)
    if len(deal.camps) != len(SEATS) or len(deal.hands) != len(SEATS):
        raise RuleError("deal", "a set-up has a base camp and a hand per seat", "bad_config")
    if not all(cards[camp].is_land and is_basic(cards[camp]) for camp in deal.camps):
        raise RuleError("deal", "a base camp is a basic land", "bad_config")
    dealt = [card_id for hand in deal.hands for card_id in hand]
    if any(len(hand) != DEALT for hand in deal.hands) or any(cards[c].is_land for c in dealt):
        raise RuleError("deal", f"each seat is dealt {DEALT} cards that are not lands", "bad_config")
    check_set_aside(cards, [*deal.camps, *dealt, *deal.out], deal.set_aside)
    hands = [[*deal.hands[seat], deal.camps[seat]] for seat in SEATS]
    return BaseRaceState(
        seed=seed,
        config=config,
        move_limit=options.move_limit,
        cards=cards,
        owners={card_id: seat for seat in SEATS for card_id in hands[seat]},
        set_aside=list(deal.set_aside),
        out=list(deal.out),
        camps=list(deal.camps),
        hands=hands,
        board=[None] * SQUARES,
    )
