"""The boosters of a new game: opened from its seed, or given (sandbox games, scenario tests)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from packplay.cards.boosters import BoosterOpener
from packplay.cards.catalog import UnknownSetError
from packplay.cards.model import CardInstance
from packplay.games.base import GameConfig, RuleError
from packplay.rng import Rng


def game_boosters(
    config: GameConfig,
    count: int,
    default_sets: tuple[str, ...],
    catalog: Any,
    rng: Rng,
    given: Sequence[Sequence[CardInstance]] | None,
    rule: str = "boosters",
) -> list[list[CardInstance]]:
    """``count`` boosters: booster i of set ``sets[i % len(sets)]`` (the config's, else the
    game's defaults), drawn from ``rng``; or the ``given`` ones, checked.

    Raises:
        RuleError: an unknown set, the wrong number of given boosters, or a card id
            given twice (``bad_config``; ``rule`` names the ruling on the count).
    """
    if given is not None:
        return _checked(given, count, rule)
    sets = config.sets or default_sets
    opener = BoosterOpener(catalog, rng)
    try:
        return [opener.open(sets[i % len(sets)]) for i in range(count)]
    except UnknownSetError as error:
        raise RuleError("sets", str(error), "bad_config") from error


def _checked(
    given: Sequence[Sequence[CardInstance]], count: int, rule: str = "boosters"
) -> list[list[CardInstance]]:
    if len(given) != count:
        raise RuleError(rule, f"{count} boosters are needed", "bad_config")
    boosters = [list(booster) for booster in given]
    ids = [card.id for booster in boosters for card in booster]
    if len(set(ids)) != len(ids):
        raise RuleError("boosters", "card ids must be unique in a game", "bad_config")
    return boosters


def check_set_aside(
    cards: Mapping[str, CardInstance], playing: Iterable[str], set_aside: Iterable[str]
) -> None:
    """C-1 in an explicit set-up: the cards in play have a Magic back, the set-aside ones not.

    Raises:
        RuleError: a card on the wrong side (``deal``, reason ``bad_config``).
    """
    if not all(cards[card_id].magic_back for card_id in playing):
        raise RuleError("deal", "a card without a Magic back must be set aside (C-1)", "bad_config")
    if any(cards[card_id].magic_back for card_id in set_aside):
        raise RuleError("deal", "only cards without a Magic back are set aside (C-1)", "bad_config")
