"""The authority: creates games, seats players, starts full games and applies actions.

Any process may serve any request. A move is decided on this process's copy of
the game (no read from Redis) and committed with one script that compares and sets
the version: two processes racing on one game never both win. The loser applies the
entries it missed (the commit script returns them) and decides again: the action
still applies when its seat faces the same decision as before (see
:mod:`packplay.table.decisions`), else it is rejected as stale.
"""

from __future__ import annotations

import functools
import ipaddress
import logging
import re
import secrets
import time
from collections.abc import Callable
from datetime import UTC, datetime
from functools import cache
from typing import Any, Union

import msgspec
from redis.exceptions import RedisError

from packplay.cards.boosters import BoosterOpener
from packplay.cards.catalog import Catalog, UnknownSetError, load_catalog
from packplay.cards.model import CardInstance
from packplay.games.base import Audience, Game, GameConfig, RuleError
from packplay.games.registry import get_game
from packplay.rng import Rng
from packplay.server import house
from packplay.server.public_ids import new_id
from packplay.server.settings import Settings
from packplay.server.store import Store, answer_field, hash_token
from packplay.server.tables import GameMissing, GameNotStarted, Table, Tables
from packplay.table import decisions, rendering
from packplay.table.game_copy import GameCopy, Step, decode_state, digest, encode_cards
from packplay.table.records import Answer, Commit, GameMeta, GameRow, Rate, Status
from packplay_protocol.catalog import GAMES
from packplay_protocol.errors import ErrorCode, RejectReason
from packplay_protocol.from_client import Act
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

log = logging.getLogger(__name__)
MAX_ATTEMPTS = 8
SEED_BITS = MAX_SAFE_INT.bit_length()
"""Seeds travel in views once over; every integer on the wire must fit a JavaScript number."""
LIST_LIMIT = 100
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
_REJECT_REASONS = {reason.value for reason in RejectReason}
_view_message_decoder = msgspec.json.Decoder(ViewMessage)


class ServiceError(Exception):
    """A request the service refuses; ``code`` is the protocol's stable error code."""

    def __init__(
        self, code: ErrorCode, detail: str, pointer: str | None = None, retry_after: int | None = None
    ) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.pointer = pointer
        """The request member at fault (a JSON Pointer), when there is one."""
        self.retry_after = retry_after
        """Seconds after which the same request may succeed (a limit held it back)."""


class Service:
    """One per process. Its tables are a cache: Redis holds everything."""

    def __init__(
        self,
        store: Store,
        settings: Settings,
        catalog: Callable[[], Catalog] = load_catalog,
        now: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.settings = settings
        self._load_catalog = catalog
        self._catalog: Catalog | None = None
        self.now = now
        self.tables = Tables(store, lambda: self.catalog, settings.cached_games, settings.catch_up_versions)
        self.seat_limit = Rate(settings.actions_per_second, settings.action_burst)
        per_second = settings.games_per_minute / 60.0
        self.games_limit = Rate(per_second, settings.games_burst) if per_second > 0 else None
        self.house = house.House(self)
        self.finished: Callable[[str], None] | None = None
        """Called with the id of each game this process commits the last move of (the
        tournaments record its result at once instead of at their next round)."""

    @property
    def catalog(self) -> Catalog:
        if self._catalog is None:
            self._catalog = self._load_catalog()
        return self._catalog

    # lobby

    async def create(self, request: CreateGame, client: str | None = None) -> CreatedGame:
        """A new game; its config is checked by setting it up once. It waits in the lobby
        (a private one with an invite code), or starts at once when the request names every
        seat. A ``client`` (an address) is held to the limits of new and open games.

        Raises:
            ServiceError: ``sandbox_disabled``, ``bad_config``, ``validation_failed``,
                ``rate_limited`` or ``too_many_lobbies``.
        """
        sandboxed = request.seed is not None or request.boosters is not None
        if sandboxed and not self.settings.sandbox:
            raise ServiceError(
                ErrorCode.SANDBOX_DISABLED, "seed and boosters need a server run with --sandbox"
            )
        engine = _engine(request.game)
        config = GameConfig(
            game=request.game,
            players=request.players,
            sets=request.sets or engine.default_sets,
            options=msgspec.to_builtins(request.options),
        )
        meta = GameMeta(
            id=new_id(9),
            config=config,
            seed=secrets.randbits(SEED_BITS) if request.seed is None else request.seed,
            created=self.now(),
            clock=request.turn_seconds,
            boosters=request.boosters,
            sandbox=sandboxed,
            house=tuple(sorted(request.house, key=lambda seat: seat.seat)),
            house_seed=secrets.randbits(SEED_BITS) if request.house else 0,
            private=request.private,
        )
        dealt = initial_state(meta, self.catalog)
        if client is not None:
            await self._admit(client_key(client), meta.id, lobby=request.seats is None)
        if request.seats is not None:
            return await self._create_seated(meta, dealt, request.seats)
        invite = new_id(12) if request.private else None
        taken = {
            seat: (hash_token(new_token(meta.id)), house.name_of(bot)) for seat, bot in _house(meta).items()
        }
        hashed_invite = "" if invite is None else hash_token(invite)
        await self.store.create(meta, self.settings.lobby_ttl, hashed_invite, taken)
        self.tables.get(meta.id).dealt = dealt
        names = {seat: name for seat, (_, name) in taken.items()}
        return CreatedGame(**_fields(summary(GameRow(meta, "lobby", 0, names))), invite=invite)

    async def _admit(self, client: str, game_id: str, lobby: bool) -> None:
        if self.games_limit is None and not (lobby and self.settings.open_lobbies > 0):
            return  # nothing to count: no round trip
        ttl = self.settings.lobby_ttl
        outcome, wait = await self.store.admit(
            client, self.games_limit, self.settings.open_lobbies, game_id, ttl, lobby
        )
        if outcome == "limited":
            seconds = max(1, -(-wait // 1000))
            raise ServiceError(
                ErrorCode.RATE_LIMITED,
                f"too many new games from this client; retry in {seconds} s",
                retry_after=seconds,
            )
        if outcome == "lobbies":
            raise ServiceError(
                ErrorCode.TOO_MANY_LOBBIES,
                f"this client has {self.settings.open_lobbies} games waiting for players already",
            )

    async def _create_seated(self, meta: GameMeta, dealt: Any, names: tuple[str, ...]) -> CreatedGame:
        bots = _house(meta)
        players = [seat for seat in range(meta.config.players) if seat not in bots]
        if len(names) != len(players):
            whose = "the house does not play" if bots else ""
            raise ServiceError(
                ErrorCode.VALIDATION_FAILED, f"seats: name each of the {len(players)} seats {whose}".strip()
            )
        named = dict(zip(players, names, strict=True))
        named |= {seat: house.name_of(bot) for seat, bot in bots.items()}
        tokens = {seat: new_token(meta.id) for seat in range(meta.config.players)}
        digests = {seat: hash_token(token) for seat, token in tokens.items()}
        copy = GameCopy.dealt(meta, _engine(meta.config.game), dealt, meta.created)
        await self.store.create_seated(
            meta,
            [(digests[seat], named[seat]) for seat in range(meta.config.players)],
            encode_cards(dealt.cards),
            copy.state_bytes,
            decisions.encode(copy.decisions),
            self._wake(copy.meta, copy.decisions, copy.pending),
            self.settings.active_ttl,
        )
        table = self.tables.get(meta.id)
        table.copy, table.seat_digests = copy, digests
        self.house.committed(copy)
        grants = tuple(SeatGrant(game_id=meta.id, seat=seat, token=tokens[seat]) for seat in players)
        row = GameRow(meta, "active", 0, dict(sorted(named.items())))
        return CreatedGame(**_fields(summary(row)), grants=grants)

    async def join(self, game_id: str, request: JoinSeat) -> SeatGrant:
        """Take a seat; the join that fills the game starts it.

        Raises:
            ServiceError: ``not_found``, ``game_started``, ``game_full``, ``seat_taken``,
                ``invite_required``.
        """
        token = new_token(game_id)
        invite = "" if request.invite is None else hash_token(request.invite)
        outcome, seat, taken, meta = await self.store.join(
            game_id, hash_token(token), request.name, request.seat, self.settings.lobby_ttl, invite
        )
        if outcome != "ok":
            detail = _JOIN_DETAILS.get(outcome, outcome.replace("_", " "))
            raise ServiceError(_JOIN_ERRORS[outcome], f"cannot join game {game_id}: {detail}")
        if meta is not None and taken == meta.config.players:
            await self.start(meta)
        return SeatGrant(game_id=game_id, seat=seat, token=token)

    async def start(self, meta: GameMeta) -> None:
        """Write version 0 of a full game. Whoever sees it full first does it; once."""
        table = self.tables.get(meta.id)
        async with table.lock:
            engine = _engine(meta.config.game)
            state = table.dealt if table.dealt is not None else initial_state(meta, self.catalog)
            copy = GameCopy.dealt(meta, engine, state, self.now())
            started = await self.store.start(
                meta,
                encode_cards(state.cards),
                copy.state_bytes,
                decisions.encode(copy.decisions),
                self._wake(copy.meta, copy.decisions, copy.pending),
                self.settings.active_ttl,
            )
            table.dealt = None
            if started and table.copy is None:
                table.copy = copy
            if started:
                self.house.committed(copy)

    async def leave(self, game_id: str, token: str) -> None:
        """Give up a seat before the start.

        Raises:
            ServiceError: ``unauthorized``, ``not_found``, ``game_started``.
        """
        seat = await self.seat_in(game_id, token)
        outcome = await self.store.leave(game_id, seat, hash_token(token))
        if outcome == "started":
            raise ServiceError(ErrorCode.GAME_STARTED, "the game has started; seats can no longer be left")
        if outcome != "ok":
            raise ServiceError(ErrorCode.NOT_FOUND, f"no game {game_id}")

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
        table = self.tables.held(game_id)
        if table is not None and table.copy is not None and table.seat_digests is not None:
            return table.seat_digests
        return {seat: held for seat, (held, _name) in (await self.store.seats(game_id)).items()}

    async def seat_in(self, game_id: str, token: str) -> int:
        """The seat ``token`` holds in ``game_id``.

        Raises:
            ServiceError: ``unauthorized``: the token holds no seat of this game.
        """
        held = await self.seat_of(token)
        if held is None or held[0] != game_id:
            raise ServiceError(ErrorCode.UNAUTHORIZED, "the token holds no seat in this game")
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
            ServiceError: ``not_found``, ``unauthorized``.
        """
        audience = None if token is None else await self.seat_in(game_id, token)
        rows = await self.store.rows([game_id])
        if not rows:
            raise ServiceError(ErrorCode.NOT_FOUND, f"no game {game_id}")
        row = rows[0]
        if row.status in ("lobby", "starting"):
            return GameSnapshot(summary=summary(row))
        copy = await self.current(game_id)
        row = GameRow(row.meta, copy.status, copy.version, row.names)
        return GameSnapshot(summary=summary(row), state=view_message(copy, audience))

    async def replay(self, game_id: str) -> Replay:
        """Seed, setup, explicit set-up, card table and full log of a finished game.

        Raises:
            ServiceError: ``not_found``, ``game_not_over`` (a game still waiting for players too).
        """
        try:
            copy = await self.current(game_id)
        except ServiceError as error:
            if error.code is ErrorCode.OUT_OF_ORDER:
                raise ServiceError(ErrorCode.GAME_NOT_OVER, "the game has not started") from error
            raise
        result = copy.engine.result(copy.state)
        if copy.status != "finished" or result is None:
            raise ServiceError(ErrorCode.GAME_NOT_OVER, "the replay is available once the game is over")
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
            raise ServiceError(ErrorCode.INTERNAL, "the log of the game is incomplete")
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
            ServiceError: ``not_found``; ``out_of_order`` while the game waits for players.
        """
        snapshot = await self.store.load(game_id)
        if snapshot is None:
            raise ServiceError(ErrorCode.NOT_FOUND, f"no game {game_id}")
        if snapshot.status == "starting":
            await self.start(snapshot.meta)
            snapshot = await self.store.load(game_id)
        copy = None if snapshot is None else self.tables.copy_of(snapshot)
        if copy is None:
            raise ServiceError(ErrorCode.OUT_OF_ORDER, "the game is waiting for players")
        return copy

    # play

    async def act(self, game_id: str, seat: int, act: Act, timed_out: bool = False) -> Answer:
        """Apply one action of ``seat``, once per action id, whatever the races."""
        table = self.tables.get(game_id)
        action_digest = digest(act.action)
        async with table.lock:
            for _ in range(MAX_ATTEMPTS):
                try:
                    copy = await self.tables.ensure(table)
                except GameMissing:
                    return _rejected(RejectReason.NOT_FOUND, "no such game", 0)
                except GameNotStarted:
                    return _rejected(RejectReason.NOT_STARTED, "the game is waiting for players", 0)
                if act.version > copy.version:
                    await self.tables.catch_up(table)  # the client saw a version this copy has not yet
                    copy = table.copy or copy
                decided = self._decide(copy, seat, act, action_digest, timed_out)
                limit = None if timed_out else self.seat_limit
                if isinstance(decided, Answer):
                    return await self._remember(game_id, seat, act.action_id, decided, limit)
                answer = await self._commit(table, copy, decided, limit)
                if answer is not None:
                    return answer
        return _rejected(RejectReason.STALE_VERSION, "the game moved on; decide again", table_version(table))

    def _decide(
        self, copy: GameCopy, seat: int, act: Act, action_digest: str, timed_out: bool
    ) -> Answer | Step:
        version, engine = copy.version, copy.engine
        last = copy.last.get(seat)
        if last is not None and last[0] == act.action_id:
            return _same_or_duplicate(last[1], action_digest)
        if not isinstance(act.action, GAMES[engine.name].actions):
            return _stored(
                RejectReason.BAD_MESSAGE, f"not an action of {engine.name}", version, action_digest
            )
        if copy.status == "finished":
            return _stored(RejectReason.GAME_OVER, "the game is over", version, action_digest)
        if act.version != version and not (
            act.version < version and decisions.unchanged_since(copy.decisions, seat, act.version)
        ):
            return _stored(
                RejectReason.STALE_VERSION, f"the game is at version {version}", version, action_digest
            )
        try:
            return copy.step(seat, act.action, act.action_id, self.now(), timed_out, action_digest)
        except RuleError as error:
            reason = error.reason if error.reason in _REJECT_REASONS else RejectReason.ILLEGAL_ACTION
            return Answer(
                accepted=False,
                version=version,
                reason=reason,
                rule=error.rule,
                message=error.message,
                digest=action_digest,
            )

    async def _commit(self, table: Table, copy: GameCopy, step: Step, limit: Rate | None) -> Answer | None:
        """Commit a step: the answer, or None when another version came first (decide again)."""
        finished = step.status == "finished"
        commit = Commit(
            game_id=copy.game_id,
            expected=copy.version,
            status=step.status,
            state=step.state_bytes,
            decisions=decisions.encode(step.decisions),
            entry=step.entry,
            entry_bytes=step.entry_bytes,
            ttl=self.settings.finished_ttl if finished else self.settings.active_ttl,
            answer=step.answer,
            deadline=None if finished else self._wake(copy.meta, step.decisions, step.pending),
            limit=limit,
        )
        try:
            result = await self.store.commit(commit)
        except RedisError:
            # Whether Redis applied it is unknown: read the game again before the next move.
            # (A client told "unavailable" sends the action again and gets the true answer.)
            table.let_go(keep_views=True)
            raise
        if result.outcome == "ok":
            table.advance(step)
            self.house.committed(table.copy or copy)
            if finished and self.finished is not None:
                self.finished(copy.game_id)
            return step.answer
        if result.outcome == "duplicate" and result.previous is not None:
            if result.previous.accepted and result.previous.version > copy.version:
                await self.tables.catch_up(table)  # it was applied, unseen here: bring watchers along
            return _same_or_duplicate(result.previous, step.answer.digest)
        if result.outcome == "missing":
            table.copy = None
            return _rejected(RejectReason.NOT_FOUND, "the game is gone", 0)
        if result.outcome == "limited":
            return _seat_limited(result.wait, copy.version)
        await self.tables.catch_up(table, result.missed, result.version)
        return None

    async def _remember(
        self, game_id: str, seat: int, action_id: str, answer: Answer, limit: Rate | None
    ) -> Answer:
        if not answer.digest or answer.accepted:
            return answer
        stored = await self.store.remember(game_id, seat, answer_field(seat, action_id), answer, limit)
        return _seat_limited(stored, answer.version) if isinstance(stored, int) else stored

    # watching

    async def watch(
        self, game_id: str, watcher: Any, audience: Audience, since: int | None
    ) -> rendering.Frames:
        """Follow a game; the messages that bring ``watcher`` up to date.

        Raises:
            ServiceError: ``not_found``; ``out_of_order`` while the game waits for players.
        """
        try:
            return await self.tables.watch(game_id, watcher, audience, since)
        except GameMissing as missing:
            raise ServiceError(ErrorCode.NOT_FOUND, f"no game {game_id}") from missing
        except GameNotStarted as waiting:
            raise ServiceError(ErrorCode.OUT_OF_ORDER, "the game is waiting for players") from waiting

    async def resume(self, game_id: str, audience: Audience, since: int | None) -> rendering.Frames:
        """The messages that bring a watcher from ``since`` to now.

        Raises:
            ServiceError: ``not_found``.
        """
        try:
            return await self.tables.resume(game_id, audience, since)
        except (GameMissing, GameNotStarted) as missing:
            raise ServiceError(ErrorCode.NOT_FOUND, f"no game {game_id}") from missing

    # turn clocks

    def _wake(self, meta: GameMeta, tracked: Any, pending: Any) -> float | None:
        """When the clock sweep should look at the game next (a turn clock, an overdue house seat)."""
        return house.wake(meta, tracked, pending, self.settings.house_grace)

    async def expire_clocks(self) -> int:
        """Play the default action of every seat whose clock ran out, and make the house
        decisions left overdue (their process may have died); the number of defaults played."""
        played = 0
        for game_id, deadline in await self.store.due_clocks(self.now()):
            played += await self._time_out(game_id, deadline)
        return played

    async def _time_out(self, game_id: str, seen: float | None = None) -> int:
        table = self.tables.get(game_id)
        async with table.lock:
            try:
                copy = await self.tables.ensure(table)
            except LookupError:
                await self.store.clear_clock(game_id)
                return 0
            if not table.live:
                await self.tables.catch_up(table)
                copy = table.copy or copy
            due = self._due_actions(copy)
            overdue = self.house.overdue(copy) if copy.meta.house else []
        if overdue and not due and seen is not None:
            until = self.now() + self.settings.house_grace
            if copy.meta.clock is not None:
                until = min([until, *(copy.decisions[s].at + copy.meta.clock for s in copy.pending)])
            if await self.store.claim_clock(game_id, seen, until):
                self.house.take_over(game_id, overdue)
        played = 0
        for seat, act in due:
            answer = await self.act(game_id, seat, act, timed_out=True)
            if not answer.accepted and answer.reason != RejectReason.STALE_VERSION:
                # The rules refuse the default action: stop retrying it every tick.
                log.warning("game %s: default action of seat %s refused: %s", game_id, seat, answer.message)
                await self.store.clear_clock(game_id)
            played += answer.accepted
        return played

    def _due_actions(self, copy: GameCopy) -> list[tuple[int, Act]]:
        if copy.meta.clock is None:
            return []  # in the clock index for an overdue house seat only
        clock = copy.meta.clock
        engine, state = copy.engine, copy.state
        due = []
        for seat in engine.pending(state):
            decision = copy.decisions[seat]
            if decision.at + clock > self.now():
                continue
            legal = engine.legal_actions(state, seat)
            action = msgspec.convert(decisions.default_action(legal), engine.action_type)
            act = Act(action_id=f"clock-{seat}-{decision.since}", version=copy.version, action=action)
            due.append((seat, act))
        return due


def new_token(game_id: str) -> str:
    """A player token: the game it is for, a dot, a secret (only its hash is stored)."""
    return f"{game_id}.{secrets.token_urlsafe(32)}"


def _fields(row: GameSummary) -> dict[str, Any]:
    return {name: getattr(row, name) for name in row.__struct_fields__}


def table_version(table: Table) -> int:
    return 0 if table.copy is None else table.copy.version


def view_message(copy: GameCopy, audience: Audience) -> ViewMessage:
    """The typed view message of ``audience`` (REST snapshots)."""
    doc = rendering.whole_view(rendering.view_doc(copy, audience), copy.version)
    return _view_message_decoder.decode(msgspec.json.encode(doc))


def initial_state(meta: GameMeta, catalog: Catalog) -> Any:
    """The state a game starts from: its boosters opened from the seed, or its sandbox cards.

    Raises:
        ServiceError: ``bad_config``.
    """
    engine = _engine(meta.config.game)
    try:
        boosters = None if meta.boosters is None else _sandbox_boosters(catalog, meta.boosters, meta.seed)
        return engine.setup(meta.config, meta.seed, catalog, boosters)
    except (RuleError, UnknownSetError, KeyError) as error:
        pointer = _option_pointer(meta.config.game, error)
        raise ServiceError(ErrorCode.BAD_CONFIG, str(error).strip("'\""), pointer) from error


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
    return house.house_seats(meta)


def _engine(name: str) -> Game[Any]:
    try:
        return get_game(name)
    except RuleError as error:
        raise ServiceError(ErrorCode.BAD_CONFIG, error.message) from error


@cache
def _action_union(game_name: str) -> Any:
    return Union[GAMES[game_name].actions]  # noqa: UP007


def _rejected(reason: RejectReason, message: str, version: int) -> Answer:
    """A refusal that is not the game's decision (not stored: the same id may succeed later)."""
    return Answer(accepted=False, version=version, reason=reason.value, message=message)


def _seat_limited(wait: int, version: int) -> Answer:
    """The seat acts faster than its limit (over all its connections): nothing applied, nothing stored."""
    return _rejected(RejectReason.RATE_LIMITED, f"too many actions of this seat; retry in {wait} ms", version)


@functools.lru_cache(maxsize=4096)  # parsing an address costs more than the rest of a request's checks
def client_key(address: str) -> str:
    """What the per-client limits count by: the address, an IPv6 one as its /64 network (one
    subscriber's share)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address[:64]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def _stored(reason: RejectReason, message: str, version: int, action_digest: str) -> Answer:
    return Answer(accepted=False, version=version, reason=reason.value, message=message, digest=action_digest)


def _same_or_duplicate(stored: Answer, action_digest: str) -> Answer:
    if stored.digest == action_digest:
        return stored
    return Answer(
        accepted=False,
        version=stored.version,
        reason=RejectReason.DUPLICATE.value,
        message="this action id was used for another action",
    )


__all__ = ["Service", "ServiceError", "decode_state", "initial_state", "summary", "view_message"]
