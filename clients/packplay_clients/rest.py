"""The REST lobby (``/v2``) over httpx: create, list, join and leave games, read them, replay them;
create tournaments, register, start, drop, finish, read standings, pairings and a player's table.

Every refusal raises :class:`ApiError` with the problem document's stable ``code``.
Pass ``transport`` (any ``httpx.AsyncBaseTransport``, e.g. ``httpx.MockTransport``)
to run without a network.
"""

from __future__ import annotations

import asyncio
import functools
import ssl
import uuid
from types import TracebackType
from typing import Any, TypeVar

import httpx
import msgspec

from packplay_clients.errors import ApiError
from packplay_protocol.errors import ErrorCode
from packplay_protocol.problems import PROBLEM_STATUS, Problem, problem
from packplay_protocol.rest import (
    CardRef,
    CreatedGame,
    GameList,
    GameSnapshot,
    GameStatus,
    GameType,
    GameTypeList,
    Health,
    HouseBot,
    JoinSeat,
    Readiness,
    Replay,
    SeatGrant,
)
from packplay_protocol.tournaments import (
    CreatedTournament,
    CreateTournament,
    MyTable,
    Pairings,
    RegisterPlayer,
    Registration,
    Standings,
    Tournament,
    TournamentFormat,
)
from packplay_protocol.version import API_PREFIX

__all__ = ["ApiError", "RestClient"]

T = TypeVar("T")
_encode = msgspec.json.Encoder().encode
_STATUS_CODES = {status: code for code, status in reversed(PROBLEM_STATUS.items())}
"""A code for a status when the body is no problem document (a proxy's error page, say)."""


@functools.cache
def _tls_context() -> ssl.SSLContext:
    """One default TLS context for every client: making one costs tens of milliseconds of
    CPU, which a program with hundreds of clients (a load test) would pay for each."""
    return ssl.create_default_context()


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
        self._http = httpx.AsyncClient(
            base_url=self.base_url, timeout=timeout, transport=transport, verify=_tls_context()
        )

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
        seats: tuple[str, ...] | None = None,
        house: dict[int, HouseBot] | None = None,
        private: bool = False,
    ) -> CreatedGame:
        """Create a game; it starts when its last seat is taken.

        ``seats`` (one player name per seat) takes every seat at once: the game starts
        and ``grants`` of the answer holds each seat's token. ``house`` (seat -> bot
        name: ``strong``, ``random`` or ``first``) has the server play those seats;
        ``seats`` then names the other seats only. ``private`` keeps the game out of every
        listing; its seats are then taken only with ``invite`` of the answer (see
        :meth:`join_seat`). ``seed`` and ``boosters`` need a server run with ``--sandbox``.

        Raises:
            ApiError: ``validation_failed``, ``bad_config``, ``sandbox_disabled``,
                ``rate_limited`` (this client creates too many games; see
                :attr:`ApiError.retry_after`), ``too_many_lobbies``.
        """
        fields = {
            "sets": sets,
            "options": options or {},
            "turn_seconds": turn_seconds,
            "seed": seed,
            "boosters": boosters,
            "seats": seats,
            "house": [{"seat": seat, "bot": bot} for seat, bot in sorted(house.items())] if house else None,
            "private": private or None,
        }
        body = {"game": game, "players": players} | {k: v for k, v in fields.items() if v is not None}
        return await self._call("POST", f"{API_PREFIX}/games", CreatedGame, body=body, creates=True)

    async def game_types(self) -> GameTypeList:
        """Every game the server plays: player range, default sets, options, rules pages."""
        return await self._call("GET", f"{API_PREFIX}/game-types", GameTypeList)

    async def game_type(self, game: str) -> GameType:
        """One game type.

        Raises:
            ApiError: ``not_found``.
        """
        return await self._call("GET", f"{API_PREFIX}/game-types/{game}", GameType)

    async def list_games(self, game: str | None = None, status: GameStatus | None = None) -> GameList:
        """Games matching the filters (open games by default), newest first.

        Raises:
            ApiError: ``validation_failed``.
        """
        params = {k: v for k, v in (("game", game), ("status", status)) if v is not None}
        return await self._call("GET", f"{API_PREFIX}/games", GameList, params=params)

    async def join_seat(
        self, game_id: str, name: str, seat: int | None = None, invite: str | None = None
    ) -> SeatGrant:
        """Take a seat (the lowest free one by default); the grant holds the secret token.
        A private game's seats need its ``invite`` code.

        Raises:
            ApiError: ``not_found``, ``game_full``, ``seat_taken``, ``game_started``,
                ``invite_required``, ``validation_failed``.
        """
        body = JoinSeat(name=name, seat=seat, invite=invite)
        return await self._call(
            "POST", f"{API_PREFIX}/games/{game_id}/seats", SeatGrant, body=body, creates=True
        )

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
        """The export of a finished game (format packplay.replay.1): setup, seed, the
        explicit set-up (``deal``) and card table, the full action log and the result.

        Raises:
            ApiError: ``not_found``, ``game_not_over``.
        """
        return await self._call("GET", f"{API_PREFIX}/games/{game_id}/replay", Replay)

    # tournaments

    async def create_tournament(
        self,
        name: str,
        game: str,
        *,
        format: TournamentFormat = "swiss",
        players_per_table: int = 2,
        rounds: int | None = None,
        turn_seconds: float = 60.0,
        late_registration: bool = False,
        sets: tuple[str, ...] = (),
        options: dict[str, Any] | None = None,
    ) -> CreatedTournament:
        """Create a tournament taking registrations; the answer holds the organizer token.

        Raises:
            ApiError: ``validation_failed``, ``bad_config``.
        """
        body = CreateTournament(
            name=name,
            game=game,
            format=format,
            players_per_table=players_per_table,
            rounds=rounds,
            turn_seconds=turn_seconds,
            late_registration=late_registration,
            sets=sets,
            options=options or {},
        )
        return await self._call(
            "POST", f"{API_PREFIX}/tournaments", CreatedTournament, body=body, creates=True
        )

    async def tournament(self, tournament_id: str) -> Tournament:
        """A tournament and its players.

        Raises:
            ApiError: ``not_found``.
        """
        return await self._call("GET", _tournament(tournament_id), Tournament)

    async def register(self, tournament_id: str, name: str) -> Registration:
        """Register a player; the registration holds the player's secret.

        Raises:
            ApiError: ``not_found``; ``out_of_order`` when registration is closed.
        """
        body = RegisterPlayer(name=name)
        return await self._call(
            "POST", f"{_tournament(tournament_id)}/players", Registration, body=body, creates=True
        )

    async def drop(self, tournament_id: str, player_id: str, token: str) -> None:
        """Drop a player with its own secret or the organizer token.

        Raises:
            ApiError: ``unauthorized``, ``forbidden``, ``not_found``, ``out_of_order``.
        """
        path = f"{_tournament(tournament_id)}/players/{player_id}"
        _checked(await self._send("DELETE", path, token=token))

    async def start_tournament(self, tournament_id: str, organizer_token: str) -> Tournament:
        """Start: round 1 is paired and its games created.

        Raises:
            ApiError: ``unauthorized``, ``forbidden``, ``not_found``, ``out_of_order``.
        """
        path = f"{_tournament(tournament_id)}/start"
        return await self._call("POST", path, Tournament, token=organizer_token)

    async def finish_tournament(self, tournament_id: str, organizer_token: str) -> Tournament:
        """Finish after the current round (at once before the start).

        Raises:
            ApiError: ``unauthorized``, ``forbidden``, ``not_found``.
        """
        path = f"{_tournament(tournament_id)}/finish"
        return await self._call("POST", path, Tournament, token=organizer_token)

    async def standings(self, tournament_id: str) -> Standings:
        """The standings now.

        Raises:
            ApiError: ``not_found``.
        """
        return await self._call("GET", f"{_tournament(tournament_id)}/standings", Standings)

    async def pairings(self, tournament_id: str, round_number: int) -> Pairings:
        """One round's tables, games, byes and results.

        Raises:
            ApiError: ``not_found``.
        """
        return await self._call("GET", f"{_tournament(tournament_id)}/rounds/{round_number}", Pairings)

    async def my_table(self, tournament_id: str, secret: str) -> MyTable:
        """Where the secret's player plays now: its game, seat and seat token when ``playing``.

        Raises:
            ApiError: ``unauthorized``, ``not_found``.
        """
        return await self._call("GET", f"{_tournament(tournament_id)}/table", MyTable, token=secret)

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
        body: msgspec.Struct | dict[str, Any] | None = None,
        params: dict[str, str] | None = None,
        token: str | None = None,
        creates: bool = False,
    ) -> T:
        if creates:
            response = await self._send_once(method, path, body)
        else:
            response = await self._send(method, path, body=body, params=params, token=token)
        return msgspec.json.decode(_checked(response).content, type=answer)

    async def _send_once(
        self, method: str, path: str, body: msgspec.Struct | dict[str, Any] | None
    ) -> httpx.Response:
        """A creating request, sent again with the same ``Idempotency-Key`` when its answer is
        lost on the way (or the first is still under way): it creates once, whatever the retries."""
        key = uuid.uuid4().hex
        for attempt in range(CREATE_ATTEMPTS):
            try:
                response = await self._send(method, path, body=body, idempotency_key=key)
            except ApiError:
                if attempt + 1 == CREATE_ATTEMPTS:
                    raise
                await asyncio.sleep(0.2 * 2**attempt)
                continue
            if response.status_code != 409 or "retry-after" not in response.headers:
                return response
            await asyncio.sleep(float(response.headers["retry-after"]))
        return response

    async def _send(
        self,
        method: str,
        path: str,
        *,
        body: msgspec.Struct | dict[str, Any] | None = None,
        params: dict[str, str] | None = None,
        token: str | None = None,
        idempotency_key: str | None = None,
    ) -> httpx.Response:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        if idempotency_key is not None:
            headers["Idempotency-Key"] = idempotency_key
        if body is not None:
            headers["Content-Type"] = "application/json"
        content = None if body is None else _encode(body)
        try:
            return await self._http.request(method, path, content=content, params=params, headers=headers)
        except httpx.TransportError as error:
            raise ApiError(problem(ErrorCode.UNAVAILABLE, f"{self.base_url}: {error!r}")) from error


CREATE_ATTEMPTS = 4
"""Times a creating request is sent (with one idempotency key) before its failure is raised."""


def _tournament(tournament_id: str) -> str:
    return f"{API_PREFIX}/tournaments/{tournament_id}"


def _checked(response: httpx.Response) -> httpx.Response:
    if response.status_code >= 400:
        retry_after = response.headers.get("retry-after", "")
        raise ApiError(_problem_of(response), int(retry_after) if retry_after.isdigit() else None)
    return response


def _problem_of(response: httpx.Response) -> Problem:
    try:
        return msgspec.json.decode(response.content, type=Problem)
    except (msgspec.ValidationError, msgspec.DecodeError):
        fallback = ErrorCode.UNAVAILABLE if response.status_code > 500 else ErrorCode.INTERNAL
        code = _STATUS_CODES.get(response.status_code, fallback)
        detail = f"HTTP {response.status_code}: {response.text[:200]}"
        return msgspec.structs.replace(problem(code, detail), status=response.status_code)
