// The README's example, exactly as printed there, plays a whole game of every game
// against a real server with no action refused.

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { after, before, describe, test } from "node:test";
import { promisify } from "node:util";

import { Server } from "../test-support/server.js";

const run = promisify(execFile);
const EXAMPLE = new URL("../examples/play-a-game.mjs", import.meta.url);
const README = readFileSync(new URL("../README.md", import.meta.url), "utf8");
// Node 22 has a global WebSocket; Node 20 has it behind a flag.
const FLAGS = Number(process.versions.node.split(".")[0]) < 22 ? ["--experimental-websocket", "--no-warnings"] : [];

test("the README prints the example file as it is", () => {
  const code = readFileSync(EXAMPLE, "utf8");
  assert.ok(README.includes("```js\n" + code + "```"), "paste examples/play-a-game.mjs into the README again");
});

describe("the README example against a real server", () => {
  let server;
  before(async () => {
    server = await Server.start();
  });
  after(async () => {
    await server?.stop();
  });

  for (const [game, players] of [["day_night", 2], ["mishra_factory", 3], ["wedding_planner", 4], ["base_race", 2]]) {
    test(`${game}, ${players} players: a whole game, zero refused actions`, async () => {
      const { stdout } = await run(process.execPath, [...FLAGS, EXAMPLE.pathname, game, String(players)], {
        env: { ...process.env, PACKPLAY_URL: server.base },
        timeout: 60_000,
      });
      const lines = stdout.trim().split("\n");
      const seats = lines.filter((line) => line.startsWith("seat "));
      assert.equal(seats.length, players, stdout);
      for (const line of seats) {
        const [, acted, refused] = line.match(/^seat \d+: (\d+) actions, (\d+) refused$/);
        assert.ok(Number(acted) > 0, line);
        assert.equal(Number(refused), 0, line);
      }
      const result = JSON.parse(lines.at(-1).replace(/^result: /, ""));
      assert.equal(result.scores.length, players);
      assert.ok(result.winners.length > 0);
    });
  }
});
