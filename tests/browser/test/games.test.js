// Each of the four games played to its end through the web client, by clicking what
// the page offers, against a bot on the server, two of them on a phone-wide page; a
// spectator tab beside it that must show nothing hidden; a reload in the middle that
// must resume where it was, with its story; a spectator who comes late and must read
// the same story as the one who watched from the start; the result in sight when the
// game ends below the fold. Every screen is read at 390 and 1366 px: no sideways
// scrolling, no empty or raw values, and a screenshot of each (tests/browser/screenshots/,
// kept by CI).

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";

import {
  Server,
  checkScreen,
  clickAndWait,
  createSeated,
  launch,
  openPage,
  resize,
  startBot,
  status,
  storyLines,
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

/** Each game, the width it is played at, and the decisions at which the page is read and reloaded. */
const GAMES = [
  { game: "day_night", seed: 11, width: 390, screenshotAt: 2, reloadAt: 1 },
  { game: "mishra_factory", seed: 12, width: 1366, screenshotAt: 6, reloadAt: 4 },
  { game: "wedding_planner", seed: 13, width: 1366, screenshotAt: 5, reloadAt: 3 },
  { game: "base_race", seed: 14, width: 390, screenshotAt: 1, reloadAt: 1 },
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

  for (const { game, seed, width, screenshotAt, reloadAt } of GAMES) {
    test(`${game} at ${width} px: a whole game by clicking, a spectator who sees nothing hidden, a reload and a late spectator with the story, every screen at both widths`, async () => {
      const problems = [];
      const created = await createSeated(server, game, 2, seed);
      const [mine, theirs] = created.grants;
      const bot = startBot(server, created.game_id, theirs.token, seed);
      const player = await openPage(browser.context, `${server.base}/play/#/game/${created.game_id}?token=${mine.token}`, problems);
      await resize(player, width);
      const spectator = await openPage(browser.context, `${server.base}/play/#/watch/${created.game_id}`, problems);
      let late = null;
      await player.bringToFront(); // a tab in the background gets few animation frames: clicks would wait for them
      try {
        let steps = 0;
        const seen = { screenshot: false, reload: false };
        for (; steps < MAX_STEPS; steps++) {
          const now = await waitForTurn(player);
          if (now.over === "true") break;
          if (steps === screenshotAt) {
            const reading = await checkScreen(player, `${game}-player`);
            if (game === "mishra_factory") {
              // Where the groups are shown, the page says which group a card may join (MF-1).
              assert.match(reading.text, /a land is wild and may join any of the six groups, colorless included/);
            }
            await spectatorSeesNothingHidden(server, created, spectator);
            assert.equal(await spectator.locator(".moves").count(), 0, "a spectator has no \"Your moves\"");
            await checkScreen(spectator, `${game}-spectator`);
            late = await openPage(browser.context, `${server.base}/play/#/watch/${created.game_id}`, problems);
            await lateSpectatorReadsTheStory(server, created, spectator, late);
            await checkScreen(late, `${game}-late-spectator`);
            await player.bringToFront();
            seen.screenshot = true;
          }
          if (steps === reloadAt) {
            await reloadResumes(player);
            await checkScreen(player, `${game}-reloaded`);
            seen.reload = true;
          }
          const started = Date.now();
          await STRATEGIES[game](player, now.version);
          // The next decision, or the end, comes with the page scrolled to its bottom (unless it came already).
          await player.evaluate(() => document.body.dataset.over === "true" || window.scrollTo(0, document.documentElement.scrollHeight));
          if (process.env.PACKPLAY_DEBUG_STEPS) console.log(game, steps, now.version, Date.now() - started, "ms");
        }
        assert.ok(steps < MAX_STEPS, `${game}: no end after ${MAX_STEPS} clicks`);
        const happened = await player.locator(".log").first().innerText();
        assert.deepEqual(seen, { screenshot: true, reload: true }, `${game}: the game ended after ${steps} decisions, before the checks mid-game:\n${happened}`);
        await player.locator("#result").waitFor();
        await resultInSight(player);
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
        await late.locator("#result").waitFor();
        // The end at both widths, for the player and for the spectator.
        await checkScreen(player, `${game}-over`);
        await checkScreen(spectator, `${game}-over-spectator`);
        if (game === "day_night") await lastRoundShown(server, created, player, spectator);
        assert.deepEqual(problems, []);
      } finally {
        bot.stop();
        await player.close();
        await spectator.close();
        await late?.close();
      }
    });
  }
});

describe("a game further along than the server replays", () => {
  let server;
  let browser;
  before(async () => {
    // The server sends the events of at most 4 versions on joining: a whole game is longer.
    server = await Server.start({ env: { PACKPLAY_CATCH_UP_VERSIONS: "4" } });
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  test("a spectator who comes after the end reads a note instead of the story, and Day vs Night points to the replay", async () => {
    const created = await createSeated(server, "day_night", 2, 15);
    const bots = created.grants.map((grant, i) => startBot(server, created.game_id, grant.token, 40 + i));
    for (const bot of bots) assert.equal((await bot.done).code, 0);
    const problems = [];
    const page = await openPage(browser.context, `${server.base}/play/#/watch/${created.game_id}`, problems);
    await page.locator("#result").waitFor();
    assert.ok(Number((await status(page)).version) > 4, "the game is longer than the server replays");
    assert.match(await page.locator(".story .story-note").innerText(), /too far along/);
    assert.equal(await page.locator(".story li").count(), 0);
    assert.match(await page.locator(".last-round").innerText(), /further along than the server replays/);
    await checkScreen(page, "day_night-too-far-along");
    await page.goto(`${server.base}/play/#/replay/${created.game_id}`);
    await page.locator(".steps li").first().waitFor();
    assert.match(await page.locator(".last-round").innerText(), /further along than the server replays/);
    assert.deepEqual(problems, []);
    await page.close();
  });
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

/** A reload shows the same game again, from the server, at the version held or later, and the same story. */
async function reloadResumes(player) {
  const before = await status(player);
  const cardsBefore = await player.evaluate(() => [...document.querySelectorAll(".mine [data-card-id], .hand [data-card-id]")].map((e) => e.dataset.cardId).sort());
  const storyBefore = await storyLines(player);
  assert.ok(storyBefore.length > 0, "the page tells what happened before the reload");
  await player.reload();
  const after = await waitForTurn(player);
  assert.ok(Number(after.version) >= Number(before.version), "the reloaded page is not behind");
  const storyAfter = await storyLines(player);
  assert.ok(storyAfter.length > 0, "after a reload, \"What happened\" is not empty");
  if (after.version === before.version) {
    const cardsAfter = await player.evaluate(() => [...document.querySelectorAll(".mine [data-card-id], .hand [data-card-id]")].map((e) => e.dataset.cardId).sort());
    assert.deepEqual(cardsAfter, cardsBefore, "the reloaded page shows the seat's same cards");
    assert.deepEqual(storyAfter, storyBefore, "the reloaded page tells the same story");
  }
}

/** Wait until every page shows the same version of the game (the bot may still be moving). */
async function sameVersion(pages) {
  for (let tries = 0; tries < 50; tries++) {
    const versions = await Promise.all(pages.map(async (page) => Number((await status(page)).version ?? -1)));
    const highest = Math.max(...versions);
    if (versions.every((v) => v === highest)) return highest;
    await Promise.all(pages.map((page) => page.waitForFunction((v) => Number(document.body.dataset.version) >= v, highest, { timeout: 30_000, polling: 50 })));
  }
  throw new Error("the pages never showed the same version");
}

/**
 * A spectator who opens the game mid-way reads what happened since the deal (the
 * catch-up the server sends on joining): the very lines of the spectator who has
 * watched from the start, at the same version.
 */
async function lateSpectatorReadsTheStory(server, created, early, late) {
  await late.locator(".story").waitFor();
  const version = await sameVersion([early, late]);
  assert.ok(version > 0, "the game has begun");
  const [earlyLines, lateLines] = await Promise.all([storyLines(early), storyLines(late)]);
  assert.ok(lateLines.length > 0, "a late spectator's \"What happened\" is not empty");
  assert.deepEqual(lateLines, earlyLines, "a late spectator reads the story of one who watched from the start");
  assert.equal(await late.locator(".story-note").count(), 0, "the whole story is told: no note of a missing start");
  await spectatorSeesNothingHidden(server, created, late);
}

/** When the game ends with the page scrolled down, the result is in sight. */
async function resultInSight(page) {
  await page.waitForFunction(() => {
    const box = document.getElementById("result").getBoundingClientRect();
    return box.top >= -1 && box.bottom <= window.innerHeight + 1;
  }, null, { timeout: 5_000 }).catch(async (error) => {
    const where = await page.evaluate(() => ({ top: document.getElementById("result").getBoundingClientRect().top, scrollY, innerHeight }));
    throw new Error(`the result is out of sight: ${JSON.stringify(where)}`, { cause: error });
  });
}

/**
 * Day vs Night's end shows its last round as played: as many pairs as the last row
 * placed had cards (read from the replay), each with its outcome; never "rows of 0"
 * or "No row placed yet". The replay's table at the end shows it too.
 */
async function lastRoundShown(server, created, ...pages) {
  const replay = await server.rest("GET", `/v2/games/${created.game_id}/replay`);
  const k = replay.log.filter((entry) => entry.action.type === "day_night.place").at(-1).action.cards.length;
  for (const page of pages) {
    const text = await page.locator("#main").innerText();
    assert.doesNotMatch(text, /rows of 0|No row placed yet/);
    assert.equal(await page.locator(".last-round .slot-pair").count(), k, "the last round's pairs");
    const outcomes = await page.locator(".last-round .slot-pair .outcome").allInnerTexts();
    assert.ok(outcomes.every((o) => /^(day wins|night wins|tie)$/.test(o)), outcomes.join(", "));
  }
  const page = pages[0];
  await page.goto(`${server.base}/play/#/replay/${created.game_id}`);
  await page.locator(".steps li").first().waitFor();
  assert.equal(await page.locator(".last-round .slot-pair").count(), k, "the replay's table at the end shows the last round");
  await checkScreen(page, "day_night-replay");
}
