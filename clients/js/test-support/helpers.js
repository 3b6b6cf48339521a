// Shared by the tests (kept outside test/ so that `node --test` does not run it).

import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The protocol folder of the repository, found relative to this package. */
export const PROTOCOL_DIR = fileURLToPath(new URL("../../../protocol/", import.meta.url));
export const VECTORS_DIR = `${PROTOCOL_DIR}vectors/`;
export const SCHEMA_DIR = `${PROTOCOL_DIR}schema/v2/`;

export function readJson(path) {
  return JSON.parse(readFileSync(path, "utf8"));
}

/** Every vector file of both directions: `{path, file}` with `file` as stored. */
export function vectorFiles() {
  return ["from_client", "to_client"].flatMap((direction) =>
    readdirSync(`${VECTORS_DIR}${direction}`)
      .filter((name) => name.endsWith(".json"))
      .sort()
      .map((name) => ({ path: `${direction}/${name}`, file: readJson(`${VECTORS_DIR}${direction}/${name}`) })),
  );
}

export function invalidCases() {
  return readJson(`${VECTORS_DIR}invalid.json`).cases;
}

export function hexBytes(hex) {
  return Uint8Array.from(Buffer.from(hex, "hex"));
}

export function toHex(bytes) {
  return Buffer.from(bytes).toString("hex");
}

/** A small seeded generator (mulberry32): uniform in [0, 1). */
export function seeded(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
