// The package's knowledge of the protocol matches the generated schemas in
// protocol/schema/v2: a changed protocol fails here until this package follows.

import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { describe, test } from "node:test";

import { CLIENT_MESSAGE_TYPES, GAMES, PROTOCOL_VERSION, SERVER_MESSAGE_TYPES } from "../src/catalog.js";
import { ErrorCode, messageFields, RejectReason, structFields } from "../src/codec.js";
import { PATCH_OPS } from "../src/patch.js";
import { readJson, SCHEMA_DIR } from "../test-support/helpers.js";

/** The struct definitions a schema's root points at (one `$ref`, or an `anyOf` of them). */
function rootDefs(schema) {
  const refs = schema.$ref ? [schema.$ref] : schema.anyOf.map((s) => s.$ref);
  return refs.map((ref) => schema.$defs[ref.split("/").at(-1)]);
}

const tagOf = (def) => def.properties.type.enum[0];

describe("games", () => {
  const names = readdirSync(`${SCHEMA_DIR}games`).sort();
  test("the same games", () => assert.deepEqual(Object.keys(GAMES).sort(), names));
  for (const name of names) {
    test(`${name}: the same action, view and event types`, () => {
      const read = (part) => rootDefs(readJson(`${SCHEMA_DIR}games/${name}/${part}.json`)).map(tagOf);
      assert.deepEqual([...GAMES[name].actions], read("action"));
      assert.deepEqual([GAMES[name].view], read("view"));
      assert.deepEqual([...GAMES[name].events], read("event"));
    });
  }
});

for (const [direction, types] of [
  ["from_client", CLIENT_MESSAGE_TYPES],
  ["to_client", SERVER_MESSAGE_TYPES],
]) {
  describe(`${direction} messages`, () => {
    const schema = readJson(`${SCHEMA_DIR}${direction}.json`);
    const defs = rootDefs(schema);
    test("the same message types", () => assert.deepEqual([...types], defs.map(tagOf)));
    for (const def of defs) {
      test(`${tagOf(def)}: the same fields, the same ones required`, () => {
        const fields = messageFields(direction, tagOf(def));
        assert.deepEqual([...fields.required, ...fields.optional].sort(), Object.keys(def.properties).sort());
        assert.deepEqual([...fields.required].sort(), [...def.required].sort());
      });
    }
  });
}

test("the same error codes, reject reasons and patch operations", () => {
  const defs = readJson(`${SCHEMA_DIR}to_client.json`).$defs;
  const enumOf = (name) => defs[name].enum ?? defs[name].anyOf.flatMap((s) => s.enum ?? []);
  assert.deepEqual(Object.values(ErrorCode).sort(), [...enumOf("ErrorCode")].sort());
  assert.deepEqual(Object.values(RejectReason).sort(), [...enumOf("RejectReason")].sort());
  assert.deepEqual([...PATCH_OPS].sort(), [...defs.PatchOp.properties.op.enum].sort());
});

test("protocol version 2", () => {
  assert.equal(PROTOCOL_VERSION, 2);
  assert.equal(readJson(`${SCHEMA_DIR}to_client/update.json`).$defs.Update.properties.type.enum[0], "update");
});

describe("structs inside messages", () => {
  const defs = readJson(`${SCHEMA_DIR}to_client.json`).$defs;
  for (const name of ["Limits", "GameResult", "ChooseCards", "LegalActions", "CardInstance", "PatchOp"]) {
    test(`${name}: the same fields, the same ones required`, () => {
      const fields = structFields(name);
      // The schema lists ChooseCards' `type` tag as required, but the Python codec
      // accepts it absent (msgspec checks a tag only when present), and so does this one.
      const tag = name === "ChooseCards" ? ["type"] : [];
      assert.deepEqual([...tag, ...fields.required, ...fields.optional].sort(), Object.keys(defs[name].properties).sort());
      assert.deepEqual([...tag, ...fields.required].sort(), [...(defs[name].required ?? [])].sort());
    });
  }
});
