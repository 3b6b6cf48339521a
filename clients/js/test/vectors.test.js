// Conformance: every case of every vector file in protocol/vectors decodes, from its
// JSON and from its MessagePack bytes, to the logical message, and this package's
// own encoding of the message decodes back to it.
//
// Byte equality: the Python encoders are deterministic (msgspec writes struct fields
// in declaration order as compact JSON; msgpack-python picks the smallest int, str,
// array and map headers and writes every float as float64). This codec writes the
// same bytes, which the tests assert, except where a float-typed field holds an
// integral value (`scores: [1.0, 0.0]`, `actions_per_second: 10.0`): a JavaScript
// number cannot tell 1.0 from 1, so it is written as an int. For those cases the
// JSON is compared with the floats' ".0" removed, and MessagePack only logically
// (the README requires no more than logical equality). Nor where the server left out
// a card's fields at their default: this codec writes every field, so those cases are
// compared logically too.

import assert from "node:assert/strict";
import { isDeepStrictEqual } from "node:util";
import { describe, test } from "node:test";

import { decode, encode } from "../src/codec.js";
import { applyPatch } from "../src/patch.js";
import { hexBytes, toHex, vectorFiles } from "../test-support/helpers.js";

const files = vectorFiles();

/** The JSON text with integral floats written as ints (`1.0` -> `1`), strings left alone. */
function withoutIntegralFloats(json) {
  let out = "";
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json[i];
    if (inString) {
      out += c;
      if (c === "\\") out += json[++i];
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
      out += c;
    } else {
      const number = /^-?\d+(\.\d+)?([eE][-+]?\d+)?/.exec(json.slice(i, i + 40));
      if (number && (i === 0 || !/[\w.]/.test(json[i - 1]))) {
        out += number[1] === ".0" && number[2] === undefined ? number[0].slice(0, -2) : number[0];
        i += number[0].length - 1;
      } else out += c;
    }
  }
  return out;
}

test("the vector folder holds both directions and every message type", () => {
  const types = files.map(({ file }) => `${file.direction}/${file.type}`).sort();
  assert.deepEqual(types, [
    "from_client/act",
    "from_client/create",
    "from_client/follow",
    "from_client/hello",
    "from_client/join",
    "from_client/ping",
    "from_client/rematch",
    "from_client/resume",
    "from_client/take_seat",
    "to_client/accepted",
    "to_client/error",
    "to_client/events",
    "to_client/game_over",
    "to_client/pong",
    "to_client/rejected",
    "to_client/seated",
    "to_client/tournament_round",
    "to_client/tournament_standings",
    "to_client/tournament_table",
    "to_client/update",
    "to_client/view",
    "to_client/welcome",
  ]);
});

for (const { path, file } of files) {
  describe(`vectors/${path}`, () => {
    const direction = file.direction;

    test("names its direction and type, and has cases", () => {
      assert.equal(path, `${direction}/${file.type}.json`);
      assert.ok(file.cases.length > 0);
    });

    for (const vector of file.cases) {
      describe(vector.name, () => {
        test("the logical message has the file's type", () => {
          assert.equal(vector.message.type, file.type);
        });

        test("decoding the JSON text gives the message", () => {
          const decoded = decode(vector.json, "json", { direction });
          assert.ok(decoded.ok, decoded.error?.message);
          assert.deepEqual(decoded.message, vector.message);
        });

        test("decoding the JSON bytes gives the message", () => {
          const decoded = decode(new TextEncoder().encode(vector.json), "json", { direction });
          assert.ok(decoded.ok, decoded.error?.message);
          assert.deepEqual(decoded.message, vector.message);
        });

        test("decoding the MessagePack bytes gives the message", () => {
          const decoded = decode(hexBytes(vector.msgpack_hex), "msgpack", { direction });
          assert.ok(decoded.ok, decoded.error?.message);
          assert.deepEqual(decoded.message, vector.message);
        });

        const expectedJson = withoutIntegralFloats(vector.json);
        const integralFloats = expectedJson !== vector.json;
        // The server leaves a card's fields at their default out; this codec writes every field.
        const leftOut = !isDeepStrictEqual(JSON.parse(vector.json), vector.message);
        const sameBytes = !integralFloats && !leftOut;

        test(`encoding to JSON gives ${leftOut ? "the message back" : "the same bytes"}${integralFloats ? " (integral floats as ints)" : ""}`, () => {
          const frame = encode(vector.message, "json");
          assert.equal(typeof frame, "string");
          if (!leftOut) assert.equal(frame, expectedJson);
          assert.deepEqual(decode(frame, "json", { direction }).message, vector.message);
        });

        test(`encoding to MessagePack gives ${sameBytes ? "the same bytes" : "the message back"}`, () => {
          const frame = encode(vector.message, "msgpack");
          assert.ok(frame instanceof Uint8Array);
          if (sameBytes) assert.equal(toHex(frame), vector.msgpack_hex);
          const decoded = decode(frame, "msgpack", { direction });
          assert.ok(decoded.ok, decoded.error?.message);
          assert.deepEqual(decoded.message, vector.message);
        });
      });
    }
  });
}

// An update patches the view message of the version before it: the update vectors
// are made against the view vector named mishra_factory.
describe("update vectors patch the mishra_factory view vector", () => {
  const casesOf = (type) => files.find(({ file }) => file.direction === "to_client" && file.type === type).file.cases;
  const view = casesOf("view").find((c) => c.name === "mishra_factory");
  for (const update of casesOf("update")) {
    for (const encoding of ["json", "msgpack"]) {
      test(`${update.name} (${encoding})`, () => {
        const frame = (c) => (encoding === "json" ? c.json : hexBytes(c.msgpack_hex));
        const held = decode(frame(view), encoding).message;
        const decoded = decode(frame(update), encoding).message;
        assert.equal(decoded.game_id, held.game_id);
        assert.equal(decoded.version, held.version + 1);
        const patched = applyPatch(held, decoded.patch);
        patched.version = decoded.version;
        const again = decode(encode(patched, encoding), encoding);
        assert.ok(again.ok, again.error?.message);
        assert.deepEqual(again.message, patched, "the patched view is a whole, valid view");
        assert.notDeepEqual(patched.view, view.message.view);
      });
    }
  }
});

test("the float normalisation leaves strings and other numbers alone", () => {
  assert.equal(withoutIntegralFloats('{"a":[1.0,-2.0,2.5,1e3],"b":"x 1.0"}'), '{"a":[1,-2,2.5,1e3],"b":"x 1.0"}');
});
