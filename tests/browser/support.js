// Shared by the browser tests: a real server, Debian's chromium driven by
// playwright-core, bots seated with `packplay bot`, and the clicks that play a game.
//
// The browser is the system's /usr/bin/chromium (never a downloaded build), headless,
// with a fresh profile folder per launch and no background traffic of its own.

import assert from "node:assert/strict";
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

/** The widths every screen must fit: a phone held upright, and a laptop. */
export const WIDTHS = [390, 1366];
const HEIGHT = 900;

/**
 * What a reader sees of the page, and where it spills over: `text` is the visible
 * text outside code (protocol names in the rules are code, as is a game id marked
 * `code.ident`), `overflow` how far the document scrolls sideways, `wide` the
 * elements reaching past the right edge (the culprits, when it does).
 */
export function readScreen(page) {
  return page.evaluate(() => {
    const parts = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT, {
      acceptNode(node) {
        const element = node.parentElement;
        if (element === null || element.closest("code, pre, script, style, noscript")) return NodeFilter.FILTER_REJECT;
        return element.checkVisibility({ visibilityProperty: true }) ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_REJECT;
      },
    });
    while (walker.nextNode()) parts.push(walker.currentNode.data);
    const width = window.innerWidth;
    const wide = [...document.querySelectorAll("body *")]
      .filter((e) => e.getBoundingClientRect().right > width + 0.5 && e.checkVisibility())
      .slice(0, 8)
      .map((e) => `${e.tagName.toLowerCase()}.${[...e.classList].join(".")} right=${Math.round(e.getBoundingClientRect().right)}`);
    return {
      text: parts.join(" ").replace(/\s+/g, " ").trim(),
      overflow: document.documentElement.scrollWidth - width,
      width,
      wide,
      ...cardLayout(),
      illegible: illegibleText(),
    };

    /** Where a card's labels collide (or a Base Race square's label and card), or a label is too wide for its box. */
    function cardLayout() {
      const overlaps = [];
      const clipped = [];
      const named = (e) => `${e.tagName.toLowerCase()}.${[...e.classList].join(".")} "${e.textContent.trim().slice(0, 30)}"`;
      const meet = (a, b) => Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left)) * Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top)) > 1;
      const groups = [
        ...[...document.querySelectorAll(".card")].map((card) => card.querySelectorAll(":scope > .name, :scope > .type, :scope > .cost > *, :scope > .stats > *, :scope > .piece-owner")),
        ...[...document.querySelectorAll(".square")].map((square) => square.querySelectorAll(":scope > .coord, :scope > .card")),
      ];
      for (const parts of groups) {
        const shown = [...parts].filter((e) => e.checkVisibility());
        for (let i = 0; i < shown.length; i++) {
          for (let j = i + 1; j < shown.length; j++) {
            if (meet(shown[i].getBoundingClientRect(), shown[j].getBoundingClientRect())) overlaps.push(`${named(shown[i])} over ${named(shown[j])}`);
          }
        }
      }
      // Content wider than its box spills out of it, or is cut off by it.
      for (const e of document.querySelectorAll(".card, .card > *, .gname, button, .coord, .piece-owner")) {
        if (e.checkVisibility() && e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1) clipped.push(named(e));
      }
      return { overlaps: overlaps.slice(0, 8), clipped: clipped.slice(0, 8) };
    }

    /**
     * Text that does not stand out from what it is drawn on: a contrast under 4.5 to 1
     * (WCAG AA) against the nearest background, or against the worst colour of a pattern.
     */
    function illegibleText() {
      const rgb = (text) => (text.match(/rgba?\([^)]*\)/g) ?? []).map((c) => c.match(/[\d.]+/g).map(Number)).filter((c) => c.length < 4 || c[3] > 0);
      const luminance = ([r, g, b]) => {
        const lin = (v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
        return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
      };
      const contrast = (a, b) => {
        const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
        return (x + 0.05) / (y + 0.05);
      };
      const found = [];
      const seen = new Set();
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      while (walker.nextNode()) {
        const element = walker.currentNode.parentElement;
        if (!walker.currentNode.data.trim() || seen.has(element) || !element.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
        seen.add(element);
        let faded = false;
        let behind = null;
        for (let e = element; e !== null && behind === null; e = e.parentElement) {
          const style = getComputedStyle(e);
          if (Number(style.opacity) < 1) faded = true; // a disabled control: dimmed on purpose
          const image = rgb(style.backgroundImage);
          const color = rgb(style.backgroundColor);
          if (image.length > 0) behind = image;
          else if (color.length > 0) behind = color;
        }
        if (faded) continue;
        const ink = rgb(getComputedStyle(element).color)[0];
        const worst = Math.min(...(behind ?? [[255, 255, 255]]).map((b) => contrast(ink, b)));
        if (worst < 4.5) found.push(`"${element.textContent.trim().slice(0, 30)}" (${element.tagName.toLowerCase()}.${[...element.classList].join(".")}): ${worst.toFixed(2)} to 1`);
      }
      return found.slice(0, 8);
    }
  });
}

/** Words no screen shows: JavaScript's empty values, raw protocol values, addresses printed as text. */
const BAD_TEXT = [
  { pattern: /\b(null|undefined|NaN)\b/g, what: "an empty value" },
  { pattern: /\[object \w+\]/g, what: "an object printed as text" },
  { pattern: /\b\w+_\w+\b/g, what: "a raw protocol value (a word with an underscore)" },
  { pattern: /\b(open|playing|over|layout|play|place|replace|declare|pickup|discard) \([a-z_]+\)/g, what: "a raw status in parentheses" },
  { pattern: /https?:\/\/\S+/g, what: "an address printed as text" },
];

/**
 * Fail on the words of BAD_TEXT in `text`. `allowNull` is how many times the word
 * "null" may appear (the rules name JSON's null in their prose).
 */
export function assertCleanText(text, where, { allowNull = 0 } = {}) {
  for (const { pattern, what } of BAD_TEXT) {
    let found = [...text.matchAll(pattern)].map((m) => m[0]);
    if (allowNull > 0 && what === "an empty value") {
      const nulls = found.filter((word) => word === "null").length;
      assert.ok(nulls <= allowNull, `${where}: "null" ${nulls} times, the source says it ${allowNull} times`);
      found = found.filter((word) => word !== "null");
    }
    if (found.length > 0) {
      const at = text.indexOf(found[0]);
      assert.fail(`${where}: ${what}: ${JSON.stringify(found.slice(0, 5))} in "…${text.slice(Math.max(0, at - 80), at + 80)}…"`);
    }
  }
}

/** Lay the page out at `width` and wait until it has been drawn so. */
export async function resize(page, width) {
  await page.setViewportSize({ width, height: HEIGHT });
  await page.waitForFunction((w) => window.innerWidth === w, width, { polling: 20 });
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

/**
 * The screen at every width of WIDTHS: no sideways scrolling, no bad text (unless
 * `text` is false: a document about the protocol names its values), no card labels
 * overlapping or cut off, no text hard to read, and a screenshot `<name>-<width>.png`
 * in screenshots/. Returns the last reading; the page is left at the width it had, in
 * front of the browser's other tabs.
 */
export async function checkScreen(page, name, { allowNull = 0, fullPage = true, text = true } = {}) {
  const before = page.viewportSize();
  await page.bringToFront(); // a tab in the background gets few animation frames: layout and screenshots wait for them
  let reading;
  try {
    for (const width of WIDTHS) {
      await resize(page, width);
      reading = await readScreen(page);
      assert.ok(reading.overflow <= 0, `${name} at ${width} px scrolls sideways by ${reading.overflow} px: ${reading.wide.join(", ")}`);
      if (text) assertCleanText(reading.text, `${name} at ${width} px`, { allowNull });
      assert.deepEqual(reading.overlaps, [], `${name} at ${width} px: labels of a card overlap`);
      assert.deepEqual(reading.clipped, [], `${name} at ${width} px: text cut off`);
      assert.deepEqual(reading.illegible, [], `${name} at ${width} px: text hard to read on its background`);
      await page.screenshot({ path: screenshotPath(`${name}-${width}`), fullPage });
    }
  } finally {
    if (before !== null) await resize(page, before.width);
  }
  return reading;
}

/** The lines of a game screen's "What happened", newest first. */
export function storyLines(page) {
  return page.locator(".story .log li").allInnerTexts();
}
