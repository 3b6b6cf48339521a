"""The REST lobby (``/v1``) over httpx: create, list, join and leave games, read them, replay them.

Every refusal raises :class:`ApiError` with the problem document's stable ``code``.
Pass ``transport`` (any ``httpx.AsyncBaseTransport``, e.g. ``httpx.MockTransport``)
to run without a network.
"""

from __future__ import annotations

from types import TracebackType
from typing import Any, TypeVar

import httpx
import msgspec

from packplay_clients.errors import ApiError
from packplay_protocol.errors import ErrorCode
from packplay_protocol.rest import (
    PROBLEM_STATUS,
    CardRef,
    CreateGame,
    GameList,
    GameSnapshot,
    GameStatus,
    GameSummary,
    Health,
    JoinSeat,
    Problem,
    Readiness,
    Replay,
    SeatGrant,
    problem,
)
from packplay_protocol.version import API_PREFIX

__all__ = ["ApiError", "RestClient"]

T = TypeVar("T")
_encode = msgspec.json.Encoder().encode
_STATUS_CODES = {status: code for code, status in reversed(PROBLEM_STATUS.items())}
"""A code for a status when the body is no problem document (a proxy's error page, say)."""


class RestClient:
    """An async client of one server's lobby. Close it, or use it as an async context manager."""

    def __init__(
        self,
        base_url: str,
        *,
        timeout: float = 10.0,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self._http = httpx.AsyncClient(base_url=self.base_url, timeout=timeout, transport=transport)

    async def create_game(
        self,
        game: str,
        players: int,
        *,
        sets: tuple[str, ...] = (),
        options: dict[str, Any] | None = None,
        turn_seconds: float | None = None,
        seed: int | None = None,
        boosters: tuple[tuple[CardRef, ...], ...] | None = None,
    ) -> GameSummary:
        """Create a game; it starts when its last seat is taken.

        ``seed`` and ``boosters`` need a server run with ``--sandbox``.

        Raises:
            ApiError: ``validation_failed``, ``bad_config``, ``sandbox_disabled``.
        """
        body = CreateGame(
            game=game,
            players=players,
            sets=sets,
            options=options or {},
            turn_seconds=turn_seconds,
            seed=seed,
            boosters=boosters,
        )
        return await self._call("POST", f"{API_PREFIX}/games", GameSummary, body=body)

    async def list_games(self, game: str | None = None, status: GameStatus | None = None) -> GameList:
        """Games matching the filters (open games by default), newest first.

        Raises:
            ApiError: ``validation_failed``.
        """
        params = {k: v for k, v in (("game", game), ("status", status)) if v is not None}
        return await self._call("GET", f"{API_PREFIX}/games", GameList, params=params)

    async def join_seat(self, game_id: str, name: str, seat: int | None = None) -> SeatGrant:
        """Take a seat (the lowest free one by default); the grant holds the secret token.

        Raises:
            ApiError: ``not_found``, ``game_full``, ``seat_taken``, ``game_started``,
                ``validation_failed``.
        """
        body = JoinSeat(name=name, seat=seat)
        return await self._call("POST", f"{API_PREFIX}/games/{game_id}/seats", SeatGrant, body=body)

    async def leave_seat(self, game_id: str, token: str) -> None:
        """Give up the token's seat before the game starts.

        Raises:
            ApiError: ``unauthorized``, ``not_found``, ``game_started``.
        """
        _checked(await self._send("DELETE", f"{API_PREFIX}/games/{game_id}/seat", token=token))

    async def snapshot(self, game_id: str, token: str | None = None) -> GameSnapshot:
        """The game as the token's seat sees it, or as a spectator without a token.

        Raises:
            ApiError: ``not_found``, ``unauthorized``.
        """
        return await self._call("GET", f"{API_PREFIX}/games/{game_id}", GameSnapshot, token=token)

    async def replay(self, game_id: str) -> Replay:
        """The seed, setup and full action log of a finished game.

        Raises:
            ApiError: ``not_found``, ``game_not_over``.
        """
        return await self._call("GET", f"{API_PREFIX}/games/{game_id}/replay", Replay)

    async def health(self) -> Health:
        """Liveness: the server's name and the subprotocols it speaks."""
        return await self._call("GET", f"{API_PREFIX}/health", Health)

    async def ready(self) -> Readiness:
        """Readiness, check by check (a server that is not ready answers too, with 503)."""
        response = await self._send("GET", f"{API_PREFIX}/ready")
        return msgspec.json.decode(response.content, type=Readiness)

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> RestClient:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()

    async def _call(
        self,
        method: str,
        path: str,
        answer: type[T],
        *,
        body: msgspec.Struct | None = None,
        params: dict[str, str] | None = None,
        token: str | None = None,
    ) -> T:
        response = _checked(await self._send(method, path, body=body, params=params, token=token))
        return msgspec.json.decode(response.content, type=answer)

    async def _send(
        self,
        method: str,
        path: str,
        *,
        body: msgspec.Struct | None = None,
        params: dict[str, str] | None = None,
        token: str | None = None,
    ) -> httpx.Response:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        if body is not None:
            headers["Content-Type"] = "application/json"
        content = None if body is None else _encode(body)
        try:
            return await self._http.request(method, path, content=content, params=params, headers=headers)
        except httpx.TransportError as error:
            raise ApiError(problem(ErrorCode.UNAVAILABLE, f"{self.base_url}: {error!r}")) from error


def _checked(response: httpx.Response) -> httpx.Response:
    if response.status_code >= 400:
        raise ApiError(_problem_of(response))
    return response


def _problem_of(response: httpx.Response) -> Problem:
    try:
        return msgspec.json.decode(response.content, type=Problem)
    except (msgspec.ValidationError, msgspec.DecodeError):
        fallback = ErrorCode.UNAVAILABLE if response.status_code > 500 else ErrorCode.INTERNAL
        code = _STATUS_CODES.get(response.status_code, fallback)
        detail = f"HTTP {response.status_code}: {response.text[:200]}"
        return msgspec.structs.replace(problem(code, detail), status=response.status_code)
