// The copy of @msgpack/msgpack in src/vendor/ is exactly the pinned development
// dependency's ES module build, and the package imports nothing from outside itself.

import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

import { SOURCE, TARGET, vendoredFiles } from "../scripts/vendor-msgpack.mjs";

const PACKAGE = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));

test("the vendored files are the pinned @msgpack/msgpack build, byte for byte", () => {
  const installed = JSON.parse(readFileSync(join(SOURCE, "package.json"), "utf8")).version;
  assert.equal(PACKAGE.devDependencies["@msgpack/msgpack"], installed, "pin one exact version");
  const expected = vendoredFiles().map((f) => f.to);
  const present = readdirSync(TARGET, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath ?? entry.path, entry.name).slice(TARGET.length + 1))
    .sort((a, b) => a.localeCompare(b));
  assert.deepEqual(present, expected, "run `npm run vendor`");
  for (const { from, to } of vendoredFiles()) {
    assert.ok(readFileSync(join(SOURCE, from)).equals(readFileSync(join(TARGET, to))), `${to} differs`);
  }
});

test("the package has no runtime dependency and its modules import only relative paths", () => {
  assert.equal(PACKAGE.dependencies, undefined);
  const src = new URL("../src/", import.meta.url).pathname;
  const modules = readdirSync(src, { recursive: true }).filter((n) => /\.(m?js)$/.test(n));
  assert.ok(modules.length > 10);
  for (const name of modules) {
    const text = readFileSync(join(src, name), "utf8");
    for (const [, specifier] of text.matchAll(/^(?:import|export)\b[^;]*?\bfrom\s+"([^"]+)"/gm)) {
      assert.ok(specifier.startsWith("./") || specifier.startsWith("../"), `${name} imports ${specifier}`);
    }
  }
});
