"""Bots that decide from what their seat may see: the view message and the events it was sent.

:class:`~packplay.bots.strong.StrongBot` plays every game with one strategy per game
(each module says how it decides, beside its code); :mod:`.registry` names every bot
(``random``, ``first``, ``strong``, or an import path ``module:Class``) and builds one
per seat; :mod:`.budget` bounds a decision; :mod:`.priors` samples what a hidden card
may be from the set's booster collation.

A bot is a plain decision object: ``choose(view) -> action``, and optionally
``observe(version, events)`` (the SDK's ``Bot`` and ``Observing``). It does no I/O and
never imports the server (an import contract says so), so the same object plays over
the WebSocket (``packplay bot``, the SDK's ``play``), in the in-process arena, and in a
server process that feeds it a seat's rendered messages.
"""

from packplay.bots.budget import Budget
from packplay.bots.registry import BUILT_IN, BotFactory, BotNameError, bot_factory, make_bot
from packplay.bots.strong import StrongBot

__all__ = ["BUILT_IN", "BotFactory", "BotNameError", "Budget", "StrongBot", "bot_factory", "make_bot"]
