// The package installs as its README says, in a fresh folder with nothing else in it:
// from this folder (`npm install ./clients/js`) and from the tarball `npm pack`
// makes. Both installs work offline, since the package has no dependency. Each
// installed copy is imported by its name (the codec round-trips MessagePack), and a
// strict TypeScript project type-checks a small program against it, while a
// program with a type error fails, so the types are real.

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { after, before, describe, test } from "node:test";
import { promisify } from "node:util";

import { TSC } from "./types.test.js";

const run = promisify(execFile);
const PACKAGE_DIR = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
const NPM_FLAGS = ["--no-audit", "--no-fund", "--offline", "--loglevel=error"];

const CHECK = `
import { GAME_TYPES, PackplayClient, PackplayRest, decode, encode } from "@packplay/client";
import { subprotocol } from "@packplay/client/codec";
const frame = encode({ type: "ping", nonce: "7" }, "msgpack");
const back = decode(frame, "msgpack", { direction: "from_client" });
if (!back.ok || back.message.nonce !== "7") throw new Error("msgpack round trip failed");
if (subprotocol("json") !== "packplay.v2.json") throw new Error("subprotocol");
if (typeof PackplayClient !== "function" || typeof PackplayRest !== "function") throw new Error("exports");
console.log(GAME_TYPES.map((t) => t.game).join(","));
`;

const PROGRAM = `
import { PackplayClient, PackplayRest, randomAction } from "@packplay/client";
import type { DayNightView, GameSummary, Rejected, ViewMessage } from "@packplay/client";
import { decode } from "@packplay/client/codec";

export async function main(url: string): Promise<number> {
  const rest = new PackplayRest(url);
  const game = await rest.createGame({ game: "day_night", players: 2, seats: ["Ada", "Grace"] });
  const first = game.grants[0];
  if (first === undefined) return 0;
  const client = new PackplayClient();
  client.onDecision((view: ViewMessage) => randomAction(view));
  client.on("rejected", (rejected: Rejected) => console.log(rejected.reason, rejected.rule ?? ""));
  const view = await client.open(rest.wsUrl(), { token: first.token });
  if (view.view.type === "day_night.view") {
    const table: DayNightView = view.view;
    console.log(table.round, table.seats[0]?.hand?.length ?? 0);
  }
  const over = await client.whenOver();
  const finished: GameSummary[] = (await rest.listGames({ game: "day_night", status: "over" })).games;
  const decoded = decode("{}", "json");
  if (!decoded.ok) console.log(decoded.error.code);
  return over.result.winners.length + finished.length;
}
`;

const WRONG = `
import { PackplayRest } from "@packplay/client";
export async function wrong(): Promise<number> {
  const snapshot = await new PackplayRest("http://127.0.0.1:1").getGame("g");
  const count: number = snapshot.summary.game;
  return count;
}
`;

const TSCONFIG = {
  compilerOptions: {
    strict: true,
    noEmit: true,
    target: "es2022",
    module: "nodenext",
    moduleResolution: "nodenext",
    lib: ["es2022", "dom"],
    types: [],
    noUncheckedIndexedAccess: true,
  },
  include: ["program.ts"],
};

describe("installing the package in a fresh folder", () => {
  let scratch;
  let tarball;
  before(async () => {
    scratch = mkdtempSync(join(tmpdir(), "packplay-js-install-"));
    await run("npm", ["pack", "--pack-destination", scratch, "--loglevel=error"], { cwd: PACKAGE_DIR });
    tarball = join(scratch, readdirSync(scratch).find((name) => name.endsWith(".tgz")));
  });
  after(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  const ways = [
    ["from the folder (npm install ./clients/js)", (folder) => relative(folder, PACKAGE_DIR)],
    ["from the packed tarball", () => tarball],
  ];
  for (const [how, source] of ways) {
    test(how, async () => {
      const folder = mkdtempSync(join(scratch, "project-"));
      writeFileSync(join(folder, "package.json"), JSON.stringify({ name: "fresh", private: true, type: "module" }));
      await run("npm", ["install", source(folder), ...NPM_FLAGS], { cwd: folder });
      writeFileSync(join(folder, "check.mjs"), CHECK);
      const { stdout } = await run(process.execPath, ["check.mjs"], { cwd: folder });
      assert.equal(stdout.trim(), "day_night,mishra_factory,wedding_planner,base_race");

      writeFileSync(join(folder, "tsconfig.json"), JSON.stringify(TSCONFIG));
      writeFileSync(join(folder, "program.ts"), PROGRAM);
      await run(process.execPath, [TSC, "-p", folder], { cwd: folder });

      writeFileSync(join(folder, "program.ts"), WRONG);
      const failed = await run(process.execPath, [TSC, "-p", folder], { cwd: folder }).then(
        () => null,
        (error) => error,
      );
      assert.ok(failed !== null, "a type error went unnoticed");
      assert.match(failed.stdout, /TS2322: Type 'string' is not assignable to type 'number'/);
    });
  }

  test("the tarball holds the sources, their declarations and the licence of the vendored code, no tests", async () => {
    const { stdout } = await run("tar", ["-tzf", tarball]);
    const files = stdout.trim().split("\n");
    for (const name of ["package/package.json", "package/README.md", "package/LICENSE", "package/src/index.js", "package/src/index.d.ts", "package/src/protocol.d.ts", "package/src/vendor/msgpack/LICENSE"]) {
      assert.ok(files.includes(name), `${name} is missing from the tarball`);
    }
    assert.ok(!files.some((name) => name.startsWith("package/test")), "tests are packed");
  });
});
