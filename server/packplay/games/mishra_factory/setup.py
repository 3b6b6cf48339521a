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
from packplay.games.dealing import game_boosters
from packplay.games.mishra_factory.rules import BELT_SIZE
from packplay.games.mishra_factory.state import MishraFactoryState
from packplay.rng import Rng
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
    set_aside = [card.id for card in cards if not card.magic_back]  # C-1
    if shuffle:
        rng.shuffle(deck)
    if first_seat is None:
        first_seat = rng.below(config.players)
    return MishraFactoryState(
        cards=card_table(cards),
        config=config,
        seed=seed,
        players=config.players,
        first_seat=first_seat,
        turn=first_seat,
        deck=deck[BELT_SIZE:],
        belt=deck[:BELT_SIZE],  # MF-8: the first four cards fill positions 0, 1, 2, 3
        collections=[[] for _ in range(config.players)],
        set_aside=set_aside,
    )


def card_table(cards: Sequence[CardInstance]) -> dict[str, CardInstance]:
    """Every card by id, in id order: the audience's card table is then a sorted list
    already, and sorting it again costs next to nothing."""
    return {card.id: card for card in sorted(cards, key=attrgetter("id"))}
