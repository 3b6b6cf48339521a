"""The one interface every rules engine implements, and what it exchanges.

A rules engine is pure: ``setup`` builds a state from a config, a seed and the
card catalog, by drawing the game's explicit set-up (``deal``) and building the
state from it with ``from_deal``, which needs neither seed nor catalog; ``apply``
turns (state, seat, action) into a new state and events, or raises
:class:`RuleError`. No I/O, no clock, no global state: the server, the bots and the
simulator all drive games through this interface.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar, Generic, NamedTuple, TypeVar

import msgspec

from packplay.cards.model import CardInstance
from packplay.games.layout import Audience as Audience
from packplay.games.layout import Changed, Changes, ViewLayout, changed
from packplay_protocol.games.common import GameResult, LegalActions

SPECTATOR: None = None
"""The audience of a spectator: sees only what is public."""

GivenBoosters = Sequence[Sequence[CardInstance]] | None
"""Boosters given to setup instead of opened (sandbox games, scenario tests), or None."""


class RuleError(ValueError):
    """A refused action. ``rule`` names the ruling or section (``MF-2``, ``turn``).

    ``reason`` is one of the protocol's closed reject reasons; the message never
    names a card hidden from the acting seat (RULES.md C-6).
    """

    def __init__(self, rule: str, message: str, reason: str = "illegal_action") -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message
        self.reason = reason


class GameState(msgspec.Struct, kw_only=True):
    """What every game's state holds: every card of the game by instance id.

    Zones (hands, rows, piles, the board) hold card ids only; ``cards`` gives their
    facts. It is filled at setup and never changes afterwards, so copies of a state
    share it, and storage keeps it once per game rather than once per version.
    """

    cards: dict[str, CardInstance]


class GameConfig(msgspec.Struct, frozen=True, kw_only=True):
    """How a game is set up: which game, how many seats, which sets, options."""

    game: str
    players: int
    sets: tuple[str, ...] = ()
    options: dict[str, Any] = msgspec.field(default_factory=dict)


class Emitted(msgspec.Struct, frozen=True):
    """One event and who may see it: ``to`` None means everyone (spectators included)
    but the seats in ``exclude``; otherwise only the seats in ``to``."""

    event: Any
    to: frozenset[int] | None = None
    exclude: frozenset[int] = frozenset()

    def visible_to(self, audience: Audience) -> bool:
        if self.to is None:
            return audience not in self.exclude
        return audience is not None and audience in self.to


def told_apart(seat: int, private: Any, public: Any) -> list[Emitted]:
    """One happening told twice: in full to ``seat``, redacted to everyone else."""
    return [Emitted(private, frozenset({seat})), Emitted(public, exclude=frozenset({seat}))]


S = TypeVar("S", bound=GameState)
NOTHING_TO_DO: LegalActions[Any] = LegalActions()
"""The legal actions of a seat that has nothing pending."""


class Awaited(NamedTuple):
    """What a game awaits at one state: its result once over, the seats whose decision is
    awaited, and what each seat may do (in seat order)."""

    result: GameResult | None
    pending: tuple[int, ...]
    legal: tuple[LegalActions[Any], ...]


class Transition(msgspec.Struct, Generic[S], frozen=True):
    """The result of applying one action: the new state and the events it caused."""

    state: S
    events: tuple[Emitted, ...]


def events_for(events: Iterable[Emitted], audience: Audience) -> list[Any]:
    """The events one audience may see, in order."""
    return [e.event for e in events if e.visible_to(audience)]


def place_in_turn_order(index: int) -> str:
    """A role name for simulator statistics: ``1st to play``, ``2nd to play``, ..."""
    suffix = {0: "st", 1: "nd", 2: "rd"}.get(index, "th")
    return f"{index + 1}{suffix} to play"


def clone(state: S) -> S:
    """A deep copy of a state struct (engines mutate only their own copy).

    The card table is shared, not copied: it never changes after setup.
    """
    copied = msgspec.msgpack.decode(msgspec.msgpack.encode(without_cards(state)), type=type(state))
    copied.cards = state.cards
    return copied


def without_cards(state: S) -> S:
    """A shallow copy of ``state`` with an empty card table (what changes from version to version)."""
    return msgspec.structs.replace(state, cards={})


class Game(ABC, Generic[S]):
    """A mini-game's rules. Subclasses implement the hooks; this class checks turns.

    Hooks: ``_setup``, ``_pending``, ``_legal_actions``, ``_apply``, ``result``,
    ``view``. ``apply`` refuses actions of seats that have nothing pending and
    actions after the end, then calls ``_apply`` on a copy of the state.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    default_sets: ClassVar[tuple[str, ...]]
    state_type: ClassVar[type[GameState]]
    action_type: ClassVar[Any]
    """The union of this game's action structs (for decoding)."""
    deal_type: ClassVar[type[msgspec.Struct]]
    """This game's explicit set-up struct (``packplay_protocol.audit``)."""
    view_type: ClassVar[type[msgspec.Struct]]
    """This game's view struct (``packplay_protocol.games``): what :meth:`view` returns."""
    event_changes: ClassVar[Mapping[type, Changes]] = {}
    """Per kind of event, the fields of the state it changes (an event not named here: any)."""

    def setup(
        self,
        config: GameConfig,
        seed: int,
        catalog: Any,
        boosters: GivenBoosters = None,
    ) -> S:
        """A new game. Boosters are opened here from ``seed`` unless given explicitly.

        ``boosters`` (sandbox and scenario tests) replaces the opened boosters, one
        list per booster the game needs, in seat order.

        Raises:
            RuleError: the config is not playable (player count, unknown set, option).
        """
        self._check_players(config)
        return self._setup(config, seed, catalog, boosters)

    def pending(self, state: S) -> tuple[int, ...]:
        """Seats whose decision is awaited, in seat order (empty once the game is over)."""
        if self.result(state) is not None:
            return ()
        return self._pending(state)

    def legal_actions(self, state: S, seat: int) -> LegalActions[Any]:
        """What ``seat`` may do now (empty when nothing is pending for it)."""
        if seat not in self.pending(state):
            return LegalActions()
        return self._legal_actions(state, seat)

    def awaited(self, state: S, players: int) -> Awaited:
        """The result, the pending seats and every seat's legal actions, found once for all
        (as :meth:`result`, :meth:`pending` and :meth:`legal_actions` give them)."""
        result = self.result(state)
        pending = () if result is not None else self._pending(state)
        legal = tuple(
            self._legal_actions(state, seat) if seat in pending else NOTHING_TO_DO for seat in range(players)
        )
        return Awaited(result, pending, legal)

    def apply(self, state: S, seat: int, action: Any, *, copy: bool = True) -> Transition[S]:
        """Apply ``action`` by ``seat``. The input state is not modified, unless ``copy``
        is false: then an accepted action changes ``state`` itself (for a caller that
        owns a private copy, such as the server with a state just read from storage).

        Raises:
            RuleError: the action is refused; the state is unchanged either way.
        """
        if self.result(state) is not None:
            raise RuleError("over", "the game is over", "game_over")
        if seat not in self._pending(state):
            raise RuleError("turn", "nothing is pending for this seat", "not_your_turn")
        work = clone(state) if copy else state
        events = self._apply(work, seat, action)
        return Transition(state=work, events=tuple(events))

    def deal(self, state: S) -> Any:
        """The explicit set-up of a game at version 0 (its ``deal_type``): what chance
        produced, as card ids. :meth:`from_deal` builds the same state back from it."""
        return self._deal(state)

    def from_deal(self, config: GameConfig, deal: Any, cards: Mapping[str, CardInstance], seed: int = 0) -> S:
        """The game at version 0, built from an explicit set-up alone (pure: no random
        draw, no catalog). ``cards`` is the card table: every card of the game by id.
        ``seed`` only labels the state (a view shows it once the game is over).

        Raises:
            RuleError: the config or the set-up is not one this game could deal
                (``players``, ``options``, ``deal``; reason ``bad_config``).
        """
        self._check_players(config)
        if not isinstance(deal, self.deal_type):
            raise RuleError("deal", f"not a {self.title} set-up", "bad_config")
        table = dict(cards)
        if any(card_id != card.id for card_id, card in table.items()):
            raise RuleError("deal", "the card table must list each card under its own id", "bad_config")
        listed = deal_card_ids(deal)
        if len(set(listed)) != len(listed) or set(listed) != set(table):
            raise RuleError("deal", "every card of the table must be in exactly one zone", "bad_config")
        return self._from_deal(config, deal, table, seed)

    def _check_players(self, config: GameConfig) -> None:
        if not self.min_players <= config.players <= self.max_players:
            raise RuleError(
                "players",
                f"{self.title} is for {self.min_players}-{self.max_players} players",
                "bad_config",
            )

    @abstractmethod
    def _setup(self, config: GameConfig, seed: int, catalog: Any, boosters: GivenBoosters) -> S: ...

    @abstractmethod
    def _deal(self, state: S) -> Any: ...

    @abstractmethod
    def _from_deal(self, config: GameConfig, deal: Any, cards: dict[str, CardInstance], seed: int) -> S:
        """Build the state from a set-up whose zones hold each card of ``cards`` once."""

    @abstractmethod
    def _pending(self, state: S) -> tuple[int, ...]: ...

    @abstractmethod
    def _legal_actions(self, state: S, seat: int) -> LegalActions[Any]: ...

    @abstractmethod
    def _apply(self, state: S, seat: int, action: Any) -> list[Emitted]:
        """Check and apply ``action`` in place on ``state`` (a private copy).

        Must raise :class:`RuleError` before changing anything when it refuses.
        """

    @abstractmethod
    def result(self, state: S) -> GameResult | None:
        """The outcome, or None while the game goes on."""

    @abstractmethod
    def layout(self, players: int) -> ViewLayout[S]:
        """The view's parts for ``players`` seats (the same object every call).

        The only way state leaves the engine: what each part shows an audience (a seat, or
        None for a spectator). After the game ends the view reveals everything.
        """

    def changed(self, events: Iterable[Emitted]) -> Changed:
        """The fields of the state a move's events say it changed (:attr:`event_changes`)."""
        return changed([emitted.event for emitted in events], self.event_changes)

    @abstractmethod
    def players(self, state: S) -> int:
        """How many seats the game has."""

    def view_document(self, state: S, audience: Audience) -> dict[str, Any]:
        """What ``audience`` may see of the state, as a JSON document (the wire form)."""
        layout = self.layout(self.players(state))
        return layout.document(layout.values(state, audience))

    def view(self, state: S, audience: Audience) -> Any:
        """What ``audience`` may see of the state, as this game's typed view."""
        return msgspec.convert(self.view_document(state, audience), self.view_type)

    def roles(self, state: S) -> tuple[str, ...] | None:
        """Each seat's role when the game gives seats roles (Day/Night, first mover), else None."""
        return None

    @abstractmethod
    def zones(self, state: S) -> Mapping[str, Sequence[str]]:
        """Every card instance id of the game, listed under the zone it is in now.

        Zone names are free-form (``hand:0``, ``deck``, ``set_aside``, ``out``). The
        property tests check that every card opened at setup is in exactly one zone
        at every step.
        """

    @abstractmethod
    def hidden_from(self, state: S, audience: Audience) -> frozenset[str]:
        """Ids of the cards whose identity ``audience`` may not know now (C-6).

        The property tests check that no card in this set is in the audience's
        card table (:meth:`known_cards`).
        """

    def known_cards(self, state: S, audience: Audience) -> list[str]:
        """Ids of the cards whose facts ``audience`` may know now, sorted.

        Views and events name cards by id only; a client finds the facts of these
        cards in the view message's card table. Every card of the game that is not
        hidden from the audience is in it.
        """
        hidden = self.hidden_from(state, audience)
        return sorted(card_id for card_id in state.cards if card_id not in hidden)


def deal_card_ids(deal: msgspec.Struct) -> list[str]:
    """Every card id a set-up lists, zone after zone (its strings other than the tag)."""
    found: list[str] = []

    def walk(value: Any) -> None:
        if isinstance(value, str):
            found.append(value)
        elif isinstance(value, list | tuple):
            for item in value:
                walk(item)

    for name in deal.__struct_fields__:
        walk(getattr(deal, name))
    return found
