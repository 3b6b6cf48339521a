"""Day vs Night (Innistrad: Midnight Hunt): rows of cards meet by color, Day against Night.

Options: ``day_seat`` (0 or 1, default drawn at random). Random draws, in order from
one ``Rng(seed)``: the two boosters (seat 0's first, unless given), then the Day seat
(unless ``day_seat`` is given). Nothing random remains after setup.
"""

from packplay.games.day_night.engine import DayNight
from packplay.games.day_night.state import DayNightState

__all__ = ["DayNight", "DayNightState"]
