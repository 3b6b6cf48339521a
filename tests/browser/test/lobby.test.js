// The lobby, the rules and the replay viewer in a real browser: from the front page to
// /play, a public game created with the form and joined from the open list of its
// type by a second browser, the rules panel in three languages, the rules page with
// its pickers switching language and game, and a finished game stepped through in the
// replay viewer. The lobby, the waiting screen, every rules page and the replay are
// read at 390 and 1366 px (no sideways scrolling, no empty or raw values, a
// screenshot of each). The vendored Markdown renderer is checked too.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, test } from "node:test";

import { Server, checkScreen, createSeated, launch, openPage, startBot } from "../support.js";

const WEB = new URL("../../../server/packplay/server/http/web/play/", import.meta.url);

test("the vendored copy of marked is the pinned package's ES module build", () => {
  const pinned = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).devDependencies.marked;
  const installed = JSON.parse(readFileSync(new URL("../node_modules/marked/package.json", import.meta.url), "utf8"));
  assert.equal(installed.version, pinned);
  const copy = (name) => readFileSync(new URL(`vendor/${name}`, WEB));
  const source = (name) => readFileSync(new URL(`../node_modules/marked/${name}`, import.meta.url));
  assert.ok(copy("marked.esm.js").equals(source("lib/marked.esm.js")), "copy lib/marked.esm.js into web/play/vendor/");
  assert.ok(copy("marked.LICENSE").equals(source("LICENSE")));
});

/** How many times a Markdown text says "null" outside code. */
function proseNulls(markdown) {
  return markdown.replace(/```[\s\S]*?```/g, "").replace(/`[^`]*`/g, "").match(/\bnull\b/g)?.length ?? 0;
}

describe("lobby, rules and replays", () => {
  let server;
  let first;
  let second;
  before(async () => {
    server = await Server.start();
    [first, second] = await Promise.all([launch(), launch()]);
  });
  after(async () => {
    await first?.close();
    await second?.close();
    await server?.stop();
  });

  test("create a public game with the form, join it from the lobby in another browser, read the rules", async () => {
    const problems = [];
    const ada = await openPage(first.context, `${server.base}/`, problems);
    await ada.getByRole("link", { name: "Open the web client" }).click();
    await ada.getByRole("heading", { name: "Lobby" }).waitFor();
    assert.deepEqual(await ada.locator('select[name="visibility"] option').allTextContents(), ["public", "private (by invite link)"]);
    await ada.selectOption('select[name="game"]', "mishra_factory");
    await ada.selectOption('select[name="players"]', "2");
    await ada.fill('input[name="name"]', "Ada");
    await ada.fill('input[name="clock"]', "300");
    await ada.getByRole("button", { name: "Create and take a seat" }).click();
    await ada.locator(".waiting").waitFor();
    const gameId = new URL(ada.url()).hash.split("/")[2];
    assert.match(gameId, /^[\w-]+$/);
    const waiting = await checkScreen(ada, "waiting");
    assert.match(waiting.text, /Waiting for players: 1 of 2 seats taken\. .* Leave my seat$/);

    const bea = await openPage(second.context, `${server.base}/play/`, problems);
    await bea.getByRole("button", { name: "Mishra's Factory" }).click();
    const row = bea.locator(`tr[data-game-id="${gameId}"]`);
    await row.waitFor();
    assert.match(await row.textContent(), /Ada, \(free\)/);
    await checkScreen(bea, "lobby");
    bea.once("dialog", (dialog) => dialog.accept("Bea"));
    await row.locator("button.join").click();
    for (const page of [ada, bea]) await page.locator(".game-head").waitFor();
    assert.match(await ada.locator(".game-head").textContent(), /you are Ada \(seat 0\)/);
    assert.match(await bea.locator(".game-head").textContent(), /you are Bea \(seat 1\)/);
    // The turn clock of the game, counted down by the page.
    for (const page of [ada, bea]) {
      const clock = await page.locator(".game-head .clock").textContent();
      const left = Number(clock.match(/^clock: (\d+) s left$/)?.[1]);
      assert.ok(left > 0 && left <= 300, clock);
    }

    // The rules, one click away, in English, French and Spanish.
    await ada.locator("button.rules-button").click();
    const panel = ada.locator("#rules-panel");
    await panel.waitFor();
    for (const lang of ["en", "fr", "es"]) {
      const markdown = await fetch(`${server.base}/v2/rules/mishra_factory?lang=${lang}`).then((r) => r.text());
      const title = markdown.split("\n")[0].replace(/^# /, "");
      await ada.selectOption("#rules-lang", lang);
      await ada.locator("#rules-text h1", { hasText: title }).waitFor();
      const ruling = await ada.locator("#rules-text #mf-2").count();
      assert.equal(ruling, 1, `${lang}: the ruling MF-2 has its anchor`);
    }
    // The panel over the game, at both widths (the rules name JSON's null in their prose).
    const panelText = await fetch(`${server.base}/v2/rules/mishra_factory?lang=es`).then((r) => r.text());
    await checkScreen(ada, "rules-panel", { allowNull: proseNulls(panelText), fullPage: false });
    // The rules and the protocol guide as pages of their own.
    await ada.goto(`${server.base}/play/#/rules/base_race?lang=es`);
    const spanish = await fetch(`${server.base}/v2/rules/base_race?lang=es`).then((r) => r.text());
    await ada.locator("article.markdown h1", { hasText: spanish.split("\n")[0].replace(/^# /, "") }).waitFor();
    await ada.goto(`${server.base}/play/#/doc/protocol`);
    await ada.locator("article.markdown h1", { hasText: "The Packplay protocol" }).waitFor();
    await checkScreen(ada, "protocol", { text: false, fullPage: false });
    assert.deepEqual(problems, []);
  });

  test("the rules page: its pickers switch the language and the game, in English, French and Spanish", async () => {
    const problems = [];
    const page = await openPage(first.context, `${server.base}/play/#/rules/common?lang=en`, problems);
    const markdown = (game, lang) => fetch(`${server.base}/v2/rules/${game}?lang=${lang}`).then((r) => r.text());
    const pages = ["common", "day_night", "mishra_factory", "wedding_planner", "base_race"];
    const languages = { en: "English", fr: "Français", es: "Español" };
    const picker = page.locator("nav.rules-picker");
    await picker.waitFor();
    const titles = await picker.locator(".game-list a").allInnerTexts();
    assert.deepEqual(titles, ["Common rules", "Day vs Night", "Mishra's Factory", "Vampire Wedding Planner", "Base Race"]);
    assert.equal(await picker.innerText().then((t) => t.replace(/\s+/g, " ")), `Language: English Français Español Rules: ${titles.join(" ")}`);
    let game = "common";
    for (const [lang, language] of Object.entries(languages)) {
      await picker.getByRole("link", { name: language, exact: true }).click();
      for (const next of pages) {
        if (next !== game) await picker.getByRole("link", { name: titles[pages.indexOf(next)], exact: true }).click();
        game = next;
        const source = await markdown(game, lang);
        await page.locator("main article.markdown h1", { hasText: source.split("\n")[0].replace(/^# /, "") }).waitFor();
        assert.equal(new URL(page.url()).hash, `#/rules/${game}?lang=${lang}`);
        assert.deepEqual(await picker.locator('a[aria-current="page"]').allInnerTexts(), [language, titles[pages.indexOf(game)]]);
        assert.equal(await page.locator("main article.markdown").getAttribute("lang"), lang);
        // The rules name JSON's null in their prose: the page says it no more often.
        await checkScreen(page, `rules-${game}-${lang}`, { allowNull: proseNulls(source), fullPage: false });
      }
    }
    assert.deepEqual(problems, []);
    await page.close();
  });

  test("a private game is not listed; its invite link seats whoever opens it", async () => {
    const problems = [];
    const ada = await openPage(first.context, `${server.base}/play/`, problems);
    await ada.getByRole("heading", { name: "Lobby" }).waitFor();
    await ada.selectOption('select[name="game"]', "day_night");
    await ada.selectOption('select[name="visibility"]', "private");
    await ada.fill('input[name="name"]', "Ada");
    await ada.getByRole("button", { name: "Create and take a seat" }).click();
    await ada.locator(".waiting").waitFor();
    const gameId = new URL(ada.url()).hash.split("/")[2];
    const link = await ada.locator("input.invite").inputValue();
    assert.ok(link.includes(`#/invite/${gameId}/`), link);
    const open = await server.rest("GET", "/v2/games");
    assert.ok(!open.games.some((g) => g.game_id === gameId), "a private game is not listed");

    const bea = await openPage(second.context, `${server.base}/play/`, problems);
    await bea.getByRole("heading", { name: "Lobby" }).waitFor();
    bea.once("dialog", (dialog) => dialog.accept("Bea"));
    await bea.goto(link);
    for (const page of [ada, bea]) await page.locator(".game-head").waitFor();
    assert.match(await bea.locator(".game-head").textContent(), /you are Bea \(seat 1\)/);
    assert.deepEqual(problems, []);
  });

  test("a finished game is listed with its replay, which steps through every action", async () => {
    const created = await createSeated(server, "wedding_planner", 2, 21);
    const bots = created.grants.map((grant, i) => startBot(server, created.game_id, grant.token, 30 + i));
    for (const bot of bots) assert.equal((await bot.done).code, 0);
    const replay = await server.rest("GET", `/v2/games/${created.game_id}/replay`);
    const problems = [];
    const page = await openPage(first.context, `${server.base}/play/#/`, problems);
    await page.getByRole("button", { name: "Vampire Wedding Planner" }).click();
    const row = page.locator(`tr[data-game-id="${created.game_id}"]`);
    await row.locator("a.replay").click();
    await page.locator(".steps li").first().waitFor();
    assert.equal(await page.locator(".steps li").count(), replay.log.length);
    assert.match(await page.locator("#result").textContent(), /won|draw/);
    await page.locator("button.first").click();
    assert.equal(await page.locator(".step-label").textContent(), `step 0 of ${replay.log.length}`);
    // Step 0 is the export's explicit set-up, every zone with its cards by name.
    const dealt = await page.locator(".deal li").allTextContents();
    assert.equal(dealt[0], `first seat: seat ${replay.deal.first_seat}`);
    assert.ok(dealt.some((line) => line.startsWith("themes: ")), dealt.join(" | "));
    assert.ok(dealt.join(" ").includes(replay.cards[replay.deal.discard[0]].name), dealt.join(" | "));
    for (let step = 1; step <= 3; step++) {
      await page.locator("button.next").click();
      await page.locator(".step-events li").first().waitFor();
      assert.match(await page.locator(".step-detail h3").textContent(), new RegExp(`Step ${step}: version ${step}`));
      const events = await page.locator(".step-events li").allTextContents();
      assert.ok(events.length > 0);
      // Each step's events are those of its action: a draw or take, then a discard.
      const kind = replay.log[step - 1].action.type.split(".")[1];
      const verb = { draw: "drew", take: "took", discard: "discarded" }[kind];
      assert.ok(events.some((line) => line.includes(verb)), `${kind}: ${events.join(" | ")}`);
    }
    await checkScreen(page, "replay");
    // The controls' marks are in every font (Latin-1 and WGL4 punctuation, no media symbols).
    for (const label of await page.locator(".replay-controls button").allInnerTexts()) {
      assert.match(label, /^[\u0020-\u00ff\u2013-\u203a]+$/, `a replay button's label: ${label}`);
    }
    await page.locator("button.last").click();
    assert.equal(await page.locator(".step-label").textContent(), `step ${replay.log.length} of ${replay.log.length}`);
    // The table at the end shows every hand, as the final spectator view does.
    assert.ok((await page.locator(".wedding .seat").count()) === 2);
    assert.deepEqual(problems, []);
  });
});
