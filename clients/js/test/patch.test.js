// JSON Patch as the server sends it: the cases of tests/protocol/test_protocol_patch.py
// that are about applying a patch (this package makes no diffs), then the RFC 6902 and
// RFC 6901 rules they rely on, and what applying does to the document.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { applyPatch, escapeToken, PatchError, unescapeToken } from "../src/patch.js";
import { readJson, VECTORS_DIR } from "../test-support/helpers.js";

const vector = (type, name) =>
  readJson(`${VECTORS_DIR}to_client/${type}.json`).cases.find((c) => c.name === name).message;

function refused(document, op) {
  const before = structuredClone(document);
  assert.throws(() => applyPatch(document, [op]), PatchError, JSON.stringify(op));
  assert.deepEqual(document, before, "a refused patch leaves the document as it was");
}

describe("the cases of the Python tests", () => {
  test("paths escape tilde and slash", () => {
    assert.deepEqual(applyPatch({}, [{ op: "add", path: "/a~1b~0c", value: 1 }]), { "a/b~c": 1 });
    assert.equal(escapeToken("a/b~c"), "a~1b~0c");
    assert.equal(unescapeToken(escapeToken("a/b~c")), "a/b~c");
  });

  test("a card moving from hand to row is a few operations", () => {
    // The operations packplay_protocol.patch.diff makes for this move.
    const ops = [
      { op: "remove", path: "/hand/3" },
      { op: "remove", path: "/hand/1" },
      { op: "add", path: "/row/0", value: "c4" },
      { op: "add", path: "/row/1", value: "c2" },
    ];
    const document = { hand: ["c1", "c2", "c3", "c4", "c5"], row: [] };
    assert.deepEqual(applyPatch(document, ops), { hand: ["c1", "c3", "c5"], row: ["c4", "c2"] });
  });

  test("objects and arrays changed together, as a diff does", () => {
    const ops = [
      { op: "remove", path: "/a" },
      { op: "replace", path: "/b/0", value: { x: [2] } },
      { op: "replace", path: "/b/1", value: 1 },
      { op: "add", path: "/b/2", value: 3 },
      { op: "add", path: "/c", value: null },
    ];
    const document = { a: 1, b: [1, { x: [1, 2] }] };
    assert.deepEqual(applyPatch(document, ops), { b: [{ x: [2] }, 1, 3], c: null });
  });

  test("the end of an array is -", () => {
    assert.deepEqual(applyPatch([1], [{ op: "add", path: "/-", value: 2 }]), [1, 2]);
  });

  test("the whole document can be replaced", () => {
    assert.deepEqual(applyPatch({ a: 1 }, [{ op: "replace", path: "", value: [1] }]), [1]);
  });

  test("a patch that does not fit is refused", () => {
    refused({}, { op: "remove", path: "/missing" });
    refused({ a: [] }, { op: "replace", path: "/a/0", value: 1 });
    refused({ a: [] }, { op: "add", path: "/a/01", value: 1 });
    refused({ a: [] }, { op: "add", path: "/a/2", value: 1 });
    refused({ a: 1 }, { op: "add", path: "/a/b", value: 1 });
    refused({ a: 1 }, { op: "add", path: "a", value: 1 });
    refused({ a: {} }, { op: "add", path: "/a/b/c", value: 1 });
    refused({}, { op: "remove", path: "" });
  });

  test("an operation without value is a remove; null is a value", () => {
    assert.deepEqual(applyPatch({ a: 1 }, [{ op: "remove", path: "/a" }]), {});
    assert.deepEqual(applyPatch({}, [{ op: "add", path: "/a", value: null }]), { a: null });
  });

  test("the update vector patches the view vector of its game", () => {
    const view = structuredClone(vector("view", "mishra_factory"));
    const update = vector("update", "mishra_factory");
    assert.equal(update.version, view.version + 1);
    const belt = [...view.view.belt];
    const patched = applyPatch(view, update.patch);
    assert.equal(patched, view, "patched in place");
    assert.deepEqual(patched.view.belt, [belt[0], belt[2]]);
    const [card] = patched.view.collections[1].groups.B;
    assert.equal(patched.cards[card].id, card, "the card taken is in the card table");
  });
});

describe("RFC 6902 and RFC 6901", () => {
  test("add into an array inserts before the index; at the length it appends", () => {
    assert.deepEqual(applyPatch({ a: [1, 3] }, [{ op: "add", path: "/a/1", value: 2 }]), { a: [1, 2, 3] });
    assert.deepEqual(applyPatch({ a: [1] }, [{ op: "add", path: "/a/1", value: 2 }]), { a: [1, 2] });
    assert.deepEqual(applyPatch({ a: [] }, [{ op: "add", path: "/a/-", value: 1 }]), { a: [1] });
  });

  test("add to an object member that exists replaces it", () => {
    assert.deepEqual(applyPatch({ a: 1 }, [{ op: "add", path: "/a", value: [2] }]), { a: [2] });
  });

  test("remove and replace take an existing index, never -", () => {
    assert.deepEqual(applyPatch([1, 2, 3], [{ op: "remove", path: "/1" }]), [1, 3]);
    assert.deepEqual(applyPatch([1, 2, 3], [{ op: "replace", path: "/2", value: 0 }]), [1, 2, 0]);
    refused([1], { op: "remove", path: "/-" });
    refused([1], { op: "replace", path: "/-", value: 2 });
    refused([1], { op: "remove", path: "/1" });
    refused({ a: [[1]] }, { op: "add", path: "/a/-/0", value: 2 });
  });

  test("indexes are digits without leading zeros", () => {
    for (const token of ["00", "-1", "1.0", "1e0", " 1", "+1", "x", ""]) {
      refused([1, 2], { op: "replace", path: `/${token}`, value: 0 });
    }
    refused([1, 2], { op: "add", path: "/99999999999999999999", value: 0 });
  });

  test("members are the object's own: inherited names are missing", () => {
    refused({}, { op: "remove", path: "/toString" });
    refused({}, { op: "replace", path: "/constructor", value: 1 });
    refused({}, { op: "add", path: "/hasOwnProperty/x", value: 1 });
  });

  test("__proto__ is a member like any other", () => {
    const document = applyPatch({}, [{ op: "add", path: "/__proto__", value: { polluted: true } }]);
    assert.equal(Object.getPrototypeOf(document), Object.prototype);
    assert.deepEqual(Object.keys(document), ["__proto__"]);
    assert.equal({}.polluted, undefined);
    applyPatch(document, [{ op: "replace", path: "/__proto__/polluted", value: false }]);
    assert.equal(Object.getOwnPropertyDescriptor(document, "__proto__").value.polluted, false);
  });

  test("~01 is ~1, not /", () => {
    assert.deepEqual(applyPatch({ "~1": 0 }, [{ op: "replace", path: "/~01", value: 1 }]), { "~1": 1 });
    assert.equal(unescapeToken("~01"), "~1");
    assert.equal(escapeToken("~1"), "~01");
  });

  test("the empty key is a member; an empty token in the middle too", () => {
    assert.deepEqual(applyPatch({ "": { "": 1 } }, [{ op: "replace", path: "//", value: 2 }]), { "": { "": 2 } });
  });

  test("other operations, missing values and bad paths are refused", () => {
    for (const op of ["move", "copy", "test", "ADD", undefined]) {
      refused({ a: 1 }, { op, path: "/b", from: "/a", value: 1 });
    }
    refused({}, { op: "add", path: "/a" });
    refused({ a: 1 }, { op: "replace", path: "/a" });
    refused({}, { op: "add", path: 1, value: 1 });
    refused({}, "add /a 1");
    assert.throws(() => applyPatch({}, { op: "add", path: "/a", value: 1 }), PatchError);
  });

  test("descending into a scalar or null is refused", () => {
    refused({ a: null }, { op: "add", path: "/a/b", value: 1 });
    refused({ a: "text" }, { op: "replace", path: "/a/0", value: "T" });
    refused({ a: 5 }, { op: "remove", path: "/a/b/c" });
  });
});

describe("what applying does to the document", () => {
  test("all or nothing: a later operation that does not fit undoes the earlier ones", () => {
    const document = { hand: ["c1", "c2"], row: [], score: 1, gone: { x: 1 } };
    const before = structuredClone(document);
    const ops = [
      { op: "remove", path: "/hand/0" },
      { op: "add", path: "/row/-", value: "c1" },
      { op: "replace", path: "/score", value: 2 },
      { op: "remove", path: "/gone" },
      { op: "add", path: "/new", value: true },
      { op: "add", path: "/hand/0", value: "c9" },
      { op: "replace", path: "/hand/5", value: "c0" },
    ];
    assert.throws(() => applyPatch(document, ops), PatchError);
    assert.deepEqual(document, before);
  });

  test("values are copied in: the document shares no object with the patch", () => {
    const value = { hand: ["c1"] };
    const ops = [{ op: "add", path: "/seat", value }];
    const document = applyPatch({}, ops);
    applyPatch(document, [{ op: "add", path: "/seat/hand/-", value: "c2" }]);
    assert.deepEqual(value, { hand: ["c1"] });
    assert.deepEqual(document, { seat: { hand: ["c1", "c2"] } });
  });

  test("operations apply in order, each to the result of the one before", () => {
    const ops = [
      { op: "add", path: "/a", value: [] },
      { op: "add", path: "/a/0", value: { b: 1 } },
      { op: "replace", path: "/a/0/b", value: 2 },
      { op: "add", path: "/a/0/c", value: 3 },
      { op: "remove", path: "/a/0/b" },
    ];
    assert.deepEqual(applyPatch({}, ops), { a: [{ c: 3 }] });
  });

  test("an empty patch changes nothing", () => {
    const document = { a: [1] };
    assert.equal(applyPatch(document, []), document);
    assert.deepEqual(document, { a: [1] });
  });
});
