// src/protocol.d.ts is what scripts/generate-types.mjs writes from the protocol's
// current schemas, and the declarations type-check under strict TypeScript.

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { test } from "node:test";
import { promisify } from "node:util";

import { OUTPUT, generate } from "../scripts/generate-types.mjs";

const run = promisify(execFile);
export const TSC = createRequire(import.meta.url).resolve("typescript/bin/tsc");

test("src/protocol.d.ts is generated from the current schemas", () => {
  assert.equal(readFileSync(OUTPUT, "utf8"), generate(), "run `npm run types`");
});

test("every declaration file type-checks under strict TypeScript", async () => {
  const src = new URL("../src/", import.meta.url).pathname;
  await run(process.execPath, [TSC, "--noEmit", "--strict", "--target", "es2022", "--module", "nodenext", `${src}index.d.ts`]);
});
