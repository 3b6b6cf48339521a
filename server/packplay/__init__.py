"""Packplay: an authoritative game server for Magic: The Gathering booster mini-games."""

__version__ = "0.1.0"
