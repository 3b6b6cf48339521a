// Random and mutated frames never make decode throw, and every result is either a
// message or one of the codec's error codes. Bounded and seeded: the same frames on
// every run.

import assert from "node:assert/strict";
import { test } from "node:test";

import { decode, encode, isObject } from "../src/codec.js";
import { hexBytes, seeded, vectorFiles } from "../test-support/helpers.js";

const CODES = new Set(["bad_message", "unknown_type", "frame_too_large"]);
const ROUNDS = 3000;

const cases = vectorFiles().flatMap(({ file }) => file.cases);
const seeds = cases.flatMap((c) => [new TextEncoder().encode(c.json), hexBytes(c.msgpack_hex)]);
const messages = cases.map((c) => c.message);

function checkTotal(frame, label) {
  for (const encoding of ["json", "msgpack"]) {
    for (const direction of ["from_client", "to_client"]) {
      let result;
      assert.doesNotThrow(() => {
        result = decode(frame, encoding, { direction, maxBytes: 4096 });
      }, label);
      if (result.ok) {
        assert.ok(isObject(result.message) && typeof result.message.type === "string", label);
      } else {
        assert.ok(CODES.has(result.error.code), `${label}: ${result.error.code}`);
        assert.equal(typeof result.error.message, "string");
      }
    }
  }
}

function mutate(bytes, random) {
  const out = [...bytes];
  const edits = 1 + Math.floor(random() * 4);
  for (let e = 0; e < edits; e++) {
    const at = Math.floor(random() * (out.length + 1));
    switch (Math.floor(random() * 5)) {
      case 0: // flip a byte
        if (out.length > 0) out[at % out.length] = Math.floor(random() * 256);
        break;
      case 1: // insert a byte
        out.splice(at, 0, Math.floor(random() * 256));
        break;
      case 2: // delete a run
        out.splice(at, 1 + Math.floor(random() * 8));
        break;
      case 3: // truncate
        out.length = at;
        break;
      default: {
        // splice in a slice of another frame
        const other = seeds[Math.floor(random() * seeds.length)];
        const from = Math.floor(random() * other.length);
        out.splice(at, 0, ...other.slice(from, from + 1 + Math.floor(random() * 16)));
      }
    }
  }
  return Uint8Array.from(out);
}

const JUNK = [null, true, false, 0, -1, 1.5, 2 ** 53, -(2 ** 60), "", "x", [], {}, [null], { type: 1 }, "é😀", -0];

/** The message with one field somewhere replaced by a junk value. */
function perturb(message, random) {
  const copy = structuredClone(message);
  let node = copy;
  for (let depth = 0; depth < 4; depth++) {
    const keys = Object.keys(node);
    if (keys.length === 0) break;
    const key = keys[Math.floor(random() * keys.length)];
    const child = node[key];
    if (typeof child === "object" && child !== null && random() < 0.6) {
      node = child;
      continue;
    }
    node[key] = JUNK[Math.floor(random() * JUNK.length)];
    break;
  }
  return copy;
}

test(`random bytes never throw (${ROUNDS} frames)`, () => {
  const random = seeded(1);
  for (let i = 0; i < ROUNDS; i++) {
    const length = Math.floor(random() * 64);
    checkTotal(Uint8Array.from({ length }, () => Math.floor(random() * 256)), `random #${i}`);
  }
});

test(`mutated vector frames never throw (${ROUNDS} frames)`, () => {
  const random = seeded(2);
  for (let i = 0; i < ROUNDS; i++) {
    const frame = mutate(seeds[Math.floor(random() * seeds.length)], random);
    checkTotal(frame, `mutation #${i}`);
    checkTotal(new TextDecoder().decode(frame), `mutation #${i} as text`);
  }
});

test(`messages with a field replaced never throw (${ROUNDS} messages)`, () => {
  const random = seeded(3);
  for (let i = 0; i < ROUNDS; i++) {
    const message = perturb(messages[Math.floor(random() * messages.length)], random);
    if (typeof message.type !== "string") continue;
    for (const encoding of ["json", "msgpack"]) checkTotal(encode(message, encoding), `perturbed #${i} ${encoding}`);
  }
});
