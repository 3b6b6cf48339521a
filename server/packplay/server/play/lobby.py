"""The lobby: games created, seats taken and given up, full games started, games read.

A game waits in its shard's lobby index until its last seat is taken; the join that
takes it moves the game to ``starting``, and whoever sees it so first writes version 0
(the deal) once. A game created with every seat named starts at once. Listings,
snapshots and replays read the game from Redis; a started game's snapshot is rendered
from a fresh copy.

Both transports call the same functions: REST creates and joins, and a kept WebSocket
creates a game taking one of its seats (``taker``), takes a seat, or asks for a rematch
of a finished game (the first player to ask creates it, private to the old game's players;
the others take their seats in it). Who waits for a game to start in this process is told
when it does (:meth:`Lobby.when_started`): at once when this process starts it, else once
a check of the game's version, made more and more rarely while it waits, finds it started
(another process took its last seat).
"""

from __future__ import annotations

import asyncio
import re
import secrets
from collections.abc import Callable
from datetime import UTC, datetime
from functools import cache
from typing import Any, Union

import msgspec

from packplay.cards.boosters import BoosterOpener
from packplay.cards.catalog import Catalog, UnknownSetError
from packplay.cards.model import CardInstance
from packplay.games.base import Audience, Game, GameConfig, RuleError
from packplay.games.registry import get_game
from packplay.rng import Rng
from packplay.server.play.addresses import client_key
from packplay.server.play.errors import Refused
from packplay.server.play.ids import hash_token, new_id, new_token
from packplay.server.play.local_games import LocalGames
from packplay.server.play.moves import Moves
from packplay.server.settings import Settings
from packplay.server.storage.games import GameStore
from packplay.table import decisions, rendering
from packplay.table.game_copy import GameCopy, decode_state, encode_cards
from packplay.table.records import GameMeta, GameRow, Rate, Status
from packplay_protocol.catalog import GAMES
from packplay_protocol.errors import ErrorCode
from packplay_protocol.ids import MAX_SAFE_INT
from packplay_protocol.rest import (
    CardRef,
    CreatedGame,
    CreateGame,
    GameList,
    GameSetup,
    GameSnapshot,
    GameStatus,
    GameSummary,
    HouseBot,
    JoinSeat,
    LoggedAction,
    Replay,
    SeatGrant,
    SeatInfo,
)
from packplay_protocol.to_client import ViewMessage

SEED_BITS = MAX_SAFE_INT.bit_length()
"""Seeds travel in views once over; every integer on the wire must fit a JavaScript number."""
LIST_LIMIT = 100
START_CHECK_FIRST = 0.05
START_CHECK_MOST = 2.0
"""Seconds between checks that a game waited for has started, doubling from the first."""
REMATCH_TRIES = 20
REMATCH_WAIT = 0.05
"""How long a rematch waits for its game, written by another process that asked first."""
_PUBLIC_STATUS: dict[Status, GameStatus] = {
    "lobby": "open",
    "starting": "playing",
    "active": "playing",
    "finished": "over",
}
_JOIN_ERRORS = {
    "missing": ErrorCode.NOT_FOUND,
    "started": ErrorCode.GAME_STARTED,
    "full": ErrorCode.GAME_FULL,
    "taken": ErrorCode.SEAT_TAKEN,
    "no_seat": ErrorCode.VALIDATION_FAILED,
    "invite_required": ErrorCode.INVITE_REQUIRED,
    "bad_invite": ErrorCode.INVITE_REQUIRED,
}
_JOIN_DETAILS = {
    "invite_required": "the game is private: join with its invite code",
    "bad_invite": "wrong invite code",
}
_view_message_decoder = msgspec.json.Decoder(ViewMessage)


class Lobby:
    """One per process: every request about games but their moves."""

    def __init__(
        self,
        store: GameStore,
        games: LocalGames,
        moves: Moves,
        settings: Settings,
        catalog: Callable[[], Catalog],
        now: Callable[[], float],
    ) -> None:
        self.store = store
        self.games = games
        self.moves = moves
        self.settings = settings
        self.catalog = catalog
        self.now = now
        per_second = settings.games_per_minute / 60.0
        self.games_limit = Rate(per_second, settings.games_burst) if per_second > 0 else None
        house = settings.house_games_per_minute
        self.house_games_limit = Rate(house / 60.0, max(1, round(house))) if house > 0 else None
        self.limited: Callable[[str], None] = _nobody
        """Told the name of each limit that held a request back (the metrics)."""
        self._starting: dict[str, list[Callable[[], None]]] = {}
        """Who waits for a game to start in this process."""
        self._checks: dict[str, asyncio.Task[None]] = {}
        """Per game waited for, the task that checks whether another process started it."""
        self._rematches: dict[str, asyncio.Future[tuple[str, str]]] = {}
        """Rematches being claimed in this process: old game -> (new game, invite code)."""

    async def create(
        self,
        request: CreateGame,
        client: str | None = None,
        taker: JoinSeat | None = None,
        game_id: str | None = None,
        invite: str | None = None,
    ) -> CreatedGame:
        """A new game; its config is checked by setting it up once. It waits in the lobby
        (a private one with an invite code), or starts at once when the request names every
        seat. A ``client`` (an address) is held to the limits of new and open games.

        A ``taker`` (a kept socket's player) takes one seat at once instead of naming them
        all: its grant is the answer's only one, and the game starts at once when the house
        plays every other seat. ``game_id`` and ``invite`` are chosen by the caller (a rematch).

        Raises:
            Refused: ``sandbox_disabled``, ``bad_config``, ``validation_failed``,
                ``rate_limited`` or ``too_many_lobbies``.
        """
        sandboxed = request.seed is not None or request.boosters is not None
        if sandboxed and not self.settings.sandbox:
            raise Refused(ErrorCode.SANDBOX_DISABLED, "seed and boosters need a server run with --sandbox")
        engine = _engine(request.game)
        config = GameConfig(
            game=request.game,
            players=request.players,
            sets=request.sets or engine.default_sets,
            options=msgspec.to_builtins(request.options),
        )
        meta = GameMeta(
            id=game_id or new_id(9),
            config=config,
            seed=secrets.randbits(SEED_BITS) if request.seed is None else request.seed,
            created=self.now(),
            clock=request.turn_seconds,
            boosters=request.boosters,
            sandbox=sandboxed,
            house=tuple(sorted(request.house, key=lambda seat: seat.seat)),
            house_seed=secrets.randbits(SEED_BITS) if request.house else 0,
            private=request.private,
            owner="" if client is None else client_key(client),
        )
        dealt = initial_state(meta, self.catalog())
        seats, taken_seat = request.seats, None
        if taker is not None:
            if seats is not None:
                raise Refused(
                    ErrorCode.VALIDATION_FAILED, "seats: the sender takes one seat; leave seats out"
                )
            taken_seat = _taker_seat(meta, taker.seat)
            if len(meta.house) + 1 == meta.config.players:
                seats = (taker.name,)
        if client is not None:
            await self._admit(meta.owner, meta.id, lobby=seats is None)
            if meta.house:
                await self._admit_house(meta.owner)
        if seats is not None:
            return await self._create_seated(meta, dealt, seats)
        if request.private and invite is None:
            invite = new_id(12)
        taken = {
            seat: (hash_token(new_token(meta.id)), house_name(bot)) for seat, bot in _house(meta).items()
        }
        grants: tuple[SeatGrant, ...] = ()
        if taker is not None and taken_seat is not None:
            token = new_token(meta.id)
            taken[taken_seat] = (hash_token(token), taker.name)
            grants = (SeatGrant(game_id=meta.id, seat=taken_seat, token=token),)
        hashed_invite = "" if invite is None else hash_token(invite)
        await self.store.create(meta, self.settings.lobby_ttl, hashed_invite, taken)
        self.games.get(meta.id).dealt = dealt
        names = {seat: name for seat, (_, name) in taken.items()}
        row = summary(GameRow(meta, "lobby", 0, names))
        return CreatedGame(**_fields(row), invite=invite, grants=grants)

    async def rematch(self, game_id: str, seat: int, client: str | None = None) -> tuple[SeatGrant, bool]:
        """``seat``'s seat in the rematch of the finished ``game_id``, and whether it has started.

        The first player to ask creates the new game (the same setup, a new seed, private
        to the old game's players, its house seats taken as before), counted against its
        ``client``'s limits; the others take their seats in it, the last starting it.

        Raises:
            Refused: ``not_found``, ``game_not_over``, ``seat_taken`` (asked twice), and
                what :meth:`create` raises.
        """
        rows = await self.store.rows([game_id])
        if not rows:
            raise Refused(ErrorCode.NOT_FOUND, f"no game {game_id}")
        row = rows[0]
        if row.status != "finished":
            raise Refused(ErrorCode.GAME_NOT_OVER, "a rematch is asked once the game is over")
        name = row.names.get(seat) or f"Seat {seat}"
        claiming = self._rematches.get(game_id)
        if claiming is not None:
            new_game, invite = await asyncio.shield(claiming)
        else:
            claiming = self._rematches[game_id] = asyncio.get_running_loop().create_future()
            try:
                new_game, invite, first = await self._claim_rematch(row.meta)
                if first:
                    taker = JoinSeat(name=name, seat=seat)
                    made = await self._create_rematch(row.meta, new_game, invite, taker, client)
                    claiming.set_result((new_game, invite))
                    return made.grants[0], made.status == "playing"
                claiming.set_result((new_game, invite))
            except Exception as error:
                claiming.set_exception(error)
                claiming.exception()  # retrieved: nobody else may be waiting
                raise
            finally:
                if not claiming.done():
                    claiming.cancel()
                del self._rematches[game_id]
        return await self._join_rematch(new_game, JoinSeat(name=name, seat=seat, invite=invite))

    async def _create_rematch(
        self, old: GameMeta, new_game: str, invite: str, taker: JoinSeat, client: str | None
    ) -> CreatedGame:
        """The rematch's game, under the id claimed for it; the claim is released if it cannot
        be created (a limit held the asker back), so that the players may ask again."""
        try:
            return await self.create(_rematch_request(old), client, taker, game_id=new_game, invite=invite)
        except Exception:
            await self.store.release_rematch(old.id)
            raise

    async def _claim_rematch(self, old: GameMeta) -> tuple[str, str, bool]:
        """The rematch's game id and invite code, and whether this call named them first."""
        new_game, invite = new_id(9), new_id(12)
        first = await self.store.claim_rematch(old.id, f"{new_game} {invite}", self.settings.lobby_ttl)
        if first is None:
            return new_game, invite, True
        named, _, code = first.partition(" ")
        return named, code, False

    async def _join_rematch(self, game_id: str, request: JoinSeat) -> tuple[SeatGrant, bool]:
        """Take a seat in a rematch that another process may still be writing."""
        for _ in range(REMATCH_TRIES - 1):
            try:
                return await self.take_seat(game_id, request)
            except Refused as refused:
                if refused.code is not ErrorCode.NOT_FOUND:
                    raise
            await asyncio.sleep(REMATCH_WAIT)
        return await self.take_seat(game_id, request)

    def when_started(self, game_id: str, hear: Callable[[], None]) -> None:
        """Call ``hear`` once ``game_id`` starts in this process (at once if it has)."""
        held = self.games.held(game_id)
        if held is not None and held.copy is not None:
            hear()
            return
        self._starting.setdefault(game_id, []).append(hear)
        if game_id not in self._checks:
            self._checks[game_id] = asyncio.create_task(self._check_start(game_id))

    async def _check_start(self, game_id: str) -> None:
        """Tell who waits once the game's version shows it started (by another process)."""
        wait = START_CHECK_FIRST
        try:
            while game_id in self._starting:
                await asyncio.sleep(wait)
                wait = min(wait * 2, START_CHECK_MOST)
                try:
                    (version,) = await self.store.versions([game_id])
                except Exception:  # storage unavailable: check again later
                    continue
                if version is None or version >= 0:  # started, or gone (its watch then says so)
                    self._started(game_id)
                    return
        finally:
            self._checks.pop(game_id, None)

    def forget_start(self, game_id: str, hear: Callable[[], None]) -> None:
        """``hear`` no longer waits for ``game_id`` to start."""
        waiting = self._starting.get(game_id)
        if waiting is not None and hear in waiting:
            waiting.remove(hear)
            if not waiting:
                del self._starting[game_id]
                check = self._checks.pop(game_id, None)
                if check is not None:
                    check.cancel()

    def _started(self, game_id: str) -> None:
        for hear in self._starting.pop(game_id, ()):
            hear()

    async def _admit(self, client: str, game_id: str, lobby: bool) -> None:
        if self.games_limit is None and not (lobby and self.settings.open_lobbies > 0):
            return  # nothing to count: no round trip
        ttl = self.settings.lobby_ttl
        outcome, wait = await self.store.admit(
            client, self.games_limit, self.settings.open_lobbies, game_id, ttl, lobby
        )
        if outcome == "limited":
            seconds = max(1, -(-wait // 1000))
            raise Refused(
                ErrorCode.RATE_LIMITED,
                f"too many new games from this client; retry in {seconds} s",
                retry_after=seconds,
            )
        if outcome == "lobbies":
            raise Refused(
                ErrorCode.TOO_MANY_LOBBIES,
                f"this client has {self.settings.open_lobbies} games waiting for players already",
            )

    async def _admit_house(self, client: str) -> None:
        if self.house_games_limit is None:
            return
        wait = await self.store.take_house_game(client, self.house_games_limit)
        if wait > 0:
            self.limited("house_games")
            seconds = max(1, -(-wait // 1000))
            raise Refused(
                ErrorCode.RATE_LIMITED,
                f"too many new games against the house from this client; retry in {seconds} s",
                retry_after=seconds,
            )

    async def _create_seated(self, meta: GameMeta, dealt: Any, names: tuple[str, ...]) -> CreatedGame:
        bots = _house(meta)
        players = [seat for seat in range(meta.config.players) if seat not in bots]
        if len(names) != len(players):
            whose = "the house does not play" if bots else ""
            raise Refused(
                ErrorCode.VALIDATION_FAILED, f"seats: name each of the {len(players)} seats {whose}".strip()
            )
        named = dict(zip(players, names, strict=True))
        named |= {seat: house_name(bot) for seat, bot in bots.items()}
        tokens = {seat: new_token(meta.id) for seat in range(meta.config.players)}
        digests = {seat: hash_token(token) for seat, token in tokens.items()}
        copy = GameCopy.dealt(meta, _engine(meta.config.game), dealt, meta.created)
        await self.store.create_seated(
            meta,
            [(digests[seat], named[seat]) for seat in range(meta.config.players)],
            encode_cards(dealt.cards),
            copy.state_bytes,
            decisions.encode(copy.decisions),
            decisions.wake(copy.meta, copy.decisions, copy.pending, self.settings.house_grace),
            self.settings.active_ttl,
        )
        game = self.games.get(meta.id)
        game.copy, game.seat_digests = copy, digests
        self.moves.made(copy)
        grants = tuple(SeatGrant(game_id=meta.id, seat=seat, token=tokens[seat]) for seat in players)
        row = GameRow(meta, "active", 0, dict(sorted(named.items())))
        return CreatedGame(**_fields(summary(row)), grants=grants)

    async def join(self, game_id: str, request: JoinSeat) -> SeatGrant:
        """Take a seat; the join that fills the game starts it.

        Raises:
            Refused: ``not_found``, ``game_started``, ``game_full``, ``seat_taken``,
                ``invite_required``.
        """
        grant, _ = await self.take_seat(game_id, request)
        return grant

    async def take_seat(self, game_id: str, request: JoinSeat) -> tuple[SeatGrant, bool]:
        """:meth:`join`, and whether the game has started (this seat was its last)."""
        token = new_token(game_id)
        invite = "" if request.invite is None else hash_token(request.invite)
        outcome, seat, taken, meta = await self.store.join(
            game_id, hash_token(token), request.name, request.seat, self.settings.lobby_ttl, invite
        )
        if outcome != "ok":
            detail = _JOIN_DETAILS.get(outcome, outcome.replace("_", " "))
            raise Refused(_JOIN_ERRORS[outcome], f"cannot join game {game_id}: {detail}")
        full = meta is not None and taken == meta.config.players
        if full and meta is not None:
            await self.start(meta)
        return SeatGrant(game_id=game_id, seat=seat, token=token), full

    async def start(self, meta: GameMeta) -> None:
        """Write version 0 of a full game. Whoever sees it full first does it; once."""
        game = self.games.get(meta.id)
        async with game.lock:
            engine = _engine(meta.config.game)
            state = game.dealt if game.dealt is not None else initial_state(meta, self.catalog())
            copy = GameCopy.dealt(meta, engine, state, self.now())
            started = await self.store.start(
                meta,
                encode_cards(state.cards),
                copy.state_bytes,
                decisions.encode(copy.decisions),
                decisions.wake(copy.meta, copy.decisions, copy.pending, self.settings.house_grace),
                self.settings.active_ttl,
            )
            game.dealt = None
            if started and game.copy is None:
                game.copy = copy
            if started:
                self.moves.made(copy)
        if started:
            self._started(meta.id)

    async def leave(self, game_id: str, token: str) -> None:
        """Give up a seat before the start.

        Raises:
            Refused: ``unauthorized``, ``not_found``, ``game_started``.
        """
        seat = await self.seat_in(game_id, token)
        outcome = await self.store.leave(game_id, seat, hash_token(token))
        if outcome == "started":
            raise Refused(ErrorCode.GAME_STARTED, "the game has started; seats can no longer be left")
        if outcome != "ok":
            raise Refused(ErrorCode.NOT_FOUND, f"no game {game_id}")

    async def seat_of(self, token: str) -> tuple[str, int] | None:
        """The game and seat a token holds, if any (a token names its game)."""
        game_id, dot, _ = token.partition(".")
        if not dot or not game_id:
            return None
        digest_ = hash_token(token)
        for seat, held in (await self._seat_digests(game_id)).items():
            if secrets.compare_digest(held, digest_):
                return game_id, seat
        return None

    async def _seat_digests(self, game_id: str) -> dict[int, str]:
        game = self.games.held(game_id)
        if game is not None and game.copy is not None and game.seat_digests is not None:
            return game.seat_digests
        return {seat: held for seat, (held, _name) in (await self.store.seats(game_id)).items()}

    async def seat_in(self, game_id: str, token: str) -> int:
        """The seat ``token`` holds in ``game_id``.

        Raises:
            Refused: ``unauthorized``: the token holds no seat of this game.
        """
        held = await self.seat_of(token)
        if held is None or held[0] != game_id:
            raise Refused(ErrorCode.UNAUTHORIZED, "the token holds no seat in this game")
        return held[1]

    async def list_games(self, game: str | None, status: GameStatus | None) -> GameList:
        wanted = status or "open"
        ids = await self.store.game_ids(game, wanted == "open", LIST_LIMIT)
        rows = await self.store.rows(ids)
        picked = [
            summary(row)
            for row in rows
            if _PUBLIC_STATUS[row.status] == wanted
            and (game is None or row.meta.config.game == game)
            and not row.meta.private
        ]
        return GameList(games=tuple(picked))

    async def snapshot(self, game_id: str, token: str | None) -> GameSnapshot:
        """The game as the token's seat sees it, or as a spectator without a token.

        Raises:
            Refused: ``not_found``, ``unauthorized``.
        """
        audience = None if token is None else await self.seat_in(game_id, token)
        rows = await self.store.rows([game_id])
        if not rows:
            raise Refused(ErrorCode.NOT_FOUND, f"no game {game_id}")
        row = rows[0]
        if row.status in ("lobby", "starting"):
            return GameSnapshot(summary=summary(row))
        copy = await self.current(game_id)
        row = GameRow(row.meta, copy.status, copy.version, row.names)
        return GameSnapshot(summary=summary(row), state=view_message(copy, audience))

    async def replay(self, game_id: str) -> Replay:
        """Seed, setup, explicit set-up, card game and full log of a finished game.

        Raises:
            Refused: ``not_found``, ``game_not_over`` (a game still waiting for players too).
        """
        try:
            copy = await self.current(game_id)
        except Refused as error:
            if error.code is ErrorCode.OUT_OF_ORDER:
                raise Refused(ErrorCode.GAME_NOT_OVER, "the game has not started") from error
            raise
        result = copy.engine.result(copy.state)
        if copy.status != "finished" or result is None:
            raise Refused(ErrorCode.GAME_NOT_OVER, "the replay is available once the game is over")
        meta = copy.meta
        entries = await self.store.entries(game_id, -1)
        setup = GameSetup(
            game=meta.config.game,
            players=meta.config.players,
            sets=meta.config.sets,
            options=meta.config.options,
            boosters=meta.boosters,
        )
        union = _action_union(meta.config.game)
        actions = tuple(
            LoggedAction(
                version=entry.version,
                seat=entry.seat,
                action=msgspec.convert(entry.action, union),
                action_id=entry.action_id,
                timed_out=entry.timed_out,
            )
            for entry, _ in entries
            if entry.seat is not None
        )
        dealt = await self.store.dealt(game_id)
        if dealt is None:
            raise Refused(ErrorCode.INTERNAL, "the log of the game is incomplete")
        first = decode_state(copy.engine, dealt, copy.cards)
        return Replay(
            game_id=game_id,
            setup=setup,
            seed=meta.seed,
            deal=copy.engine.deal(first),
            cards=dict(sorted(copy.cards.items())),
            log=actions,
            result=result,
        )

    async def current(self, game_id: str) -> GameCopy:
        """The started game now, read from Redis.

        Raises:
            Refused: ``not_found``; ``out_of_order`` while the game waits for players.
        """
        snapshot = await self.store.load(game_id)
        if snapshot is None:
            raise Refused(ErrorCode.NOT_FOUND, f"no game {game_id}")
        if snapshot.status == "starting":
            await self.start(snapshot.meta)
            snapshot = await self.store.load(game_id)
        copy = None if snapshot is None else self.games.copy_of(snapshot)
        if copy is None:
            raise Refused(ErrorCode.OUT_OF_ORDER, "the game is waiting for players")
        return copy


def _taker_seat(meta: GameMeta, seat: int | None) -> int:
    """The seat a kept socket's creator takes: ``seat``, or the lowest the house does not play.

    Raises:
        Refused: ``validation_failed``: no such seat, or the house's.
    """
    free = [n for n in range(meta.config.players) if n not in meta.house_bots()]
    if seat is None:
        return free[0]
    if seat not in free:
        raise Refused(ErrorCode.VALIDATION_FAILED, f"seat: {seat} is not a seat for a player of this game")
    return seat


def _rematch_request(meta: GameMeta) -> CreateGame:
    """The create-game body of a rematch: the old game's setup, private, with a new seed."""
    config = meta.config
    body: dict[str, Any] = {
        "game": config.game,
        "players": config.players,
        "sets": list(config.sets),
        "options": config.options,
        "turn_seconds": meta.clock,
        "house": msgspec.to_builtins(meta.house),
        "private": True,
    }
    if meta.boosters is not None:
        body["boosters"] = msgspec.to_builtins(meta.boosters)
    request: CreateGame = msgspec.convert(body, CreateGame)
    return request


def _fields(row: GameSummary) -> dict[str, Any]:
    return {name: getattr(row, name) for name in row.__struct_fields__}


def view_message(copy: GameCopy, audience: Audience) -> ViewMessage:
    """The typed view message of ``audience`` (REST snapshots)."""
    doc = rendering.whole_view(rendering.view_doc(copy, audience), copy.version)
    return _view_message_decoder.decode(msgspec.json.encode(doc))


def initial_state(meta: GameMeta, catalog: Catalog) -> Any:
    """The state a game starts from: its boosters opened from the seed, or its sandbox cards.

    Raises:
        Refused: ``bad_config``.
    """
    engine = _engine(meta.config.game)
    try:
        boosters = None if meta.boosters is None else _sandbox_boosters(catalog, meta.boosters, meta.seed)
        return engine.setup(meta.config, meta.seed, catalog, boosters)
    except (RuleError, UnknownSetError, KeyError) as error:
        pointer = _option_pointer(meta.config.game, error)
        raise Refused(ErrorCode.BAD_CONFIG, str(error).strip("'\""), pointer) from error


def _option_pointer(game: str, error: Exception) -> str | None:
    """`/options/<name>` when the engine refused one option (its message starts with the name)."""
    if not isinstance(error, RuleError) or error.rule != "options" or game not in GAMES:
        return None
    name = re.match(r"\w+", error.message)
    known = GAMES[game].options.__struct_fields__
    return f"/options/{name.group(0)}" if name is not None and name.group(0) in known else None


def _sandbox_boosters(
    catalog: Catalog, boosters: tuple[tuple[CardRef, ...], ...], seed: int
) -> list[list[CardInstance]]:
    opener = BoosterOpener(catalog, Rng(seed))
    return [
        [opener.instance(catalog.card(ref.set, ref.number), ref.foil) for ref in booster]
        for booster in boosters
    ]


def summary(row: GameRow) -> GameSummary:
    meta = row.meta
    bots = _house(meta)
    seats = tuple(
        SeatInfo(seat=seat, name=row.names.get(seat), house=bots.get(seat))
        for seat in range(meta.config.players)
    )
    return GameSummary(
        game_id=meta.id,
        game=meta.config.game,
        status=_PUBLIC_STATUS[row.status],
        players=meta.config.players,
        seats=seats,
        sets=meta.config.sets,
        version=max(row.version, 0),
        created_at=datetime.fromtimestamp(meta.created, UTC),
        turn_seconds=meta.clock,
        sandbox=meta.sandbox,
        private=meta.private,
    )


def _house(meta: GameMeta) -> dict[int, HouseBot]:
    return meta.house_bots()


def house_name(bot: str) -> str:
    """The player name the lobby shows for a house seat."""
    return f"House ({bot})"


def _engine(name: str) -> Game[Any]:
    try:
        return get_game(name)
    except RuleError as error:
        raise Refused(ErrorCode.BAD_CONFIG, error.message) from error


@cache
def _action_union(game_name: str) -> Any:
    return Union[GAMES[game_name].actions]  # noqa: UP007


def _nobody(limit: str) -> None:
    """Tell nobody."""
