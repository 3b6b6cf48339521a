"""Card facts as they travel on the wire and live in game state."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

Color = Literal["W", "U", "B", "R", "G"]
Rarity = Literal["common", "uncommon", "rare", "mythic", "special"]

COLOR_ORDER: tuple[Color, ...] = ("W", "U", "B", "R", "G")

CardId = Annotated[
    str,
    msgspec.Meta(
        min_length=1,
        max_length=64,
        description=(
            "One physical card of a game, drawn at random: it says nothing about the card. "
            "Its facts, when the audience may know them, are in the view message's `cards` table."
        ),
    ),
]


class Card(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, gc=False):
    """The game facts of one printed card, judged by its front face (RULES.md C-2, C-3).

    `mana_value` is the front face's mana value (X counts 0); `power`,
    `toughness` and `loyalty` are strings as printed (`*`, `1+*`).
    """

    set: str
    number: str
    name: str
    rarity: Rarity
    layout: str = "normal"
    colors: tuple[Color, ...] = ()
    mana_value: int | float = 0
    type_line: str = ""
    supertypes: tuple[str, ...] = ()
    types: tuple[str, ...] = ()
    subtypes: tuple[str, ...] = ()
    power: str | None = None
    toughness: str | None = None
    loyalty: str | None = None
    basic_land: bool = False

    @property
    def is_land(self) -> bool:
        """C-3: a card is a land when its front face has the type Land."""
        return "Land" in self.types

    @property
    def is_colorless(self) -> bool:
        return not self.colors

    @property
    def is_multicolored(self) -> bool:
        return len(self.colors) >= 2

    @property
    def is_legendary(self) -> bool:
        return "Legendary" in self.supertypes

    @property
    def front_name(self) -> str:
        return self.name.split(" // ", 1)[0]


class CardInstance(Card, frozen=True, kw_only=True, gc=False):
    """One physical card opened in a game: the card's facts plus instance fields.

    `id` is unique in its game and drawn at random, so it reveals nothing about
    the card (RULES.md C-6). Cards without a Magic back (tokens, ad cards) have
    `magic_back` false; every game sets them aside (C-1). A field at its default
    (`layout` normal, no `colors`, no `power`, not `foil`, ...) is left out on the wire:
    read a missing field as its default.
    """

    id: str
    foil: bool = False
    magic_back: bool = True

    def facts(self) -> Card:
        """The printed card without the instance fields."""
        fields = {f: getattr(self, f) for f in Card.__struct_fields__}
        return Card(**fields)
