"""Card facts and opened card instances (defined by the protocol, used everywhere)."""

from packplay_protocol.cards import COLOR_ORDER, Card, CardInstance, Color, Rarity

__all__ = ["COLOR_ORDER", "Card", "CardInstance", "Color", "Rarity"]
