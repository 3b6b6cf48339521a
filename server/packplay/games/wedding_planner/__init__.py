"""Vampire Wedding Planner (Innistrad: Crimson Vow): the rules engine package.

Modules: ``state`` (the state struct and turn arithmetic), ``setup`` (options,
boosters, themes, deal; it documents the random draws), ``moves`` (draw, take,
discard), ``scoring`` (WP-1, WP-2, WP-5), ``views`` (views, zones, hidden cards),
``engine`` (the ``Game`` subclass).

Options (``GameConfig.options``; anything else is ``bad_config``):
``shuffle`` (bool, default true; false keeps the pile in booster order),
``first_seat`` (int), ``themes`` (one entry per seat: a theme candidate id of that
seat's booster, or null for a random draw).
"""

from packplay.games.wedding_planner.engine import WeddingPlanner

__all__ = ["WeddingPlanner"]
