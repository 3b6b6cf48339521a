// Copies the ES module build of @msgpack/msgpack (a development dependency, pinned to
// one version in package.json) into src/vendor/msgpack/, with its licence.
//
// Why a copy: the package then has no runtime dependency, so every way of installing
// it resolves (a linked folder, a tarball, a registry) and a browser can import
// src/index.js as it is, with no bundler or import map. test/vendor.test.js fails
// when the copy and the pinned package differ; after changing the version, run
// `npm install && npm run vendor`.

import { copyFileSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
export const SOURCE = join(root, "node_modules/@msgpack/msgpack");
export const TARGET = join(root, "src/vendor/msgpack");

/** The files copied: every ES module of the build, relative to dist.esm/, and the licence. */
export function vendoredFiles() {
  const modules = readdirSync(join(SOURCE, "dist.esm"), { recursive: true })
    .filter((name) => name.endsWith(".mjs"))
    .map((name) => ({ from: join("dist.esm", name), to: name }));
  return [...modules, { from: "LICENSE", to: "LICENSE" }].sort((a, b) => a.to.localeCompare(b.to));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  rmSync(TARGET, { recursive: true, force: true });
  for (const { from, to } of vendoredFiles()) {
    mkdirSync(dirname(join(TARGET, to)), { recursive: true });
    copyFileSync(join(SOURCE, from), join(TARGET, to));
  }
  console.log(`copied ${vendoredFiles().length} files into ${TARGET}`);
}
