"""The authority: creates games, seats players, starts full games and applies actions.

Any process may serve any request: every step reads the game from Redis and writes
it back with a compare-and-set on its version, so two processes racing on one game
never both win. An action that loses a race is decided again on the new version; it
still applies when its seat faces the same decision as before (see
:mod:`packplay.server.decisions`), else it is rejected as stale.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import msgspec

from packplay.cards.boosters import BoosterOpener
from packplay.cards.catalog import Catalog, UnknownSetError, load_catalog
from packplay.cards.model import CardInstance
from packplay.games.base import Audience, Game, GameConfig, RuleError, Transition
from packplay.games.registry import get_game
from packplay.rng import Rng
from packplay.server import decisions, messages
from packplay.server.settings import Settings
from packplay.server.store import (
    Answer,
    Commit,
    GameMeta,
    GameRow,
    LogEntry,
    Snapshot,
    Status,
    Store,
    answer_field,
    hash_token,
)
from packplay_protocol.catalog import GAMES
from packplay_protocol.errors import ErrorCode, RejectReason
from packplay_protocol.from_client import Act
from packplay_protocol.ids import MAX_SAFE_INT
from packplay_protocol.rest import (
    CardRef,
    CreateGame,
    GameList,
    GameSetup,
    GameSnapshot,
    GameStatus,
    GameSummary,
    JoinSeat,
    Replay,
    SeatGrant,
    SeatInfo,
)
from packplay_protocol.to_client import ServerMessage, ViewMessage

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
}
_REJECT_REASONS = {reason.value for reason in RejectReason}


class ServiceError(Exception):
    """A request the service refuses; ``code`` is the protocol's stable error code."""

    def __init__(self, code: ErrorCode, detail: str) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail


@dataclass(frozen=True)
class Loaded:
    """A started game read at one version, its state decoded."""

    snapshot: Snapshot
    engine: Game[Any]
    state: Any

    @property
    def meta(self) -> GameMeta:
        return self.snapshot.meta

    @property
    def version(self) -> int:
        return self.snapshot.version

    def view(self, audience: Audience) -> ViewMessage:
        return messages.view_message(self.engine, self.meta, self.version, self.state, audience)


class Service:
    """One per process; stateless between calls (Redis holds everything)."""

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
        self.committed: Callable[[str, int, Any], None] = lambda game_id, version, state: None
        """Told of each version this process commits, with its state (the fan-out sets it)."""

    @property
    def catalog(self) -> Catalog:
        if self._catalog is None:
            self._catalog = self._load_catalog()
        return self._catalog

    # lobby

    async def create(self, request: CreateGame) -> GameSummary:
        """A new open game; its config is checked by setting it up once.

        Raises:
            ServiceError: ``sandbox_disabled`` or ``bad_config``.
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
            options=request.options,
        )
        meta = GameMeta(
            id=secrets.token_urlsafe(9),
            config=config,
            seed=secrets.randbits(SEED_BITS) if request.seed is None else request.seed,
            created=self.now(),
            clock=request.turn_seconds,
            boosters=request.boosters,
            sandbox=sandboxed,
        )
        self.setup(meta)
        await self.store.create(meta, ttl=self.settings.lobby_ttl)
        return summary(GameRow(meta, "lobby", 0, {}))

    async def join(self, game_id: str, request: JoinSeat) -> SeatGrant:
        """Take a seat; the join that fills the game starts it.

        Raises:
            ServiceError: ``not_found``, ``game_started``, ``game_full``, ``seat_taken``.
        """
        token = secrets.token_urlsafe(32)
        outcome, seat, taken = await self.store.join(
            game_id, hash_token(token), request.name, request.seat, self.settings.lobby_ttl
        )
        if outcome != "ok":
            raise ServiceError(
                _JOIN_ERRORS[outcome], f"cannot join game {game_id}: {outcome.replace('_', ' ')}"
            )
        snapshot, _ = await self.store.load(game_id)
        if snapshot is not None and taken == snapshot.meta.config.players:
            await self.start(game_id)
        return SeatGrant(game_id=game_id, seat=seat, token=token)

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
        return await self.store.seat_of(hash_token(token))

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
        max_age = self.settings.lobby_ttl if wanted == "open" else self.settings.active_ttl
        ids = await self.store.game_ids(game, wanted == "open", LIST_LIMIT, max_age)
        rows = await self.store.rows(ids)
        picked = [
            summary(row)
            for row in rows
            if _PUBLIC_STATUS[row.status] == wanted and (game is None or row.meta.config.game == game)
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
        if row.status == "lobby":
            return GameSnapshot(summary=summary(row))
        loaded = await self.current(game_id)
        row = GameRow(row.meta, loaded.snapshot.status, loaded.version, row.names)
        return GameSnapshot(summary=summary(row), state=loaded.view(audience))

    async def replay(self, game_id: str) -> Replay:
        """Seed, setup and full log of a finished game.

        Raises:
            ServiceError: ``not_found``, ``game_not_over``.
        """
        loaded = await self.current(game_id)
        result = loaded.engine.result(loaded.state)
        if loaded.snapshot.status != "finished" or result is None:
            raise ServiceError(ErrorCode.GAME_NOT_OVER, "the replay is available once the game is over")
        meta = loaded.meta
        entries = await self.store.entries_since(game_id, -1)
        setup = GameSetup(
            game=meta.config.game,
            players=meta.config.players,
            sets=meta.config.sets,
            options=meta.config.options,
            boosters=meta.boosters,
        )
        log = messages.logged_actions(meta.config.game, entries)
        return Replay(game_id=game_id, setup=setup, seed=meta.seed, log=log, result=result)

    # play

    def setup(self, meta: GameMeta) -> Any:
        """The initial state of a game (also how a config is checked at creation).

        Raises:
            ServiceError: ``bad_config``.
        """
        return initial_state(meta, self.catalog)

    async def start(self, game_id: str) -> None:
        """Set up a full game (version 0). Whoever sees it full first does it; once."""
        snapshot, _ = await self.store.load(game_id)
        if snapshot is None or snapshot.status != "starting":
            return
        meta = snapshot.meta
        engine = _engine(meta.config.game)
        state = self.setup(meta)
        now = self.now()
        tracked = decisions.track(engine, state, meta.config.players, 0, now)
        commit = Commit(
            game_id=game_id,
            expected=snapshot.version,
            status="active",
            state=messages.encode_state(state),
            legal=decisions.encode(tracked),
            entry=LogEntry(version=0, at=now),
            ttl=self.settings.active_ttl,
            deadline=decisions.deadline(tracked, engine.pending(state), meta.clock),
        )
        outcome, _, _ = await self.store.commit(commit)
        if outcome == "ok":
            await self._extend_tokens(game_id, self.settings.active_ttl)

    async def current(self, game_id: str) -> Loaded:
        """The started game now (starting it if it is full and nobody has yet).

        Raises:
            ServiceError: ``not_found``; ``game_started`` is never raised here, but
            ``out_of_order`` is when the game still waits for players.
        """
        snapshot, _ = await self.store.load(game_id)
        if snapshot is not None and snapshot.status == "starting":
            await self.start(game_id)
            snapshot, _ = await self.store.load(game_id)
        if snapshot is None:
            raise ServiceError(ErrorCode.NOT_FOUND, f"no game {game_id}")
        if snapshot.state is None:
            raise ServiceError(ErrorCode.OUT_OF_ORDER, "the game is waiting for players")
        engine = _engine(snapshot.meta.config.game)
        return Loaded(snapshot, engine, messages.decode_state(engine, snapshot.state))

    async def catch_up(
        self, game_id: str, audience: Audience, since: int | None
    ) -> tuple[list[ServerMessage], int, GameMeta]:
        """What brings a client from ``since`` (None: nothing yet) to now: the filtered
        events after ``since``, the view, and the result once over; and the version."""
        loaded = await self.current(game_id)
        out: list[ServerMessage] = []
        if since is not None and -1 <= since < loaded.version:
            entries = [
                e for e in await self.store.entries_since(game_id, since) if e.version <= loaded.version
            ]
            out.append(messages.events_message(loaded.meta, entries, audience, since))
        out.append(loaded.view(audience))
        result = loaded.engine.result(loaded.state)
        if result is not None:
            out.append(messages.game_over(loaded.meta, result))
        return out, loaded.version, loaded.meta

    async def act(self, game_id: str, seat: int, act: Act, timed_out: bool = False) -> Answer:
        """Apply one action of ``seat``, once per action id, whatever the races."""
        field = answer_field(seat, act.action_id)
        digest = _digest(act.action)
        version = -1
        for _ in range(MAX_ATTEMPTS):
            snapshot, stored = await self.store.load(game_id, field)
            if stored is not None:
                return _same_or_duplicate(stored, digest)
            decided = self._decide(snapshot, seat, act, digest, timed_out)
            if isinstance(decided, Answer):
                return await self._remember(game_id, field, decided)
            outcome, previous, version = await self.store.commit(decided)
            if outcome == "ok":
                self.committed(game_id, decided.entry.version, decided.decoded)
                await self._after_commit(decided)
                return decided.answer or _accepted(decided.entry.version, digest)
            if outcome == "duplicate" and previous is not None:
                return _same_or_duplicate(previous, digest)
            if outcome == "missing":
                return _rejected(RejectReason.NOT_FOUND, "the game is gone", 0)
        return _rejected(RejectReason.STALE_VERSION, "the game moved on; decide again", max(version, 0))

    def _decide(
        self, snapshot: Snapshot | None, seat: int, act: Act, digest: str, timed_out: bool
    ) -> Answer | Commit:
        if snapshot is None:
            return _rejected(RejectReason.NOT_FOUND, "no such game", 0)
        if snapshot.state is None:
            return _rejected(RejectReason.NOT_STARTED, "the game is waiting for players", 0)
        version = snapshot.version
        engine = _engine(snapshot.meta.config.game)
        if not isinstance(act.action, GAMES[engine.name].actions):
            return _stored(RejectReason.BAD_MESSAGE, f"not an action of {engine.name}", version, digest)
        if snapshot.status == "finished":
            return _stored(RejectReason.GAME_OVER, "the game is over", version, digest)
        tracked = decisions.decode(snapshot.legal)
        if act.version != version and not (
            act.version < version and decisions.unchanged_since(tracked, seat, act.version)
        ):
            return _stored(RejectReason.STALE_VERSION, f"the game is at version {version}", version, digest)
        state = messages.decode_state(engine, snapshot.state)
        try:
            transition = engine.apply(state, seat, act.action, copy=False)  # state is our own copy
        except RuleError as error:
            reason = error.reason if error.reason in _REJECT_REASONS else RejectReason.ILLEGAL_ACTION
            return Answer(
                accepted=False,
                version=version,
                reason=reason,
                rule=error.rule,
                message=error.message,
                digest=digest,
            )
        return self._commit(snapshot, engine, transition, seat, act, digest, timed_out)

    def _commit(
        self,
        snapshot: Snapshot,
        engine: Game[Any],
        transition: Transition[Any],
        seat: int,
        act: Act,
        digest: str,
        timed_out: bool,
    ) -> Commit:
        meta, new_version, now = snapshot.meta, snapshot.version + 1, self.now()
        state = transition.state
        finished = engine.result(state) is not None
        previous = decisions.decode(snapshot.legal)
        tracked = decisions.track(engine, state, meta.config.players, new_version, now, previous, actor=seat)
        entry = LogEntry(
            version=new_version,
            at=now,
            seat=seat,
            action_id=act.action_id,
            action=msgspec.to_builtins(act.action),
            timed_out=timed_out,
            events=messages.stored_events(transition.events),
        )
        return Commit(
            game_id=meta.id,
            expected=snapshot.version,
            status="finished" if finished else "active",
            state=messages.encode_state(state),
            legal=decisions.encode(tracked),
            entry=entry,
            ttl=self.settings.finished_ttl if finished else self.settings.active_ttl,
            answer_field=answer_field(seat, act.action_id),
            answer=_accepted(new_version, digest),
            deadline=None if finished else decisions.deadline(tracked, engine.pending(state), meta.clock),
            decoded=state,
        )

    async def _after_commit(self, commit: Commit) -> None:
        if commit.status == "finished":
            await self._extend_tokens(commit.game_id, self.settings.finished_ttl)

    async def _extend_tokens(self, game_id: str, ttl: int) -> None:
        seats = await self.store.seats(game_id)
        await self.store.expire_tokens([digest for digest, _ in seats.values()], ttl)

    async def _remember(self, game_id: str, field: str, answer: Answer) -> Answer:
        if not answer.digest:
            return answer
        return await self.store.remember(game_id, field, answer)

    # turn clocks

    async def expire_clocks(self) -> int:
        """Play the default action of every seat whose clock ran out; the number played."""
        played = 0
        for game_id, _ in await self.store.due_clocks(self.now()):
            played += await self._time_out(game_id)
        return played

    async def _time_out(self, game_id: str) -> int:
        try:
            loaded = await self.current(game_id)
        except ServiceError:
            await self.store.clear_clock(game_id)
            return 0
        tracked = decisions.decode(loaded.snapshot.legal)
        clock = loaded.meta.clock or 0.0
        played = 0
        for seat in loaded.engine.pending(loaded.state):
            if tracked[seat].at + clock > self.now():
                continue
            legal = loaded.engine.legal_actions(loaded.state, seat)
            action = msgspec.convert(decisions.default_action(legal), loaded.engine.action_type)
            act = Act(action_id=f"clock-{seat}-{tracked[seat].since}", version=loaded.version, action=action)
            answer = await self.act(game_id, seat, act, timed_out=True)
            if not answer.accepted and answer.reason != RejectReason.STALE_VERSION:
                # The rules refuse the default action: stop retrying it every tick.
                log.warning("game %s: default action of seat %s refused: %s", game_id, seat, answer.message)
                await self.store.clear_clock(game_id)
            played += answer.accepted
        return played


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
        raise ServiceError(ErrorCode.BAD_CONFIG, str(error).strip("'\"")) from error


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
    seats = tuple(SeatInfo(seat=seat, name=row.names.get(seat)) for seat in range(meta.config.players))
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
    )


def _engine(name: str) -> Game[Any]:
    try:
        return get_game(name)
    except RuleError as error:
        raise ServiceError(ErrorCode.BAD_CONFIG, error.message) from error


def _digest(action: Any) -> str:
    return hashlib.blake2b(msgspec.msgpack.encode(action), digest_size=8).hexdigest()


def _accepted(version: int, digest: str) -> Answer:
    return Answer(accepted=True, version=version, digest=digest)


def _rejected(reason: RejectReason, message: str, version: int) -> Answer:
    """A refusal that is not the game's decision (not stored: the same id may succeed later)."""
    return Answer(accepted=False, version=version, reason=reason.value, message=message)


def _stored(reason: RejectReason, message: str, version: int, digest: str) -> Answer:
    return Answer(accepted=False, version=version, reason=reason.value, message=message, digest=digest)


def _same_or_duplicate(stored: Answer, digest: str) -> Answer:
    if stored.digest == digest:
        return stored
    return Answer(
        accepted=False,
        version=stored.version,
        reason=RejectReason.DUPLICATE.value,
        message="this action id was used for another action",
    )
