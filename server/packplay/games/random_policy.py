"""Uniformly random legal play, built only from what ``legal_actions`` describes."""

from __future__ import annotations

from typing import Any

import msgspec

from packplay.rng import Rng
from packplay_protocol.games.common import ChooseCards, LegalActions


def fill_choice(choice: ChooseCards, rng: Rng) -> dict[str, Any]:
    """A random action dict satisfying one choice's constraints."""
    options = list(choice.options)
    rng.shuffle(options)
    count = choice.min_count + rng.below(choice.max_count - choice.min_count + 1)
    picked = options[:count]
    if not choice.ordered:
        picked.sort()
    action = dict(choice.template)
    action[choice.field] = picked[0] if choice.single else picked
    return action


def random_action(legal: LegalActions[Any], action_type: Any, rng: Rng) -> Any:
    """One action drawn uniformly among the concrete actions and the choices.

    Raises:
        ValueError: ``legal`` is empty.
    """
    total = len(legal.actions) + len(legal.choices)
    if total == 0:
        raise ValueError("no legal action to choose from")
    index = rng.below(total)
    if index < len(legal.actions):
        return legal.actions[index]
    built = fill_choice(legal.choices[index - len(legal.actions)], rng)
    return msgspec.convert(built, action_type)
