"""Battles: rules 1-4 and BR-1, BR-2, BR-4, BR-9, every kind of outcome."""

from __future__ import annotations

import pytest
from br_helpers import (
    ENGINE,
    artifact,
    at,
    basic,
    board_game,
    creature,
    events_of,
    make,
    move,
    planeswalker,
    spell,
)

from packplay.cards.model import CardInstance
from packplay.games.base import Transition
from packplay.games.base_race.battle import star_value, strength
from packplay.games.base_race.state import BaseRaceState
from packplay_protocol.games.base_race import Battle, GameOver, TurnStarted

ATTACKER, DEFENDER = (2, 1), (3, 1)


def fight(attacker: CardInstance, defender: CardInstance, **options: object) -> Transition[BaseRaceState]:
    """Seat 0 attacks with ``attacker`` from (2,1) the seat-1 ``defender`` on (3,1)."""
    state = board_game({ATTACKER: attacker}, {DEFENDER: defender}, **options)
    return move(state, ATTACKER, DEFENDER)


def battle(transition: Transition[BaseRaceState]) -> Battle:
    (event,) = events_of(transition, Battle)
    return event  # type: ignore[no-any-return]


# Rule 1 and BR-9: land battles


def test_rule1_attacking_a_base_camp_wins() -> None:
    camp = basic()
    done = fight(creature("1"), camp)
    result = ENGINE.result(done.state)
    assert result is not None and result.winners == (0,) and result.scores == (1.0, 0.0)
    assert result.reason == "land_revealed" and battle(done).kind == "land"
    assert events_of(done, GameOver) == [GameOver(winners=(0,), draw=False, reason="land_revealed")]


def test_rule1_a_land_that_attacks_a_nonland_loses() -> None:
    camp = basic()
    done = fight(camp, creature("9"))
    result = ENGINE.result(done.state)
    assert result is not None and result.winners == (1,) and not result.draw


def test_rule1_land_attacking_land_wins_for_the_attacker() -> None:
    done = fight(basic("Forest"), basic("Island"))
    result = ENGINE.result(done.state)
    assert result is not None and result.winners == (0,) and result.reason == "land_attacked_land"
    assert battle(done).kind == "land_vs_land"


@pytest.mark.parametrize("other", [lambda: spell("Instant"), artifact, lambda: creature("5")])
def test_br9_land_battles_end_at_once(other: object) -> None:
    """BR-9: nothing moves or is discarded after a land battle, whatever the other card."""
    other_card: CardInstance = other()  # type: ignore[operator]
    camp = basic()
    done = fight(other_card, camp)
    assert at(done.state, *ATTACKER) == other_card.id and at(done.state, *DEFENDER) == camp.id
    assert done.state.discard == [] and done.state.extra_turns == []
    event = battle(done)
    assert event.discarded == () and event.extra_turn is None and not event.moved
    assert ENGINE.pending(done.state) == () and not events_of(done, TurnStarted)


def test_br9_defending_land_loses_even_against_a_spell() -> None:
    done = fight(basic(), spell("Sorcery"))
    result = ENGINE.result(done.state)
    assert result is not None and result.winners == (1,)


# Rule 2: instants, sorceries, enchantments


@pytest.mark.parametrize("kind", ["Instant", "Sorcery", "Enchantment"])
@pytest.mark.parametrize("spell_attacks", [True, False])
def test_rule2_a_spell_discards_both_cards(kind: str, spell_attacks: bool) -> None:
    the_spell, other = spell(kind), creature("9", legendary=True)
    done = fight(the_spell, other) if spell_attacks else fight(other, the_spell)
    assert at(done.state, *ATTACKER) is None and at(done.state, *DEFENDER) is None
    assert set(done.state.discard) == {the_spell.id, other.id}
    event = battle(done)
    assert event.kind == "spell" and not event.moved and event.extra_turn is None
    assert ENGINE.pending(done.state) == (1,)


def test_rule2_two_spells_are_both_discarded() -> None:
    done = fight(spell("Instant"), spell("Sorcery"))
    assert len(done.state.discard) == 2


def test_rule2_planeswalker_meeting_a_spell_is_discarded() -> None:
    done = fight(planeswalker("9"), spell("Enchantment"))
    assert len(done.state.discard) == 2 and battle(done).kind == "spell"


@pytest.mark.parametrize("artifact_attacks", [True, False])
def test_rule2_artifact_extra_turn_still_happens(artifact_attacks: bool) -> None:
    """Rule 2: "other effects still happen": the artifact's owner takes an extra turn."""
    thing, the_spell = artifact(), spell("Instant")
    done = fight(thing, the_spell) if artifact_attacks else fight(the_spell, thing)
    owner = 0 if artifact_attacks else 1
    assert len(done.state.discard) == 2
    assert battle(done).extra_turn == owner and battle(done).kind == "spell"
    assert done.state.turn == owner


def test_rule2_artifact_enchantment_discards_both_and_gives_an_extra_turn() -> None:
    done = fight(make(("Artifact", "Enchantment")), creature("3"))
    assert len(done.state.discard) == 2 and battle(done).extra_turn == 0


# Rule 3: artifacts


def test_rule3_attacking_artifact_is_discarded_and_its_owner_moves_again() -> None:
    thing, guard = artifact(), creature("1")
    done = fight(thing, guard)
    assert done.state.discard == [thing.id]
    assert at(done.state, *DEFENDER) == guard.id and at(done.state, *ATTACKER) is None
    assert guard.id in done.state.revealed
    event = battle(done)
    assert event.kind == "artifact" and event.extra_turn == 0 and not event.moved
    assert ENGINE.pending(done.state) == (0,)
    assert TurnStarted(seat=0, extra=True) in events_of(done, TurnStarted)


def test_rule3_defending_artifact_gives_its_owner_the_extra_turn_and_br2_attacker_moves_in() -> None:
    hunter, thing = creature("1"), artifact()
    done = fight(hunter, thing)
    assert done.state.discard == [thing.id]
    assert at(done.state, *DEFENDER) == hunter.id and at(done.state, *ATTACKER) is None
    event = battle(done)
    assert event.extra_turn == 1 and event.moved
    assert ENGINE.pending(done.state) == (1,)


def test_rule3_two_artifacts_only_the_attacker_gets_the_extra_turn() -> None:
    mine, theirs = artifact(), artifact()
    done = fight(mine, theirs)
    assert set(done.state.discard) == {mine.id, theirs.id}
    assert battle(done).extra_turn == 0 and done.state.turn == 0 and done.state.extra_turns == []


def test_rule3_artifact_against_planeswalker() -> None:
    walker = planeswalker("1")
    done = fight(walker, artifact())
    assert at(done.state, *DEFENDER) == walker.id and battle(done).extra_turn == 1


# Rule 4 and BR-1, BR-4: creatures and planeswalkers


@pytest.mark.parametrize(
    ("attacker", "defender", "attacker_wins"),
    [
        (creature("3"), creature("2"), True),
        (creature("2"), creature("3"), False),
        (creature("2"), creature("2"), True),
        (creature("1", legendary=True), creature("9"), True),
        (creature("9"), creature("1", legendary=True), False),
        (creature("2", legendary=True), creature("3", legendary=True), False),
        (creature("3", legendary=True), creature("3", legendary=True), True),
        (planeswalker("1"), creature("9"), True),
        (creature("9"), planeswalker("1"), False),
        (planeswalker("4"), creature("5", legendary=True), False),
        (creature("4", legendary=True), planeswalker("4"), True),
        (planeswalker("3"), planeswalker("3"), True),
        (planeswalker("2"), planeswalker("3"), False),
    ],
    ids=[
        "higher-toughness-attacker",
        "higher-toughness-defender",
        "tie-attacker",
        "legendary-attacker-beats-bigger",
        "legendary-defender-beats-bigger",
        "legendary-vs-legendary-toughness",
        "legendary-tie-attacker",
        "planeswalker-beats-creature",
        "creature-loses-to-planeswalker",
        "loyalty-vs-legendary-toughness",
        "legendary-toughness-vs-loyalty-tie",
        "planeswalker-tie-attacker",
        "planeswalker-loyalty",
    ],
)
def test_rule4_creature_battles(attacker: CardInstance, defender: CardInstance, attacker_wins: bool) -> None:
    done = fight(attacker, defender)
    loser, winner = (defender, attacker) if attacker_wins else (attacker, defender)
    assert done.state.discard == [loser.id]
    assert winner.id in done.state.revealed and loser.id not in done.state.revealed
    event = battle(done)
    assert event.kind == "creature" and event.discarded == (loser.id,) and event.extra_turn is None
    # BR-2: the attacker moves in only when it won.
    assert event.moved is attacker_wins
    assert at(done.state, *DEFENDER) == winner.id
    assert at(done.state, *ATTACKER) is None
    assert ENGINE.pending(done.state) == (1,)


@pytest.mark.parametrize("types", [("Artifact", "Creature"), ("Enchantment", "Creature")])
def test_br1_creature_first(types: tuple[str, ...]) -> None:
    """BR-1: an artifact or enchantment creature battles as a creature (no discard-all, no extra turn)."""
    hybrid = make(types, toughness="1")
    done = fight(creature("2"), hybrid)
    event = battle(done)
    assert event.kind == "creature" and event.extra_turn is None
    assert done.state.discard == [hybrid.id]


@pytest.mark.parametrize(
    ("printed", "value"), [("*", 0), ("1+*", 1), ("*+1", 1), ("7-*", 7), ("4", 4), (None, 0)]
)
def test_br4_star_values(printed: str | None, value: int) -> None:
    assert star_value(printed) == value


def test_br4_star_toughness_in_battle() -> None:
    """BR-4: a ``*`` toughness counts 0, so a 0-toughness defender ties and the attacker wins."""
    starred, plain = make(("Creature",), toughness="*"), make(("Creature",), toughness="0")
    done = fight(plain, starred)
    assert done.state.discard == [starred.id]
    done = fight(starred, creature("1"))
    assert done.state.discard[0] == starred.id
    assert strength(make(("Creature",), toughness="1+*")) == (0, 1)


def test_battle_reveals_both_cards_to_everyone() -> None:
    attacker, defender = creature("3"), creature("1")
    done = fight(attacker, defender)
    event = battle(done)
    assert event.attacker == attacker.id and event.defender == defender.id
    assert all(e.to is None for e in done.events)
    spectator = {p.id: p for p in ENGINE.view(done.state, None).board}
    assert spectator[attacker.id].face_up and spectator[attacker.id].card == attacker.id
    assert ENGINE.view(done.state, None).discard == (defender.id,)


@pytest.mark.parametrize(
    ("attacker", "defender"),
    [
        (creature("3"), creature("1")),
        (spell(), creature("1")),
        (artifact(), artifact()),
        (creature("1"), basic()),
    ],
    ids=["creature", "spell", "artifacts", "land"],
)
def test_cards_a_battle_names_are_in_every_card_table_right_after_it(
    attacker: CardInstance, defender: CardInstance
) -> None:
    """A client resolves the ids of the battle event through the card table of the next state."""
    done = fight(attacker, defender)
    for audience in (0, 1, None):
        known = ENGINE.known_cards(done.state, audience)
        assert {attacker.id, defender.id} <= set(known)


def test_survivor_stays_face_up_through_later_moves() -> None:
    """A revealed card stays face up from then on."""
    defender = creature("5")
    state = fight(creature("1"), defender).state
    state = move(state, DEFENDER, (2, 1)).state
    assert defender.id in state.revealed
    piece = next(p for p in ENGINE.view(state, 0).board if p.id == defender.id)
    assert piece.face_up and piece.card == defender.id and (piece.row, piece.col) == (2, 1)
    assert defender.id in ENGINE.known_cards(state, 0)
