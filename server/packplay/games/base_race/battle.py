"""How a battle between two revealed cards ends (rules 1-4, RULES.md BR-1, BR-4, BR-9).

Pure functions of the two printed cards and the attacking seat; the engine
applies the outcome to the board.
"""

from __future__ import annotations

import re

import msgspec

from packplay.cards.model import Card
from packplay_protocol.games.base_race import BattleKind

_SPELL_TYPES = frozenset({"Instant", "Sorcery", "Enchantment"})
_NUMBER = re.compile(r"-?\d+")


class Outcome(msgspec.Struct, frozen=True, kw_only=True):
    """The result of one battle.

    ``game_winner`` is set only by a land battle (rule 1), after which nothing else
    happens (BR-9). ``attacker_lost`` / ``defender_lost`` say which cards are
    discarded; ``extra_turn`` is the seat that takes an extra turn (rule 3, BR-3).
    """

    kind: BattleKind
    game_winner: int | None = None
    attacker_lost: bool = False
    defender_lost: bool = False
    extra_turn: int | None = None


def is_fighter(card: Card) -> bool:
    """BR-1: a creature (whatever its other types) or a planeswalker battles under rule 4."""
    return "Creature" in card.types or "Planeswalker" in card.types


def is_plain_artifact(card: Card) -> bool:
    """Rule 3: a non-creature, non-land artifact."""
    return "Artifact" in card.types and not is_fighter(card) and not card.is_land


def is_spell(card: Card) -> bool:
    """Rule 2: an instant, sorcery or non-creature enchantment.

    A non-land, non-fighter card with none of the known types (a type no Base Race
    set prints) is treated as a spell too, so every card has a rule.
    """
    if card.is_land or is_fighter(card):
        return False
    return bool(_SPELL_TYPES.intersection(card.types)) or "Artifact" not in card.types


def star_value(printed: str | None) -> int:
    """BR-4: a printed toughness or loyalty counts as its number part, 0 when none."""
    if printed is None:
        return 0
    found = _NUMBER.search(printed)
    return int(found.group()) if found else 0


def strength(card: Card) -> tuple[int, int]:
    """Rule 4 ranking: (rank, value); legendary creatures and planeswalkers rank 1."""
    if "Creature" in card.types:
        return (1 if card.is_legendary else 0, star_value(card.toughness))
    return (1, star_value(card.loyalty))


def resolve(attacker: Card, defender: Card, seat: int) -> Outcome:
    """The outcome of ``seat``'s ``attacker`` battling the opponent's ``defender``."""
    if attacker.is_land or defender.is_land:
        return _land_battle(attacker, defender, seat)
    extra = _extra_turn(attacker, defender, seat)
    if is_spell(attacker) or is_spell(defender):
        return Outcome(kind="spell", attacker_lost=True, defender_lost=True, extra_turn=extra)
    if extra is not None:
        return Outcome(
            kind="artifact",
            attacker_lost=is_plain_artifact(attacker),
            defender_lost=is_plain_artifact(defender),
            extra_turn=extra,
        )
    attacker_wins = strength(attacker) >= strength(defender)
    return Outcome(kind="creature", attacker_lost=not attacker_wins, defender_lost=attacker_wins)


def _land_battle(attacker: Card, defender: Card, seat: int) -> Outcome:
    """Rule 1: a revealed land loses the game for its owner; land attacking land wins."""
    if attacker.is_land and defender.is_land:
        return Outcome(kind="land_vs_land", game_winner=seat)
    return Outcome(kind="land", game_winner=1 - seat if attacker.is_land else seat)


def _extra_turn(attacker: Card, defender: Card, seat: int) -> int | None:
    """Rule 3: an artifact's owner takes an extra turn; with two, only the attacker."""
    if is_plain_artifact(attacker):
        return seat
    if is_plain_artifact(defender):
        return 1 - seat
    return None
