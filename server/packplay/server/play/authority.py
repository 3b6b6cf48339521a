"""The authority of one process, put together: its local games, moves, lobby, house and clocks.

Each part is one concern and gets what it needs here, once: the house plays through the
moves and hears of every version they make, without either importing the other both
ways. Everything the authority holds is a cache of Redis, which stays the only truth.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from packplay.cards.catalog import Catalog, load_catalog
from packplay.server.play.clocks import Clocks
from packplay.server.play.house import House
from packplay.server.play.lobby import Lobby
from packplay.server.play.local_games import LocalGames
from packplay.server.play.moves import Moves
from packplay.server.settings import Settings
from packplay.server.storage.games import GameStore


class Authority:
    """One per process."""

    def __init__(
        self,
        store: GameStore,
        settings: Settings,
        catalog: Callable[[], Catalog] = load_catalog,
        now: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.settings = settings
        self._load_catalog = catalog
        self._catalog: Catalog | None = None
        self.games = LocalGames(
            store,
            self.catalog,
            settings.cached_games,
            settings.catch_up_versions,
            settings.spectators_per_game,
        )
        self.moves = Moves(store, self.games, settings, now)
        self.lobby = Lobby(store, self.games, self.moves, settings, self.catalog, now)
        self.house = House(store, self.moves, self.games, settings, now)
        self.moves.on_house_commit(self.house.committed)
        self.clocks = Clocks(store, self.games, self.moves, self.house, settings, now)

    def catalog(self) -> Catalog:
        """The card catalog, loaded on first use (it is large, and lives as long as the process)."""
        if self._catalog is None:
            self._catalog = self._load_catalog()
        return self._catalog

    def count_limits(self, limited: Callable[[str], None]) -> None:
        """Tell ``limited`` the name of every limit per client that holds a request back."""
        self.lobby.limited = limited
        self.house.limited = limited

    async def close(self) -> None:
        await self.house.close()
