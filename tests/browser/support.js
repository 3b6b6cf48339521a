// Shared by the browser tests: a real server, Debian's chromium driven by
// playwright-core, bots seated with `packplay bot`, and the clicks that play a game.
//
// The browser is the system's /usr/bin/chromium (never a downloaded build), headless,
// with a fresh profile folder per launch and no background traffic of its own.

import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import { chromium } from "playwright-core";

export { Server } from "../../clients/js/test-support/server.js";

export const CHROMIUM = process.env.PACKPLAY_CHROMIUM ?? "/usr/bin/chromium";
export const SCREENSHOTS = fileURLToPath(new URL("./screenshots/", import.meta.url));
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** A browser context on a fresh profile; `close()` ends it and removes the profile. */
export async function launch() {
  const profile = mkdtempSync(join(tmpdir(), "packplay-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    viewport: { width: 1280, height: 900 },
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** A page that fails the test on any error it logs or throws. */
export async function openPage(context, url, problems) {
  const page = await context.newPage();
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console error: ${message.text()}`);
  });
  await page.goto(url);
  return page;
}

/** Play one seat with `packplay bot` (the Python SDK's random bot) until the game ends. */
export function startBot(server, gameId, token, seed = 1) {
  const child = spawn("packplay", ["bot", server.base, `--game-id=${gameId}`, `--token=${token}`, "--seed", String(seed)], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  for (const stream of [child.stdout, child.stderr]) stream.on("data", (chunk) => (output += chunk));
  const done = new Promise((resolve) => child.once("exit", (code) => resolve({ code, output })));
  return {
    done,
    stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
    },
  };
}

/** Create a started game with every seat taken; returns the created game with its grants. */
export async function createSeated(server, game, players, seed) {
  const names = Array.from({ length: players }, (_, i) => (i === 0 ? "Ada" : `Bot ${i}`));
  return server.rest("POST", "/v2/games", { game, players, seed, seats: names });
}

/** The body's data attributes the web client keeps: version, mine, over. */
export function status(page) {
  return page.evaluate(() => ({ ...document.body.dataset }));
}

/** Wait until it is this seat's decision or the game is over. */
export async function waitForTurn(page, timeout = 30_000) {
  await page.waitForFunction(() => document.body.dataset.mine === "true" || document.body.dataset.over === "true", null, { timeout });
  return status(page);
}

/** Click, then wait for the version to move on (or the game to end, or a refusal shown). */
export async function clickAndWait(page, locator, version) {
  await locator.click();
  await page.waitForFunction(
    (v) => document.body.dataset.version !== v || document.body.dataset.over === "true" || document.querySelector("p.error") !== null,
    version,
    { timeout: 30_000 },
  );
  const refused = await page.locator("p.error").count();
  if (refused > 0) throw new Error(`the server refused a click: ${await page.locator("p.error").first().textContent()}`);
}

export function screenshotPath(name) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  return join(SCREENSHOTS, `${name}.png`);
}
