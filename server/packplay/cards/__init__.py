"""Card facts, the packaged catalog, importers and the booster generator."""

from packplay.cards.model import COLOR_ORDER, Card, CardInstance, Color, Rarity

__all__ = ["COLOR_ORDER", "Card", "CardInstance", "Color", "Rarity"]
