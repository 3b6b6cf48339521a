"""Example messages, written by hand from real cards: the source of the conformance vectors.

Each example is named ``<message type>/<case>``; every message type of both
directions has at least one, and every game contributes actions, a view and events.
"""

from __future__ import annotations

from typing import Any

from packplay_protocol.cards import CardInstance
from packplay_protocol.errors import ErrorCode, RejectReason
from packplay_protocol.from_client import Act, Create, Follow, Hello, Join, Ping, Rematch, Resume, TakeSeat
from packplay_protocol.games import base_race as br
from packplay_protocol.games import day_night as dn
from packplay_protocol.games import mishra_factory as mf
from packplay_protocol.games import wedding_planner as wp
from packplay_protocol.games.common import RESULT_REASONS, ChooseCards, GameResult, LegalActions
from packplay_protocol.limits import DEFAULT_LIMITS
from packplay_protocol.patch import PatchOp
from packplay_protocol.rest import create_game
from packplay_protocol.to_client import (
    Accepted,
    Error,
    Events,
    GameOver,
    Pong,
    Rejected,
    Seated,
    TournamentRound,
    TournamentStandings,
    TournamentTable,
    Update,
    ViewMessage,
    Welcome,
)
from packplay_protocol.tournaments import PairedTable, StandingLine, TableResult, TableSeat
from packplay_protocol.version import SUBPROTOCOLS

# Real printings (set, number, name, rarity, colors, mana value, type line).
GALEDRIFTER = CardInstance(
    id="c3f09a1b2c4",
    set="MID",
    number="55",
    name="Galedrifter // Waildrifter",
    rarity="common",
    layout="transform",
    colors=("U",),
    mana_value=4,
    type_line="Creature — Hippogriff",
    types=("Creature",),
    subtypes=("Hippogriff",),
    power="3",
    toughness="2",
)
CATHARTIC_PYRE = CardInstance(
    id="c8d21e07a55",
    set="MID",
    number="133",
    name="Cathartic Pyre",
    rarity="uncommon",
    colors=("R",),
    mana_value=2,
    type_line="Instant",
    types=("Instant",),
)
SWEEP_THE_SKIES = CardInstance(
    id="c0b7e4419d2",
    set="MH2",
    number="70",
    name="Sweep the Skies",
    rarity="uncommon",
    colors=("U",),
    mana_value=2,
    type_line="Sorcery",
    types=("Sorcery",),
)
VILE_ENTOMBER = CardInstance(
    id="c5a9c03e6f1",
    set="MH2",
    number="108",
    name="Vile Entomber",
    rarity="uncommon",
    colors=("B",),
    mana_value=4,
    type_line="Creature — Zombie Warlock",
    types=("Creature",),
    subtypes=("Zombie", "Warlock"),
    power="2",
    toughness="2",
    foil=True,
)
PLAINS = CardInstance(
    id="c1e6f2a9b03",
    set="MH2",
    number="481",
    name="Plains",
    rarity="common",
    type_line="Basic Land — Plains",
    supertypes=("Basic",),
    types=("Land",),
    subtypes=("Plains",),
    basic_land=True,
)
CRUEL_WITNESS = CardInstance(
    id="c77aa2d01e9",
    set="VOW",
    number="55",
    name="Cruel Witness",
    rarity="common",
    colors=("U",),
    mana_value=4,
    type_line="Creature — Bird Horror",
    types=("Creature",),
    subtypes=("Bird", "Horror"),
    power="3",
    toughness="3",
)
UNDEAD_BUTLER = CardInstance(
    id="c2c4e8f1a60",
    set="VOW",
    number="133",
    name="Undead Butler",
    rarity="uncommon",
    colors=("B",),
    mana_value=2,
    type_line="Creature — Zombie",
    types=("Creature",),
    subtypes=("Zombie",),
    power="1",
    toughness="2",
)
CUNNING_GEYSERMAGE = CardInstance(
    id="c9f3b6d2e18",
    set="ZNR",
    number="55",
    name="Cunning Geysermage",
    rarity="common",
    colors=("U",),
    mana_value=3,
    type_line="Creature — Human Wizard",
    types=("Creature",),
    subtypes=("Human", "Wizard"),
    power="3",
    toughness="2",
)
AKOUM_HELLHOUND = CardInstance(
    id="c4d0a7b5c92",
    set="ZNR",
    number="133",
    name="Akoum Hellhound",
    rarity="common",
    colors=("R",),
    mana_value=1,
    type_line="Creature — Elemental Dog",
    types=("Creature",),
    subtypes=("Elemental", "Dog"),
    power="0",
    toughness="1",
)

TOKEN = "tok_3q9ZkV1rYw8xT2mB7nLpQa"
GAME_ID = "g7Hk2pQx"


def _view(
    game: str, version: int, seat: int | None, view: Any, cards: tuple[CardInstance, ...], **extra: Any
) -> ViewMessage:
    fields: dict[str, Any] = {"pending": (0,), "legal": LegalActions()} | extra
    table = {card.id: card for card in cards}
    return ViewMessage(
        game_id=GAME_ID, game=game, version=version, seat=seat, view=view, cards=table, **fields
    )


def _events(version: int, *events: Any) -> Events:
    return Events(game_id=GAME_ID, from_version=version - 1, to_version=version, events=events)


def client_examples() -> dict[str, Any]:
    """Example client messages by name."""
    return {
        "hello/player": Hello(client="packplay-js/0.1.0", token=TOKEN),
        "hello/spectator": Hello(client="packplay-py/0.1.0"),
        "join/player": Join(game_id=GAME_ID),
        "join/spectator_resuming": Join(game_id=GAME_ID, role="spectator", from_version=12),
        "act/day_night.place": Act(
            action_id="a-0001", version=3, action=dn.Place(cards=(GALEDRIFTER.id, CATHARTIC_PYRE.id))
        ),
        "act/day_night.declare": Act(action_id="a-0002", version=9, action=dn.Declare(color="U")),
        "act/mishra_factory.take_front": Act(
            action_id="a-0003", version=4, action=mf.Take(belt_position=1, group="B")
        ),
        "act/mishra_factory.take_back": Act(
            action_id="a-0004", version=6, action=mf.Take(belt_position=3, group="U", discard=PLAINS.id)
        ),
        "act/wedding_planner.draw": Act(action_id="a-0005", version=0, action=wp.Draw()),
        "act/wedding_planner.discard": Act(
            action_id="a-0006", version=1, action=wp.Discard(card=UNDEAD_BUTLER.id)
        ),
        "act/base_race.move": Act(
            action_id="a-0007", version=5, action=br.Move(card=CUNNING_GEYSERMAGE.id, row=3, col=1)
        ),
        "resume/after_gap": Resume(from_version=17),
        "ping/with_nonce": Ping(nonce="1717171717"),
        "follow/player": Follow(tournament_id=TOURNAMENT_ID, secret=f"{TOURNAMENT_ID}.{ADA}.q2Vt8kLm0Zx"),
        "follow/watcher": Follow(tournament_id=TOURNAMENT_ID),
        "create/against_house": Create(
            setup=create_game("day_night", 2, house=({"seat": 1, "bot": "strong"},), options={"day_seat": 0}),
            name="Ada",
        ),
        "create/waiting": Create(
            setup=create_game("mishra_factory", 3, private=True, options={"shuffle": False, "first_seat": 1}),
            name="Ada",
            seat=0,
        ),
        "take_seat/open": TakeSeat(game_id=GAME_ID, name="Grace"),
        "rematch/after_game_over": Rematch(),
    }


def server_examples() -> dict[str, Any]:
    """Example server messages by name."""
    return {
        "welcome/player": Welcome(
            server="packplay/0.1.0",
            protocol="packplay.v2.json",
            versions=tuple(SUBPROTOCOLS),
            limits=DEFAULT_LIMITS,
            game_id=GAME_ID,
            seat=1,
        ),
        "view/day_night": _view(
            "day_night", 3, 0, _day_night_view(), (GALEDRIFTER, CATHARTIC_PYRE), legal=_day_night_legal()
        ),
        "view/mishra_factory": _view(
            "mishra_factory", 4, 1, _mishra_view(), (SWEEP_THE_SKIES, VILE_ENTOMBER, PLAINS), pending=(1,)
        ),
        "view/wedding_planner": _view(
            "wedding_planner", 1, None, _wedding_view(), (UNDEAD_BUTLER, CRUEL_WITNESS), pending=(0,)
        ),
        "view/base_race_over": _view(
            "base_race",
            41,
            0,
            _base_race_view(),
            (AKOUM_HELLHOUND, CUNNING_GEYSERMAGE),
            pending=(),
            result=GameResult(
                winners=(0,),
                draw=False,
                scores=(1, 0),
                reason="land_revealed",
                reason_text=RESULT_REASONS["base_race"]["land_revealed"],
            ),
            seed=90210,
        ),
        "events/day_night": _events(
            4,
            dn.PairRevealed(slot=0, day=GALEDRIFTER.id, night=CATHARTIC_PYRE.id),
            dn.PairResolved(slot=0, day_color="U", night_color="R", outcome="night"),
        ),
        "events/mishra_factory": _events(
            5,
            mf.Taken(seat=1, belt_position=1, card=VILE_ENTOMBER.id, group="B", discarded=None, next_seat=0),
            mf.Refilled(belt_position=3, card=SWEEP_THE_SKIES.id, deck_count=17),
        ),
        "events/wedding_planner": _events(
            2, wp.Drew(seat=0, draw_count=30), wp.Discarded(seat=0, card=CRUEL_WITNESS.id, next_seat=2)
        ),
        "events/base_race": _events(
            6,
            br.Moved(seat=0, card=AKOUM_HELLHOUND.id, from_row=2, from_col=1, row=3, col=1),
            br.TurnStarted(seat=1, extra=False),
        ),
        "update/mishra_factory": Update(
            game_id=GAME_ID,
            version=5,
            events=(
                mf.Taken(
                    seat=1, belt_position=1, card=VILE_ENTOMBER.id, group="B", discarded=None, next_seat=0
                ),
            ),
            patch=(
                PatchOp(op="replace", path="/pending/0", value=0),
                PatchOp(op="replace", path="/view/turn", value=0),
                PatchOp(op="replace", path="/view/turn_number", value=5),
                PatchOp(op="remove", path="/view/belt/1"),
                PatchOp(op="add", path="/view/collections/1/groups/B", value=[VILE_ENTOMBER.id]),
                PatchOp(op="replace", path="/view/scores/1/group_points", value={"B": 1}),
                PatchOp(op="replace", path="/view/scores/1/total", value=1),
            ),
            action_id="a-0003",
        ),
        "update/patch_only": Update(
            game_id=GAME_ID,
            version=5,
            patch=(
                PatchOp(op="replace", path="/pending/0", value=0),
                PatchOp(op="replace", path="/view/turn", value=0),
            ),
        ),
        "accepted/plain": Accepted(action_id="a-0003", version=5),
        "rejected/stale_version": Rejected(
            action_id="a-0004",
            reason=RejectReason.STALE_VERSION,
            message="the action was computed on version 6; the game is at version 7",
            version=7,
        ),
        "rejected/illegal_action": Rejected(
            action_id="a-0004",
            reason=RejectReason.ILLEGAL_ACTION,
            rule="MF-2",
            message="a back card costs a collected card, and you have none",
            version=6,
        ),
        "game_over/base_race": GameOver(
            game_id=GAME_ID,
            result=GameResult(
                winners=(0,),
                draw=False,
                scores=(1, 0),
                reason="land_revealed",
                reason_text=RESULT_REASONS["base_race"]["land_revealed"],
            ),
            replay_url=f"/v2/games/{GAME_ID}/replay",
        ),
        "error/unknown_type": Error(code=ErrorCode.UNKNOWN_TYPE, message="unknown message type 'shout'"),
        "error/unsupported_version": Error(
            code=ErrorCode.UNSUPPORTED_VERSION,
            message="unsupported subprotocol (offered: packplay.v9.json)",
            fatal=True,
            spoken=tuple(SUBPROTOCOLS),
        ),
        "pong/with_nonce": Pong(nonce="1717171717"),
        "tournament_table/playing": TournamentTable(
            tournament_id=TOURNAMENT_ID,
            player_id=ADA,
            status="playing",
            round=2,
            table=1,
            game_id=GAME_ID,
            seat=0,
            token=TOKEN,
        ),
        "seated/started": Seated(game_id=GAME_ID, seat=0, token=TOKEN, started=True),
        "seated/waiting": Seated(game_id=GAME_ID, seat=0, token=TOKEN, started=False, invite="Zq4Rk8vB2nLx"),
        "tournament_table/waiting": TournamentTable(
            tournament_id=TOURNAMENT_ID, player_id=ADA, status="waiting", round=2
        ),
        "tournament_round/paired": TournamentRound(
            tournament_id=TOURNAMENT_ID,
            round=2,
            tables=(
                PairedTable(
                    table=1,
                    game_id=GAME_ID,
                    seats=(
                        TableSeat(seat=0, player_id=ADA, name="Ada"),
                        TableSeat(seat=1, player_id=GRACE, name="Grace"),
                    ),
                    result=TableResult(winners=(GRACE,), draw=False, scores=(3.0, 5.0)),
                ),
            ),
            byes=(TableSeat(seat=0, player_id=EDSGER, name="Edsger"),),
            complete=True,
        ),
        "tournament_standings/after_round_2": TournamentStandings(
            tournament_id=TOURNAMENT_ID,
            round=2,
            complete_rounds=2,
            final=False,
            lines=(
                _standing(1, GRACE, "Grace", 6, (2, 0, 0, 0), (1.0, 0.5, 1.0, 0.5)),
                _standing(2, EDSGER, "Edsger", 3, (0, 0, 1, 1), (0.5, 0.75, 0.5, 0.75)),
                _standing(3, ADA, "Ada", 3, (1, 0, 1, 0), (0.5, 0.5, 0.5, 0.5)),
            ),
        ),
    }


TOURNAMENT_ID = "swissMay24"
ADA, GRACE, EDSGER = "a1f0c2d9", "b7e31c04", "c05d9e6a"


def _standing(
    rank: int,
    player_id: str,
    name: str,
    points: int,
    record: tuple[int, int, int, int],
    shares: tuple[float, float, float, float],
) -> StandingLine:
    wins, draws, losses, byes = record
    match_win, opponents_match_win, game_win, opponents_game_win = shares
    return StandingLine(
        rank=rank,
        player_id=player_id,
        name=name,
        match_points=points,
        wins=wins,
        draws=draws,
        losses=losses,
        byes=byes,
        match_win=match_win,
        opponents_match_win=opponents_match_win,
        game_win=game_win,
        opponents_game_win=opponents_game_win,
    )


def _day_night_legal() -> LegalActions[Any]:
    hand = (GALEDRIFTER.id, CATHARTIC_PYRE.id)
    choose = ChooseCards(
        template={"type": "day_night.place"},
        field="cards",
        options=hand,
        min_count=2,
        max_count=2,
        ordered=True,
    )
    return LegalActions(choices=(choose,))


def _day_night_view() -> dn.View:
    mine = dn.SeatView(
        seat=0,
        role="day",
        hand_count=2,
        hand=(GALEDRIFTER.id, CATHARTIC_PYRE.id),
        row=(),
        pile=(),
        discarded=(),
        buried=(),
        buried_count=0,
        set_aside=(),
        placed=False,
        committed=False,
    )
    theirs = dn.SeatView(
        seat=1,
        role="night",
        hand_count=3,
        hand=None,
        row=(dn.SlotView(slot=0, card=None), dn.SlotView(slot=1, card=None)),
        pile=(),
        discarded=(),
        buried=None,
        buried_count=0,
        set_aside=(),
        placed=True,
        committed=False,
    )
    return dn.View(
        seat=0,
        role="day",
        day_seat=0,
        round=1,
        k=2,
        phase="place",
        slot=0,
        revealed=0,
        outcomes=(),
        seats=(mine, theirs),
        scores=(0, 0),
        over=False,
    )


def _mishra_view() -> mf.View:
    return mf.View(
        seat=1,
        players=2,
        first_seat=0,
        turn=1,
        turn_number=4,
        belt=(SWEEP_THE_SKIES.id, VILE_ENTOMBER.id, PLAINS.id),
        deck_count=18,
        collections=(
            mf.Collection(seat=0, groups={"U": (SWEEP_THE_SKIES.id,)}),
            mf.Collection(seat=1, groups={}),
        ),
        discarded=(),
        set_aside=(),
        scores=(
            mf.ScoreLine(seat=0, group_points={"U": 3}, groups_bonus=0, total=3),
            mf.ScoreLine(seat=1, group_points={}, groups_bonus=0, total=0),
        ),
        over=False,
    )


def _wedding_view() -> wp.View:
    def seat(n: int, cards: tuple[str, ...]) -> wp.SeatView:
        return wp.SeatView(
            seat=n, hand_count=4, cards=cards, has_theme=True, theme=None, turns_taken=0, score=None
        )

    return wp.View(
        viewer=None,
        players=3,
        phase="pickup",
        current_seat=0,
        first_seat=0,
        turns_per_player=4,
        turns_done=0,
        draw_count=31,
        discard=(UNDEAD_BUTLER.id,),
        set_aside=(),
        seats=(seat(0, ()), seat(1, ()), seat(2, (CRUEL_WITNESS.id,))),
    )


def _base_race_view() -> br.View:
    pieces = (
        br.Piece(id=AKOUM_HELLHOUND.id, owner=0, row=0, col=1, face_up=True, card=AKOUM_HELLHOUND.id),
        br.Piece(id=CUNNING_GEYSERMAGE.id, owner=1, row=4, col=2, face_up=True, card=CUNNING_GEYSERMAGE.id),
    )
    return br.View(
        seat=0,
        phase="over",
        laid_out=(True, True),
        hand=(),
        hand_counts=(0, 0),
        board=pieces,
        discard=(),
        set_aside=(),
        out_count=0,
        out=(),
        first_seat=1,
        turn=None,
        extra_turns=(),
        moves=40,
        move_limit=200,
        winners=(0,),
        end_reason="base camp found",
    )
