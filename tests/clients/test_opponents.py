"""The SDK's benchmark opponents: legal to the end of every game, better than random, and
their decisions in views built by hand (each pinned to the printed rule it follows)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from packplay.arena import arena
from packplay.cards.catalog import load_catalog
from packplay.games.registry import GAME_NAMES, get_game
from packplay_clients.opponents import OPPONENTS, GreedyOpponent, ThoughtfulOpponent
from packplay_clients.opponents import base_race as br
from packplay_clients.opponents import day_night as dn
from packplay_clients.opponents import mishra_factory as mf
from packplay_clients.opponents import wedding_planner as wp
from packplay_protocol.cards import CardInstance
from packplay_protocol.games import base_race, day_night, mishra_factory, wedding_planner
from packplay_protocol.games.common import ChooseCards, LegalActions
from packplay_protocol.to_client import ViewMessage

CATALOG = load_catalog()
PLAYER_COUNTS = [
    (name, players)
    for name in GAME_NAMES
    for players in range(get_game(name).min_players, get_game(name).max_players + 1)
]
STYLES = ["greedy", "thoughtful"]


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize(("game", "players"), PLAYER_COUNTS)
def test_an_opponent_plays_legal_actions_to_the_end(game: str, players: int, style: str) -> None:
    """The arena raises ArenaError on any refused action; every game must end."""
    standings = arena(game, [style, "random"], 4 * players, players, seed=21, catalog=CATALOG)
    assert standings.games == 4 * players
    assert standings.tallies[style].decisions > 0


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("game", ["day_night", "mishra_factory", "wedding_planner", "base_race"])
def test_an_opponent_beats_random_clearly(game: str, style: str) -> None:
    standings = arena(game, [style, "random"], 40, 2, seed=5, catalog=CATALOG)
    mine, theirs = standings.tallies[style], standings.tallies["random"]
    low, _ = mine.decisive_interval
    assert mine.wins >= 3 * theirs.wins and low > 0.6


def test_the_thoughtful_opponent_leads_random_at_a_full_table() -> None:
    standings = arena("mishra_factory", ["thoughtful", "random"], 8, 4, seed=3, catalog=CATALOG)
    assert standings.tallies["thoughtful"].win_rate > 0.6


def test_every_game_has_both_styles_and_an_unknown_game_gets_a_legal_action() -> None:
    assert set(OPPONENTS) == {"day_night", "mishra_factory", "wedding_planner", "base_race"}
    assert all(set(styles) == set(STYLES) for styles in OPPONENTS.values())
    view = message(
        "no_such_game", wp_view(hand=("a",), theme=None), LegalActions(actions=(wedding_planner.Draw(),)), []
    )
    assert GreedyOpponent(1).choose(view) == wedding_planner.Draw()


# Views built by hand.


def card(card_id: str, *types: str, colors: str = "", mv: float = 0, **facts: Any) -> CardInstance:
    return CardInstance(
        set="TST",
        number="1",
        name=card_id,
        rarity="common",
        id=card_id,
        types=types or ("Creature",),
        colors=tuple(colors),  # type: ignore[arg-type]
        mana_value=mv,
        **facts,
    )


def message(
    game: str, view: Any, legal: LegalActions[Any], cards: list[CardInstance], seat: int = 0
) -> ViewMessage:
    return ViewMessage(
        game_id="g1",
        game=game,
        version=1,
        seat=seat,
        pending=(seat,),
        legal=legal,
        view=view,
        cards={c.id: c for c in cards},
    )


def both(view: ViewMessage) -> tuple[Any, Any]:
    return GreedyOpponent(1).choose(view), ThoughtfulOpponent(1).choose(view)


# Day vs Night


def dn_seat(
    seat: int, role: str, hand: tuple[str, ...] | None, row: tuple[day_night.SlotView, ...] = ()
) -> Any:
    return day_night.SeatView(
        seat=seat,
        role=role,  # type: ignore[arg-type]
        hand_count=len(hand or ()) or 5,
        hand=hand,
        row=row,
        pile=(),
        discarded=(),
        buried=() if hand is not None else None,
        buried_count=0,
        set_aside=(),
        placed=bool(row),
        committed=False,
    )


def dn_view(phase: str, mine: Any, theirs: Any, slot: int = 0) -> day_night.View:
    return day_night.View(
        seat=0,
        role=mine.role,
        day_seat=0 if mine.role == "day" else 1,
        round=1,
        k=3,
        phase=phase,  # type: ignore[arg-type]
        slot=slot,
        revealed=slot + 1 if phase != "place" else 0,
        outcomes=(),
        seats=(mine, theirs),
        scores=(0, 0),
        over=False,
    )


def test_day_vs_night_follows_the_printed_color_table() -> None:
    assert dn.outcome("W", "B") == "tie" and dn.outcome("B", "W") == "tie"
    assert dn.outcome("W", "R") == "day" and dn.outcome("B", "R") == "night"
    assert dn.outcome("R", "G") == "day" and dn.outcome("G", "R") == "night"
    assert dn.outcome("U", "R") == "day" and dn.outcome("G", "U") == "day"
    assert (
        dn.outcome("U", "U") == "tie" and dn.outcome(None, "U") == "night" and dn.outcome(None, None) == "tie"
    )


def test_day_places_white_and_never_black() -> None:
    """White always wins for Day, black always loses: a row of three has the white and not the black."""
    cards = [card("w", colors="W"), card("b", colors="B"), card("r", colors="R"), card("g", colors="G")]
    cards.append(card("b2", colors="B"))
    hand = tuple(c.id for c in cards)
    choice = ChooseCards(
        template={"type": "day_night.place"},
        field="cards",
        options=hand,
        min_count=3,
        max_count=3,
        ordered=True,
    )
    view = message(
        "day_night",
        dn_view("place", dn_seat(0, "day", hand), dn_seat(1, "night", None)),
        LegalActions(choices=(choice,)),
        cards,
    )
    for row in both(view):
        assert "w" in row.cards and "b" not in row.cards and "b2" not in row.cards


def test_a_replacement_wins_the_pair_and_spares_the_white_card() -> None:
    """DN-2: Day's land meets Night's green card; red beats green, and so does white, which
    the thoughtful opponent keeps for a later pair."""
    cards = [card("land", "Land"), card("them", colors="G"), card("w", colors="W"), card("r", colors="R")]
    cards.append(card("u", colors="U"))
    mine = dn_seat(0, "day", ("r", "u", "w"), (day_night.SlotView(slot=0, card="land"),))
    theirs = dn_seat(1, "night", None, (day_night.SlotView(slot=0, card="them"),))
    legal = LegalActions(actions=tuple(day_night.Replace(card=c) for c in ("r", "u", "w")))
    greedy, thoughtful = both(message("day_night", dn_view("replace", mine, theirs), legal, cards))
    assert greedy.card in {"r", "w"} and thoughtful.card == "r"


def test_night_declares_the_color_that_beats_the_shown_card() -> None:
    """DN-4: a white-black card of Night's against Day's red: black wins, white loses."""
    cards = [card("wb", colors="WB"), card("them", colors="R")]
    mine = dn_seat(0, "night", ("x",), (day_night.SlotView(slot=0, card="wb"),))
    theirs = dn_seat(1, "day", None, (day_night.SlotView(slot=0, card="them", color="R"),))
    legal = LegalActions(actions=(day_night.Declare(color="W"), day_night.Declare(color="B")))
    for action in both(message("day_night", dn_view("declare", mine, theirs), legal, cards)):
        assert action == day_night.Declare(color="B")


# Mishra's Factory


def mf_view(
    belt: tuple[str, ...], mine: dict[str, tuple[str, ...]], theirs: dict[str, tuple[str, ...]]
) -> Any:
    groups = [{g: (*c.get(g, ()),) for g in mishra_factory.GROUPS} for c in (mine, theirs)]
    return mishra_factory.View(
        seat=0,
        players=2,
        first_seat=0,
        turn=0,
        turn_number=5,
        belt=belt,
        deck_count=10,
        collections=tuple(mishra_factory.Collection(seat=s, groups=g) for s, g in enumerate(groups)),
        discarded=(),
        set_aside=(),
        scores=(),
        over=False,
    )


def test_mishra_scores_ranks_ties_and_groups_as_printed() -> None:
    """MF-5: equal size and top mana value share the rank at half the points, rounded up;
    MF-6: four groups bring 2 points."""
    w1, w2, u1 = card("w1", colors="W", mv=3), card("w2", colors="W", mv=3), card("u1", colors="U", mv=1)
    empty: mf.Collection = {g: [] for g in mishra_factory.GROUPS}
    a = {**empty, "W": [w1]}
    b = {**empty, "W": [w2], "U": [u1]}
    assert mf.points([a, b]) == [2, 2 + 3]
    four = {**empty, "W": [w1], "U": [u1], "B": [card("b", colors="B")], "C": [card("c", "Artifact")]}
    assert mf.points([four]) == [4 * 3 + 2]
    higher = {**empty, "W": [card("w9", colors="W", mv=9)]}
    assert mf.points([a, higher]) == [2, 3]


def test_mishra_takes_the_card_that_wins_a_color() -> None:
    """Both seats hold one white card, theirs of higher mana value: a second white card wins
    the color (3 points instead of 2); a third blue card adds nothing to a group already first."""
    cards = [card("w1", colors="W", mv=1), card("w2", colors="W", mv=5), card("wb", colors="W", mv=2)]
    cards += [card(f"u{i}", colors="U") for i in range(3)] + [card("x1", colors="B"), card("x2", colors="B")]
    view = mf_view(("wb", "u2", "x1", "x2"), {"W": ("w1",), "U": ("u0", "u1")}, {"W": ("w2",)})
    legal = LegalActions(
        actions=(
            mishra_factory.Take(belt_position=0, group="W"),
            mishra_factory.Take(belt_position=1, group="U"),
        )
    )
    for action in both(message("mishra_factory", view, legal, cards)):
        assert action.belt_position == 0


def test_the_thoughtful_mishra_player_denies_the_card_that_would_help_the_next_player_most() -> None:
    """The green card brings greedy 2 points (second in green). But the red card left on the
    belt would bring the other seat a fifth group and second place in red (4 points, MF-5,
    MF-6); taking it costs the thoughtful player nothing (red stays its largest group)."""
    cards = [card("r1", colors="R"), card("r2", colors="R"), card("rY", colors="R"), card("gX", colors="G")]
    cards += [card(i, colors=i[0].upper()) for i in ("w1", "u1", "b1", "g1", "g2", "wa", "wb")]
    theirs = {"W": ("w1",), "U": ("u1",), "B": ("b1",), "G": ("g1", "g2")}
    view = mf_view(("gX", "rY", "wa", "wb"), {"R": ("r1", "r2")}, theirs)
    legal = LegalActions(
        actions=(
            mishra_factory.Take(belt_position=0, group="G"),
            mishra_factory.Take(belt_position=1, group="R"),
        )
    )
    greedy, thoughtful = both(message("mishra_factory", view, legal, cards))
    assert greedy.belt_position == 0 and thoughtful.belt_position == 1


def test_mishra_pays_for_a_back_card_with_the_card_it_needs_least() -> None:
    """A third red card is spare (red stays the largest group); the lone blue card earns
    second place in blue."""
    cards = [card(f"r{i}", colors="R") for i in range(3)] + [card("u", colors="U"), card("g", colors="G")]
    cards += [
        card("tu1", colors="U"),
        card("tu2", colors="U"),
        card("f0", colors="B"),
        card("f1", colors="B"),
    ]
    view = mf_view(("f0", "f1", "g", "u"), {"R": ("r0", "r1", "r2"), "U": ("u",)}, {"U": ("tu1", "tu2")})
    choice = ChooseCards(
        template={"type": "mishra_factory.take", "belt_position": 2, "group": "G"},
        field="discard",
        options=("r0", "r1", "r2", "u"),
        min_count=1,
        max_count=1,
        single=True,
    )
    for action in both(message("mishra_factory", view, LegalActions(choices=(choice,)), cards)):
        assert action.discard in {"r0", "r1", "r2"}


# Vampire Wedding Planner


def wp_view(
    hand: tuple[str, ...], theme: str | None, discard: tuple[str, ...] = (), phase: str = "discard"
) -> Any:
    seats = (
        wedding_planner.SeatView(
            seat=0, hand_count=len(hand), cards=hand, has_theme=True, theme=theme, turns_taken=1, score=None
        ),
        wedding_planner.SeatView(
            seat=1, hand_count=4, cards=(), has_theme=True, theme=None, turns_taken=1, score=None
        ),
    )
    return wedding_planner.View(
        viewer=0,
        players=2,
        phase=phase,  # type: ignore[arg-type]
        current_seat=0,
        first_seat=0,
        turns_per_player=4,
        turns_done=2,
        draw_count=10,
        discard=discard,
        set_aside=(),
        seats=seats,
    )


THEME = card("theme", colors="R", mv=3)


def test_wedding_scores_a_hand_as_printed() -> None:
    """WP-1, WP-2: color or mana value +1, artifact or foil +1, one land +1, the rest -1."""
    hand = [
        card("red", colors="R", mv=1),
        card("three", colors="U", mv=3),
        card("shiny", "Artifact", mv=2),
        card("foilred", colors="R", mv=5, foil=True),
        card("land", "Land"),
        card("land2", "Land"),
        card("junk", colors="G", mv=5),
    ]
    assert wp.score(hand, THEME) == 1 + 1 + 1 + 2 + 1 - 1 - 1


def test_wedding_discards_the_card_that_scores_on_no_line() -> None:
    cards = [
        THEME,
        card("red", colors="R", mv=1),
        card("three", colors="U", mv=3),
        card("shiny", "Artifact", mv=2),
    ]
    cards += [card("junk", colors="G", mv=5), card("land", "Land")]
    hand = ("junk", "land", "red", "shiny", "three")
    legal = LegalActions(actions=tuple(wedding_planner.Discard(card=c) for c in hand))
    for action in both(message("wedding_planner", wp_view(hand, "theme"), legal, cards)):
        assert action == wedding_planner.Discard(card="junk")


def test_wedding_takes_the_discard_when_it_scores() -> None:
    """WP-3: taking the red card brings the green one above it too; the green one is then
    discarded, and the hand gains a point. Every card seen so far scores nothing, so a
    draw looks worth less."""
    cards = [THEME, card("g1", colors="G", mv=5), card("g2", colors="G", mv=6), card("g3", colors="G", mv=7)]
    cards += [card("g4", colors="G", mv=1), card("red", colors="R", mv=1), card("top", colors="G", mv=2)]
    cards += [card("b1", colors="B", mv=6), card("b2", colors="B", mv=7)]
    hand = ("g1", "g2", "g3", "g4")
    legal = LegalActions(
        actions=(wedding_planner.Draw(), *(wedding_planner.Take(card=c) for c in ("b1", "b2", "red", "top")))
    )
    view = wp_view(hand, "theme", discard=("b1", "b2", "red", "top"), phase="pickup")
    for action in both(message("wedding_planner", view, legal, cards)):
        assert action == wedding_planner.Take(card="red")


# Base Race


def piece(card_id: str, owner: int, row: int, col: int, known: bool = True, face_up: bool = False) -> Any:
    return base_race.Piece(
        id=card_id, owner=owner, row=row, col=col, face_up=face_up, card=card_id if known else None
    )


def br_view(pieces: list[Any], phase: str = "play", hand: tuple[str, ...] = ()) -> Any:
    return base_race.View(
        seat=0,
        phase=phase,  # type: ignore[arg-type]
        laid_out=(phase != "layout", phase != "layout"),
        hand=hand,
        hand_counts=(len(hand), 12),
        board=tuple(pieces),
        discard=(),
        set_aside=(),
        out_count=0,
        out=(),
        first_seat=0,
        turn=0,
        extra_turns=(),
        moves=10,
        move_limit=200,
        winners=(),
        end_reason=None,
    )


def moves_of(pieces: list[Any], seat: int) -> tuple[Any, ...]:
    taken = {(p.row, p.col): p for p in pieces}
    moves = []
    for p in pieces:
        if p.owner != seat:
            continue
        for row, col in br.neighbours((p.row, p.col)):
            other = taken.get((row, col))
            if other is None or other.owner != seat:
                moves.append(base_race.Move(card=p.id, row=row, col=col))
    return tuple(moves)


def test_base_race_judges_battles_as_printed() -> None:
    land, bear = card("land", "Land"), card("bear", toughness="2")
    big, legend = card("big", toughness="5"), card("legend", toughness="1", supertypes=("Legendary",))
    spell, trinket = card("spell", "Instant"), card("trinket", "Artifact")
    assert (
        br.clash(land, land).game == 1 and br.clash(land, bear).game == -1 and br.clash(bear, land).game == 1
    )
    assert br.clash(bear, spell) == br.Clash(0, True, True)
    assert br.clash(bear, trinket) == br.Clash(0, False, True, -1)
    assert br.clash(trinket, spell) == br.Clash(0, True, True, 1)
    assert br.clash(bear, bear) == br.Clash(0, False, True)  # the attacker wins ties
    assert br.clash(legend, big) == br.Clash(0, False, True) and br.clash(bear, big) == br.Clash(
        0, True, False
    )
    assert br.number("1+*") == 1 and br.number("*") == 0


def test_base_race_lays_the_camp_in_the_back_row() -> None:
    cards = [card("camp", "Land", basic_land=True)] + [card(f"c{i}", toughness=str(i)) for i in range(8)]
    cards += [card(f"s{i}", "Sorcery") for i in range(3)]
    hand = tuple(c.id for c in cards)
    choice = ChooseCards(
        template={"type": "base_race.layout"},
        field="cards",
        options=hand,
        min_count=12,
        max_count=12,
        ordered=True,
    )
    view = message("base_race", br_view([], "layout", hand), LegalActions(choices=(choice,)), cards)
    greedy, thoughtful = both(view)
    assert greedy.cards.index("camp") < 4  # seat 0: indices 0-3 are row 0, the back row
    spot = thoughtful.cards.index("camp")
    assert spot in (0, 3)  # a back corner
    guards = {thoughtful.cards[1 if spot == 0 else 2], thoughtful.cards[spot + 4]}
    assert guards == {"c7", "c6"}  # the two toughest creatures beside it


def test_base_race_attacks_the_piece_beside_its_camp_and_avoids_a_lost_fight() -> None:
    """Their revealed 2-toughness creature stands next to the camp: the 5-toughness one
    beside it takes it; the 1-toughness one stays away from their revealed 6."""
    cards = [card("camp", "Land"), card("big", toughness="5"), card("weak", toughness="1")]
    cards += [card("raider", toughness="2"), card("giant", toughness="6"), card("filler", toughness="3")]
    pieces = [
        piece("camp", 0, 0, 0),
        piece("big", 0, 1, 1),
        piece("weak", 0, 2, 3),
        piece("raider", 1, 1, 0, face_up=True),
        piece("giant", 1, 3, 3, face_up=True),
        piece("hidden", 1, 4, 0, known=False),
    ]
    view = message("base_race", br_view(pieces), LegalActions(actions=moves_of(pieces, 0)), cards)
    greedy, thoughtful = both(view)
    assert thoughtful == base_race.Move(card="big", row=1, col=0)
    assert greedy != base_race.Move(card="weak", row=3, col=3)


def test_decisions_are_reproducible_from_the_seed() -> None:
    rng_a, rng_b = random.Random(4), random.Random(4)
    cards = [card(f"c{i}", colors="R") for i in range(4)]
    legal = LegalActions(actions=tuple(wedding_planner.Discard(card=c.id) for c in cards))
    view = message("wedding_planner", wp_view(tuple(c.id for c in cards), None), legal, cards)
    assert [wp.greedy(view, rng_a) for _ in range(5)] == [wp.greedy(view, rng_b) for _ in range(5)]
