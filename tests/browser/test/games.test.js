// Each of the four games played to its end through the web client, by clicking what
// the page offers, against a bot on the server; a spectator tab beside it that must
// show nothing hidden; a reload in the middle that must resume where it was; and a
// screenshot of each game screen mid-play (tests/browser/screenshots/, kept by CI).

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";

import {
  Server,
  clickAndWait,
  createSeated,
  launch,
  openPage,
  screenshotPath,
  startBot,
  status,
  waitForTurn,
} from "../support.js";

const MAX_STEPS = 400; // clicks; far above any game's length

/** How a player plays each game by clicking: one decision per call. */
const STRATEGIES = {
  async day_night(page, version) {
    const picks = page.locator(".hand .card.pick");
    if ((await picks.count()) > 0) {
      const need = await page.evaluate(() => Number(document.querySelector(".moves .choice p").textContent.match(/pick (\d+)/)[1]));
      for (let i = 0; i < need; i++) await picks.nth(i).click();
      return clickAndWait(page, page.locator("button.place"), version);
    }
    const replace = page.locator(".hand .card.act");
    if ((await replace.count()) > 0) return clickAndWait(page, replace.first(), version);
    return clickAndWait(page, page.locator(".day-night button.act").first(), version);
  },
  async mishra_factory(page, version) {
    // Alternate: a free front card, then a back card paid for with a collected one.
    const group = page.locator(".belt button.act");
    const count = await group.count();
    const button = group.nth(Number(version) % 4 === 2 ? count - 1 : 0);
    if ((await button.textContent()).includes("pick a card to pay")) {
      await button.click();
      return clickAndWait(page, page.locator(".collection.mine .card.act").first(), version);
    }
    return clickAndWait(page, button, version);
  },
  async wedding_planner(page, version) {
    const discard = page.locator(".seat.mine .card.act");
    if ((await discard.count()) > 0) return clickAndWait(page, discard.first(), version);
    const take = page.locator(".discard-pile .card.act");
    if ((await take.count()) > 0 && Number(version) % 3 === 0) return clickAndWait(page, take.last(), version);
    return clickAndWait(page, page.locator(".draw-pile.act"), version);
  },
  async base_race(page, version) {
    const picks = page.locator(".hand .card.pick");
    if ((await picks.count()) > 0) {
      // Lands first: seat 0's first four cards go to its back row, far from attackers.
      const lands = page.locator(".hand .card.pick:not(.picked)", { hasText: "Land" });
      while ((await lands.count()) > 0) await lands.first().click();
      while ((await page.locator(".hand .card.pick:not(.picked)").count()) > 0) {
        await page.locator(".hand .card.pick:not(.picked)").first().click();
      }
      return clickAndWait(page, page.locator("button.lay-out"), version);
    }
    // Early on, move a card onto an empty square when one can; later, or when none can, battle.
    const movers = page.locator(".board .card.act");
    for (let i = 0; Number(version) < 16 && i < (await movers.count()); i++) {
      await movers.nth(i).click();
      const empty = page.locator(".square.target:not(:has(.card))");
      if ((await empty.count()) > 0) return clickAndWait(page, empty.first(), version);
      await movers.nth(i).click(); // unselect
    }
    await movers.first().click();
    return clickAndWait(page, page.locator(".square.target").first(), version);
  },
};

const GAMES = [
  { game: "day_night", seed: 11, screenshotAt: 2, reloadAt: 1 },
  { game: "mishra_factory", seed: 12, screenshotAt: 6, reloadAt: 4 },
  { game: "wedding_planner", seed: 13, screenshotAt: 5, reloadAt: 3 },
  { game: "base_race", seed: 14, screenshotAt: 1, reloadAt: 1 },
];

describe("the web client plays every game to its end", () => {
  let server;
  let browser;
  before(async () => {
    server = await Server.start();
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const { game, seed, screenshotAt, reloadAt } of GAMES) {
    test(`${game}: a whole game by clicking, a spectator who sees nothing hidden, a reload that resumes`, async () => {
      const problems = [];
      const created = await createSeated(server, game, 2, seed);
      const [mine, theirs] = created.grants;
      const bot = startBot(server, created.game_id, theirs.token, seed);
      const player = await openPage(browser.context, `${server.base}/play/#/game/${created.game_id}?token=${mine.token}`, problems);
      const spectator = await openPage(browser.context, `${server.base}/play/#/watch/${created.game_id}`, problems);
      await player.bringToFront(); // a tab in the background gets few animation frames: clicks would wait for them
      try {
        let steps = 0;
        const seen = { screenshot: false, reload: false };
        for (; steps < MAX_STEPS; steps++) {
          const now = await waitForTurn(player);
          if (now.over === "true") break;
          if (steps === screenshotAt) {
            await player.screenshot({ path: screenshotPath(game), fullPage: true });
            await spectatorSeesNothingHidden(server, created, spectator);
            await spectator.screenshot({ path: screenshotPath(`${game}-spectator`), fullPage: true });
            await player.bringToFront();
            seen.screenshot = true;
          }
          if (steps === reloadAt) {
            await reloadResumes(player);
            seen.reload = true;
          }
          const started = Date.now();
          await STRATEGIES[game](player, now.version);
          if (process.env.PACKPLAY_DEBUG_STEPS) console.log(game, steps, now.version, Date.now() - started, "ms");
        }
        assert.ok(steps < MAX_STEPS, `${game}: no end after ${MAX_STEPS} clicks`);
        const happened = await player.locator(".log").first().innerText();
        assert.deepEqual(seen, { screenshot: true, reload: true }, `${game}: the game ended after ${steps} decisions, before the checks mid-game:\n${happened}`);
        await player.locator("#result").waitFor();
        const { code, output } = await bot.done;
        assert.equal(code, 0, `the bot failed: ${output}`);
        const outcome = JSON.parse(output.trim().split("\n").at(-1));
        const resultText = await player.locator("#result").textContent();
        assert.match(resultText, /won|draw/i);
        assert.ok(outcome.result ?? outcome, "the bot saw the end");
        // The spectator's page reached the end too, and shows the same result.
        await spectator.locator("#result").waitFor().catch(async (error) => {
          const state = await spectator.evaluate(() => ({ ...document.body.dataset, text: document.getElementById("main").innerText.slice(0, 600) }));
          throw new Error(`the spectator's page did not show the end: ${JSON.stringify(state)} ${problems.join("; ")}`, { cause: error });
        });
        assert.equal(await spectator.locator("#result strong").textContent(), await player.locator("#result strong").textContent());
        assert.deepEqual(problems, []);
      } finally {
        bot.stop();
        await player.close();
        await spectator.close();
      }
    });
  }
});

/**
 * The spectator's page names only cards a spectator may know: every card id on it is
 * in the spectator's card table (read from the server), and none of the cards only a
 * seat knows (in the seat's table, not in the spectator's) appears, by id or by name.
 */
async function spectatorSeesNothingHidden(server, created, spectator) {
  await spectator.waitForFunction((v) => Number(document.body.dataset.version) >= v, 0);
  const shown = await spectator.evaluate(() => ({
    version: Number(document.body.dataset.version),
    ids: [...document.querySelectorAll("[data-card-id]")].map((e) => e.dataset.cardId),
    text: document.body.innerText,
  }));
  const watcher = await server.rest("GET", `/v2/games/${created.game_id}`);
  const known = new Set(Object.keys(watcher.state.cards));
  for (const id of shown.ids) assert.ok(known.has(id), `the spectator's page shows card ${id}, which spectators may not know`);
  const knownNames = new Set(Object.values(watcher.state.cards).map((c) => c.name));
  for (const grant of created.grants) {
    const seat = await fetch(`${server.base}/v2/games/${created.game_id}`, { headers: { authorization: `Bearer ${grant.token}` } }).then((r) => r.json());
    const hidden = Object.values(seat.state.cards).filter((card) => !known.has(card.id));
    for (const card of hidden) {
      assert.ok(!shown.ids.includes(card.id), `the spectator's page shows ${card.id}, a card of seat ${grant.seat} only`);
      if (!knownNames.has(card.name)) {
        assert.ok(!shown.text.includes(card.name), `the spectator's page names ${card.name}, a card of seat ${grant.seat} only`);
      }
    }
  }
}

/** A reload shows the same game again, from the server, at the version held or later. */
async function reloadResumes(player) {
  const before = await status(player);
  const cardsBefore = await player.evaluate(() => [...document.querySelectorAll(".mine [data-card-id], .hand [data-card-id]")].map((e) => e.dataset.cardId).sort());
  await player.reload();
  const after = await waitForTurn(player);
  assert.ok(Number(after.version) >= Number(before.version), "the reloaded page is not behind");
  if (after.version === before.version) {
    const cardsAfter = await player.evaluate(() => [...document.querySelectorAll(".mine [data-card-id], .hand [data-card-id]")].map((e) => e.dataset.cardId).sort());
    assert.deepEqual(cardsAfter, cardsBefore, "the reloaded page shows the seat's same cards");
  }
}
