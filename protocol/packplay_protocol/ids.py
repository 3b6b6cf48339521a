"""Names and numbers that identify things on the wire."""

from __future__ import annotations

from typing import Annotated

import msgspec

GAME_NAMES: tuple[str, ...] = ("day_night", "mishra_factory", "wedding_planner", "base_race")
"""The mini-games known today. New games may be added within a version, so the wire type is open."""

GameName = Annotated[
    str,
    msgspec.Meta(
        pattern=r"^[a-z][a-z0-9_]*$",
        max_length=40,
        description=f"A mini-game: {', '.join(GAME_NAMES)} (more may come within a version).",
    ),
]

GameId = Annotated[
    str,
    msgspec.Meta(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$", description="A game's id."),
]
Seat = Annotated[int, msgspec.Meta(ge=0, le=15, description="A seat number, 0 for the first seat.")]
MAX_SAFE_INT = 2**53 - 1
"""Every integer on the wire fits a JavaScript number exactly."""

Version = Annotated[
    int,
    msgspec.Meta(
        ge=0, le=MAX_SAFE_INT, description="A game's version: 0 at setup, +1 for every applied action."
    ),
]
Seed = Annotated[int, msgspec.Meta(ge=0, le=MAX_SAFE_INT, description="The seed a game was set up from.")]
Deadline = Annotated[
    float,
    msgspec.Meta(ge=0, description="A moment, in seconds since the Unix epoch (UTC), by the server's clock."),
]
ActionId = Annotated[
    str,
    msgspec.Meta(
        min_length=1,
        max_length=64,
        description="Chosen by the client, unique per seat and game: the same id is applied once.",
    ),
]
PlayerToken = Annotated[
    str,
    msgspec.Meta(
        min_length=16, max_length=256, description="The secret that proves a seat; keep it private."
    ),
]
PlayerName = Annotated[str, msgspec.Meta(min_length=1, max_length=40, description="A display name.")]
SetCode = Annotated[
    str, msgspec.Meta(min_length=2, max_length=8, description="A Magic set code, e.g. 'mkm'.")
]
