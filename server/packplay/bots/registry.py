"""Bots by name: the built-in ones, or any class or function named by an import path.

``make_bot("strong", seed=1)``, ``make_bot("random")``, ``make_bot("mypkg.mybot:Bot")``.
A bot is anything with ``choose(view) -> action`` (:class:`packplay_clients.Bot`); it may
also have ``observe(version, events)`` (:class:`packplay_clients.Observing`).

A factory named by an import path is called with the keyword arguments it accepts
among ``seed`` (an int, different per seat and game) and ``budget`` (a
:class:`~packplay.bots.budget.Budget`); a class that takes neither is built bare.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from typing import Any

from packplay.bots.budget import Budget
from packplay.bots.levels import LEVELS, EasyBot, SearchBot
from packplay.bots.strong import StrongBot
from packplay_clients.bots import Bot, FirstBot, RandomBot
from packplay_clients.opponents import GreedyOpponent, ThoughtfulOpponent

BotFactory = Callable[[int | None, Budget | None], Bot]
"""(seed, budget) -> a new bot for one seat of one game (budget None: the bot's own)."""

BUILT_IN: dict[str, BotFactory] = {
    "random": lambda seed, budget: RandomBot(seed),
    "first": lambda seed, budget: FirstBot(),
    "easy": lambda seed, budget: EasyBot(seed, budget),
    "medium": lambda seed, budget: StrongBot(seed, budget or LEVELS["medium"].budget, fixed=True),
    "hard": lambda seed, budget: SearchBot(seed, budget),
    "strong": lambda seed, budget: StrongBot(seed, budget or LEVELS["strong"].budget),
    "greedy": lambda seed, budget: GreedyOpponent(seed),
    "thoughtful": lambda seed, budget: ThoughtfulOpponent(seed),
}
"""The bots every command knows by name: the SDK's two trivial ones, the house's
levels (:mod:`.levels`), and the SDK's benchmark opponents written from the printed rules
alone (:mod:`packplay_clients.opponents`)."""


class BotNameError(ValueError):
    """A bot name that is neither built in nor an importable ``module:attribute``."""


def bot_factory(name: str) -> BotFactory:
    """The factory of the bot called ``name``.

    Raises:
        BotNameError: no built-in bot has that name and it is no importable path.
    """
    built_in = BUILT_IN.get(name)
    if built_in is not None:
        return built_in
    if ":" not in name:
        known = ", ".join(BUILT_IN)
        raise BotNameError(f"unknown bot {name!r}: use one of {known}, or an import path module:Class")
    target = _imported(name)
    accepted = _accepted_keywords(target)

    def make(seed: int | None, budget: Budget | None) -> Bot:
        given = {"seed": seed, "budget": budget or Budget()}
        bot = target(**{key: value for key, value in given.items() if key in accepted})
        if not callable(getattr(bot, "choose", None)):
            raise BotNameError(f"{name} made {type(bot).__name__!r}, which has no choose(view) method")
        return bot  # type: ignore[no-any-return]

    return make


def make_bot(name: str, seed: int | None = None, budget: Budget | None = None) -> Bot:
    """A new bot for one seat of one game (see :func:`bot_factory`)."""
    return bot_factory(name)(seed, budget)


def _imported(name: str) -> Callable[..., Any]:
    module_name, _, attribute = name.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise BotNameError(f"cannot import {module_name!r} for bot {name!r}: {error}") from error
    target: Any = module
    for part in attribute.split("."):
        target = getattr(target, part, None)
        if target is None:
            raise BotNameError(f"{module_name!r} has no {attribute!r} (bot {name!r})")
    if not callable(target):
        raise BotNameError(f"bot {name!r} is not a class or a function")
    return target  # type: ignore[no-any-return]


def _accepted_keywords(target: Callable[..., Any]) -> frozenset[str]:
    try:
        parameters = inspect.signature(target).parameters.values()
    except (TypeError, ValueError):
        return frozenset()
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters):
        return frozenset({"seed", "budget"})
    return frozenset(p.name for p in parameters if p.kind is not inspect.Parameter.POSITIONAL_ONLY)
