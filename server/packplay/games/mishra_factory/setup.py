"""Setting a game up: open the boosters, set aside (C-1), shuffle, deal the belt (MF-8),
draw the first player.

Random draws, in this fixed order from one ``Rng(seed)`` (C-4): the boosters are
opened (unless given), the deck is shuffled (unless ``shuffle`` is false), then the
first seat is drawn (unless ``first_seat`` is given).
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter
from typing import Any

from packplay.cards.model import CardInstance
from packplay.games.base import GameConfig, RuleError
from packplay.games.dealing import check_set_aside, game_boosters
from packplay.games.mishra_factory.rules import BELT_SIZE
from packplay.games.mishra_factory.state import MishraFactoryState
from packplay.rng import Rng
from packplay_protocol.audit import MishraFactoryDeal
from packplay_protocol.games.mishra_factory import FACTS

DEFAULT_SETS: tuple[str, ...] = FACTS.default_sets
OPTIONS: frozenset[str] = frozenset({"shuffle", "first_seat"})


def check_options(config: GameConfig) -> tuple[bool, int | None]:
    """The ``shuffle`` and ``first_seat`` options.

    Raises:
        RuleError: an unknown option or a bad value (reason ``bad_config``).
    """
    unknown = sorted(set(config.options) - OPTIONS)
    if unknown:
        raise RuleError("options", f"unknown options: {', '.join(unknown)}", "bad_config")
    shuffle = config.options.get("shuffle", True)
    if not isinstance(shuffle, bool):
        raise RuleError("options", "shuffle must be true or false", "bad_config")
    first_seat = config.options.get("first_seat")
    if first_seat is not None and (type(first_seat) is not int or not 0 <= first_seat < config.players):
        raise RuleError("options", f"first_seat must be a seat 0..{config.players - 1}", "bad_config")
    return shuffle, first_seat


def new_game(
    config: GameConfig,
    seed: int,
    catalog: Any,
    boosters: Sequence[Sequence[CardInstance]] | None,
) -> MishraFactoryState:
    """A new game, dealt and ready for the first seat's take."""
    shuffle, first_seat = check_options(config)
    rng = Rng(seed)
    boosters = game_boosters(config, config.players, DEFAULT_SETS, catalog, rng, boosters)
    cards = [card for booster in boosters for card in booster]
    deck = [card.id for card in cards if card.magic_back]
    if shuffle:
        rng.shuffle(deck)
    if first_seat is None:
        first_seat = rng.below(config.players)
    deal = MishraFactoryDeal(
        first_seat=first_seat,
        belt=tuple(deck[:BELT_SIZE]),  # MF-8: the first four cards fill positions 0, 1, 2, 3
        deck=tuple(deck[BELT_SIZE:]),
        set_aside=tuple(card.id for card in cards if not card.magic_back),  # C-1
    )
    return from_deal(config, deal, {card.id: card for card in cards}, seed)


def deal_of(state: MishraFactoryState) -> MishraFactoryDeal:
    """The explicit set-up of a game at version 0."""
    return MishraFactoryDeal(
        first_seat=state.first_seat,
        belt=tuple(state.belt),
        deck=tuple(state.deck),
        set_aside=tuple(state.set_aside),
    )


def from_deal(
    config: GameConfig, deal: MishraFactoryDeal, cards: dict[str, CardInstance], seed: int
) -> MishraFactoryState:
    """The game at version 0 from its explicit set-up (each card of ``cards`` in one zone).

    Raises:
        RuleError: bad options, or a set-up this game could not deal (``deal``).
    """
    _, first_seat = check_options(config)
    if not 0 <= deal.first_seat < config.players or first_seat not in (None, deal.first_seat):
        raise RuleError("deal", "the first seat is a seat (the first_seat option, if given)", "bad_config")
    if len(deal.belt) != min(BELT_SIZE, len(deal.belt) + len(deal.deck)):
        raise RuleError("deal", f"the belt holds {BELT_SIZE} cards while the deck has any", "bad_config")
    check_set_aside(cards, deal.belt + deal.deck, deal.set_aside)
    return MishraFactoryState(
        cards=card_table(list(cards.values())),
        config=config,
        seed=seed,
        players=config.players,
        first_seat=deal.first_seat,
        turn=deal.first_seat,
        deck=list(deal.deck),
        belt=list(deal.belt),
        collections=[[] for _ in range(config.players)],
        set_aside=list(deal.set_aside),
    )


def card_table(cards: Sequence[CardInstance]) -> dict[str, CardInstance]:
    """Every card by id, in id order: the audience's card table is then a sorted list
    already, and sorting it again costs next to nothing."""
    return {card.id: card for card in sorted(cards, key=attrgetter("id"))}
