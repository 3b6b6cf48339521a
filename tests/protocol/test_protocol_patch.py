"""JSON Patch between views: applying the diff of two documents to the first gives the second."""

from __future__ import annotations

import copy
from typing import Annotated, Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from packplay_protocol.cards import CardId
from packplay_protocol.diff import diff
from packplay_protocol.patch import PatchError, PatchOp, apply, escape, unescape

# Python calls True, 1 and 1.0 (and 0.0 and -0.0) equal, JSON does not; the diff sees such a
# change only where it is not hidden inside an otherwise equal container, which is enough
# because the protocol never changes a field's JSON type. So each document holds one family
# of numbers.
NUMBERS = (st.booleans(), st.integers(-5, 5), st.floats(-2, 2, allow_nan=False).map(lambda x: x + 0.0))
KEYS = st.text(alphabet="ab~/c", min_size=0, max_size=3)


def documents(numbers: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.recursive(
        st.one_of(st.none(), numbers, st.text(max_size=3)),
        lambda inner: st.lists(inner, max_size=5) | st.dictionaries(KEYS, inner, max_size=4),
        max_leaves=25,
    )


# One strategy per number family, built once (a flatmap would build one per example).
PAIRS = st.one_of(*(st.tuples(family, family) for family in map(documents, NUMBERS)))


def as_json(value: Any) -> bytes:
    """The JSON text of a value: tells true from 1 and 1 from 1.0, as the wire does."""
    return msgspec.json.encode(value, order="sorted")


@settings(max_examples=400)
@given(PAIRS)
def test_the_diff_of_two_documents_turns_the_first_into_the_second(pair: tuple[Any, Any]) -> None:
    old, new = pair
    patched = apply(copy.deepcopy(old), diff(old, new))
    assert as_json(patched) == as_json(new)


@settings(max_examples=200)
@given(st.lists(st.integers(0, 9), max_size=12), st.data())
def test_removing_or_inserting_objects_costs_one_operation_each_or_one_replace(
    numbers: list[int], data: Any
) -> None:
    items = [{"slot": n} for n in numbers]
    kept = [x for x in items if data.draw(st.booleans())]
    moved = len(items) - len(kept)
    for old, new, op in (({"row": items}, {"row": kept}, "remove"), ({"row": kept}, {"row": items}, "add")):
        ops = diff(old, new)
        if moved <= 2:
            assert [o.op for o in ops] == [op] * moved
        else:
            assert [o.op for o in ops] in ([op] * moved, ["replace"])
        assert as_json(apply(copy.deepcopy(old), ops)) == as_json(new)


def test_an_array_mostly_changed_is_replaced_whole() -> None:
    row = [{"slot": n} for n in range(6)]
    assert diff({"row": row}, {"row": []}) == [PatchOp(op="replace", path="/row", value=[])]
    assert diff({"row": []}, {"row": row}) == [PatchOp(op="replace", path="/row", value=row)]
    assert diff({"row": row[:5]}, {"row": row}) == [PatchOp(op="add", path="/row/5", value=row[5])]


def test_a_changed_short_list_of_ids_is_replaced_in_one_operation() -> None:
    assert diff({"hand": ["c1", "c2", "c3"]}, {"hand": ["c1", "c3"]}) == [
        PatchOp(op="replace", path="/hand", value=["c1", "c3"])
    ]
    assert diff({"hand": ["c1"]}, {"hand": ["c1"]}) == []


def test_one_id_leaving_a_long_list_is_one_removal() -> None:
    hand = [f"c{n}" for n in range(12)]
    assert diff({"hand": hand}, {"hand": hand[:4] + hand[5:]}) == [PatchOp(op="remove", path="/hand/4")]
    assert diff({"hand": hand}, {"hand": hand[:6]}) == [PatchOp(op="replace", path="/hand", value=hand[:6])]


def test_tuples_are_arrays_and_are_diffed_element_by_element() -> None:
    assert diff({"a": ({"n": 1}, {"n": 2})}, {"a": ({"n": 1},)}) == [PatchOp(op="remove", path="/a/1")]
    assert diff({"a": (1, 2)}, {"a": [1, 2]}) == []


def test_equal_documents_need_no_operation() -> None:
    document = {"view": {"seats": [{"hand": ["c1", "c2"]}]}, "cards": {"c1": {"name": "Plains"}}}
    assert diff(document, copy.deepcopy(document)) == []


def test_a_change_of_json_type_is_seen_even_when_python_calls_the_values_equal() -> None:
    assert diff({"a": 1}, {"a": True}) == [PatchOp(op="replace", path="/a", value=True)]
    assert diff([1], [1.0]) == [PatchOp(op="replace", path="", value=[1.0])]


def test_paths_escape_tilde_and_slash() -> None:
    ops = diff({}, {"a/b~c": 1})
    assert ops == [PatchOp(op="add", path="/a~1b~0c", value=1)]
    assert unescape(escape("a/b~c")) == "a/b~c"
    assert apply({}, ops) == {"a/b~c": 1}


def test_a_card_moving_from_hand_to_row_is_a_few_operations() -> None:
    before = {"hand": ["c1", "c2", "c3", "c4", "c5"], "row": [{"slot": 0, "card": None}]}
    after = {"hand": ["c1", "c3", "c5"], "row": [{"slot": 0, "card": "c4"}, {"slot": 1, "card": "c2"}]}
    ops = diff(before, after)
    assert [op.path for op in ops] == ["/hand", "/row"], "ids replaced whole, a mostly new row too"
    assert apply(copy.deepcopy(before), ops) == after


def test_the_end_of_an_array_is_dash() -> None:
    assert apply([1], [PatchOp(op="add", path="/-", value=2)]) == [1, 2]


def test_the_whole_document_can_be_replaced() -> None:
    assert apply({"a": 1}, [PatchOp(op="replace", path="", value=[1])]) == [1]


@pytest.mark.parametrize(
    ("document", "op"),
    [
        ({}, PatchOp(op="remove", path="/missing")),
        ({"a": []}, PatchOp(op="replace", path="/a/0", value=1)),
        ({"a": []}, PatchOp(op="add", path="/a/01", value=1)),
        ({"a": []}, PatchOp(op="add", path="/a/2", value=1)),
        ({"a": 1}, PatchOp(op="add", path="/a/b", value=1)),
        ({"a": 1}, PatchOp(op="add", path="a", value=1)),
        ({"a": {}}, PatchOp(op="add", path="/a/b/c", value=1)),
        ({}, PatchOp(op="remove", path="")),
    ],
)
def test_a_patch_that_does_not_fit_is_refused(document: Any, op: PatchOp) -> None:
    with pytest.raises(PatchError):
        apply(document, [op])


def test_an_operation_without_value_has_none_on_the_wire() -> None:
    assert msgspec.json.encode(PatchOp(op="remove", path="/a")) == b'{"op":"remove","path":"/a"}'
    assert msgspec.json.decode(b'{"op":"add","path":"/a","value":null}', type=PatchOp).value is None


def test_the_example_update_patches_the_example_view_into_a_valid_view() -> None:
    from packplay_protocol.to_client import Update, ViewMessage

    from examples import server_examples

    examples = server_examples()
    view, update = examples["view/mishra_factory"], examples["update/mishra_factory"]
    assert isinstance(view, ViewMessage) and isinstance(update, Update)
    assert update.version == view.version + 1
    document = apply(msgspec.json.decode(msgspec.json.encode(view)), update.patch)
    document["version"] = update.version
    patched = msgspec.convert(document, ViewMessage)
    assert patched.view.belt == (view.view.belt[0], view.view.belt[2])
    assert patched.view.collections[1].groups["B"] == (
        view.cards[patched.view.collections[1].groups["B"][0]].id,
    )


class _Inner(msgspec.Struct, frozen=True):
    cards: tuple[str, ...]
    count: int


class _Slot(msgspec.Struct, frozen=True):
    slot: int
    card: str | None


class _Outer(msgspec.Struct, frozen=True, tag="outer"):
    seats: tuple[_Inner, ...]
    phase: str


def test_typed_messages_are_diffed_field_by_field_and_patch_their_plain_form() -> None:
    old = _Outer(seats=(_Inner(cards=("a", "b"), count=2), _Inner(cards=(), count=0)), phase="place")
    new = _Outer(seats=(_Inner(cards=("b",), count=1), _Inner(cards=(), count=0)), phase="reveal")
    ops = diff(old, new)
    assert ops == [
        PatchOp(op="replace", path="/seats/0/cards", value=("b",)),
        PatchOp(op="replace", path="/seats/0/count", value=1),
        PatchOp(op="replace", path="/phase", value="reveal"),
    ]
    slot, moved = _Slot(slot=0, card=None), _Slot(slot=0, card="c1")
    assert diff(slot, moved) == [PatchOp(op="replace", path="", value=moved)], "a record of scalars: whole"
    plain = msgspec.json.decode(msgspec.json.encode(old))
    assert as_json(apply(plain, ops)) == as_json(new)


class _Described(msgspec.Struct, frozen=True):
    slot: Annotated[int, msgspec.Meta(ge=0, description="a constrained, described number")]
    card: CardId | None


def test_a_record_of_constrained_scalars_is_replaced_whole_in_an_array() -> None:
    """Constraints and descriptions (msgspec's metadata) do not make a field less scalar: a
    changed slot of a row is one replace of that slot, the row's other slots untouched."""
    row = tuple(_Described(slot=i, card=None) for i in range(6))
    shown = (*row[:2], _Described(slot=2, card="c1"), *row[3:])
    assert diff(row, shown, "/row") == [PatchOp(op="replace", path="/row/2", value=shown[2])]
    emptied = diff(row, (), "/row")
    assert emptied == [PatchOp(op="replace", path="/row", value=())]


def test_a_struct_of_another_type_is_replaced_whole() -> None:
    ops = diff({"x": _Inner(cards=(), count=0)}, {"x": _Outer(seats=(), phase="p")})
    assert ops == [PatchOp(op="replace", path="/x", value=_Outer(seats=(), phase="p"))]
    assert (
        msgspec.json.encode(ops[0])
        == b'{"op":"replace","path":"/x","value":{"type":"outer","seats":[],"phase":"p"}}'
    )
