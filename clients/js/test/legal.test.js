// The legal-action helpers only ever build actions within a choice's constraints.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { decode, encode } from "../src/codec.js";
import {
  checkChoice,
  choices,
  concreteActions,
  countRange,
  enumerateChoice,
  fillChoice,
  hasDecision,
  listActions,
  randomAction,
  randomFill,
} from "../src/legal.js";
import { readJson, seeded, VECTORS_DIR } from "../test-support/helpers.js";

const VIEWS = readJson(`${VECTORS_DIR}to_client/view.json`).cases.map((c) => c.message);
const OPTIONS = ["c1", "c2", "c3", "c4", "c5"];

function choice(overrides) {
  return { type: "choose_cards", template: { type: "g.act", x: 1 }, field: "cards", options: OPTIONS, ...overrides };
}

/** Assert that `action` is `choice`'s template filled within its constraints. */
function assertFilled(c, action) {
  const { [c.field]: value, ...rest } = action;
  assert.deepEqual(rest, c.template);
  const ids = c.single ? (value === null ? [] : [value]) : value;
  if (c.single) assert.ok(value === null || typeof value === "string");
  else assert.ok(Array.isArray(value));
  assert.equal(checkChoice(c, ids), null);
  const [low, high] = countRange(c);
  assert.ok(ids.length >= low && ids.length <= high);
  assert.equal(new Set(ids).size, ids.length);
  for (const id of ids) assert.ok(c.options.includes(id));
  if (!c.ordered) assert.deepEqual(ids, c.options.filter((id) => ids.includes(id)));
}

const CHOICES = [
  choice({ min_count: 2, max_count: 2, ordered: true }),
  choice({ min_count: 0, max_count: 3 }),
  choice({ min_count: 1, max_count: 1, single: true, field: "card" }),
  choice({ min_count: 0, max_count: 1, single: true, field: "card" }),
  choice({ min_count: 5, max_count: 9 }),
  choice({ min_count: 1, max_count: 4, ordered: true, options: ["a", "b", "a", "c"] }),
];

describe("fillChoice", () => {
  test("puts the ids in the template's field", () => {
    assert.deepEqual(fillChoice(CHOICES[0], ["c3", "c1"]), { type: "g.act", x: 1, cards: ["c3", "c1"] });
    assert.deepEqual(fillChoice(CHOICES[2], ["c4"]), { type: "g.act", x: 1, card: "c4" });
    assert.deepEqual(fillChoice(CHOICES[3], []), { type: "g.act", x: 1, card: null });
  });

  test("keeps the order when ordered, uses the options' order otherwise", () => {
    assert.deepEqual(fillChoice(CHOICES[0], ["c5", "c2"]).cards, ["c5", "c2"]);
    assert.deepEqual(fillChoice(CHOICES[1], ["c5", "c2"]).cards, ["c2", "c5"]);
  });

  test("refuses ids that break the constraints", () => {
    for (const [c, ids] of [
      [CHOICES[0], ["c1"]],
      [CHOICES[0], ["c1", "c1"]],
      [CHOICES[0], ["c1", "zz"]],
      [CHOICES[1], ["c1", "c2", "c3", "c4"]],
      [CHOICES[2], []],
      [CHOICES[2], ["c1", "c2"]],
    ]) {
      assert.notEqual(checkChoice(c, ids), null);
      assert.throws(() => fillChoice(c, ids), RangeError);
    }
  });

  test("does not change the choice", () => {
    const c = structuredClone(CHOICES[0]);
    fillChoice(c, ["c2", "c1"]);
    assert.deepEqual(c, CHOICES[0]);
  });
});

describe("randomFill", () => {
  for (const [i, c] of CHOICES.entries()) {
    test(`choice #${i} (min ${c.min_count}, max ${c.max_count}${c.ordered ? ", ordered" : ""}${c.single ? ", single" : ""})`, () => {
      const random = seeded(100 + i);
      const seen = new Set();
      for (let n = 0; n < 300; n++) {
        const action = randomFill(c, random);
        assertFilled(c, action);
        seen.add(JSON.stringify(action));
      }
      assert.ok(seen.size > 1 || countRange(c)[0] === countRange(c)[1]);
    });
  }

  test("an impossible choice throws", () => {
    assert.throws(() => randomFill(choice({ min_count: 6, max_count: 6 })), RangeError);
  });
});

describe("enumerateChoice", () => {
  test("counts: combinations, or permutations when ordered", () => {
    assert.equal([...enumerateChoice(CHOICES[0])].length, 5 * 4); // P(5, 2)
    assert.equal([...enumerateChoice(CHOICES[1])].length, 1 + 5 + 10 + 10); // C(5, 0..3)
    assert.equal([...enumerateChoice(CHOICES[2])].length, 5);
    assert.equal([...enumerateChoice(CHOICES[3])].length, 6);
    assert.equal([...enumerateChoice(CHOICES[4])].length, 1);
    assert.equal([...enumerateChoice(CHOICES[5])].length, 3 + 6 + 6); // duplicate options count once
  });

  test("every filling is valid and distinct, and limit stops it", () => {
    for (const c of CHOICES) {
      const all = [...enumerateChoice(c)];
      all.forEach((action) => assertFilled(c, action));
      assert.equal(new Set(all.map((a) => JSON.stringify(a))).size, all.length);
    }
    assert.equal([...enumerateChoice(CHOICES[0], { limit: 7 })].length, 7);
  });
});

describe("views", () => {
  test("the vectors' views: concrete actions as they are, choices filled within constraints", () => {
    const random = seeded(7);
    let filled = 0;
    for (const view of VIEWS) {
      assert.deepEqual(concreteActions(view), view.legal.actions);
      assert.deepEqual(concreteActions(view.legal), view.legal.actions);
      for (const c of choices(view)) {
        for (let n = 0; n < 50; n++) assertFilled(c, randomFill(c, random));
        filled++;
      }
      for (const action of listActions(view)) {
        // Every listed action is a valid act payload for the protocol.
        const act = { type: "act", action_id: "a-1", version: view.version, action };
        assert.ok(decode(encode(act, "json"), "json", { direction: "from_client" }).ok, JSON.stringify(action));
      }
    }
    assert.ok(filled > 0, "the vectors hold at least one choice");
  });

  test("listActions lists concrete actions, then fillings, up to the limit", () => {
    const legal = { actions: [{ type: "g.pass" }], choices: [CHOICES[0]] };
    const all = listActions(legal);
    assert.equal(all.length, 1 + 20);
    assert.deepEqual(all[0], { type: "g.pass" });
    assert.equal(listActions(legal, { limit: 5 }).length, 5);
  });

  test("randomAction picks among actions and choices, or null with nothing to decide", () => {
    const legal = { actions: [{ type: "g.pass" }], choices: [CHOICES[1]] };
    const random = seeded(9);
    const kinds = new Set();
    for (let n = 0; n < 100; n++) {
      const action = randomAction({ legal }, random);
      if (action.type === "g.pass") kinds.add("action");
      else {
        assertFilled(CHOICES[1], action);
        kinds.add("choice");
      }
    }
    assert.deepEqual([...kinds].sort(), ["action", "choice"]);
    assert.equal(randomAction({ legal: { actions: [], choices: [] } }), null);
    assert.equal(hasDecision({ legal: { actions: [], choices: [] } }), false);
    assert.equal(hasDecision({ legal }), true);
  });
});
