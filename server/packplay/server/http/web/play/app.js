// The Packplay web client: a lobby, one screen per game, a replay viewer, the rules.
//
// Plain ES modules, no build step. Everything the server says goes through the
// JavaScript SDK (./sdk/, the package in clients/js): the REST lobby helpers and a
// PackplayClient that keeps the seat's exact view from the server's updates and
// reconnects by itself. A screen shows the view it holds and nothing else, so a
// spectator sees exactly what the server lets spectators see.
//
// Routes (the part of the address after #):
//   #/                      the lobby
//   #/game/<id>             play the seat whose token this browser keeps for <id>
//   #/game/<id>?token=<t>   keep token <t> for <id> first (a seat link), then play
//   #/watch/<id>            watch as a spectator
//   #/invite/<id>/<code>    take a seat of a private game with its invite code, then play
//   #/replay/<id>           step through a finished game
//   #/rules/<page>          a page of the rules reference (common, or a game's name)
//   #/doc/protocol          the protocol guide

import { GAME_TYPES, PackplayClient, PackplayRest, checkChoice, fillChoice } from "./sdk/index.js";
import { cardLabel, h } from "./cards.js";
import { battleKind, endReason, words } from "./words.js";
import { renderMarkdown } from "./markdown.js";
import * as dayNight from "./games/day_night.js";
import * as mishraFactory from "./games/mishra_factory.js";
import * as weddingPlanner from "./games/wedding_planner.js";
import * as baseRace from "./games/base_race.js";

const SCREENS = {
  day_night: dayNight,
  mishra_factory: mishraFactory,
  wedding_planner: weddingPlanner,
  base_race: baseRace,
};
const rest = new PackplayRest(location.origin);

/**
 * A client whose first `join` asks for the game's story: `from_version: 0` (the deal)
 * makes the server send every event the audience may see since the deal, as an
 * `events` message before the view, unless the game is further along than the server
 * replays (`catch_up_versions`). A reconnect joins from the version held, as the SDK does.
 */
class StoryClient extends PackplayClient {
  join(gameId, { role = "player", fromVersion = null } = {}) {
    super.join(gameId, { role, fromVersion: fromVersion ?? 0 });
  }
}

const main = document.getElementById("main");

/** What the current route set up (timers, connections), undone on the next route. */
let cleanup = [];

// ---------------------------------------------------------------------------
// Seats this browser holds: game id -> {token, seat, name}

function seats() {
  try {
    return JSON.parse(localStorage.getItem("packplay.seats") ?? "{}");
  } catch {
    return {};
  }
}

function keepSeat(gameId, grant) {
  const all = seats();
  all[gameId] = grant;
  localStorage.setItem("packplay.seats", JSON.stringify(all));
}

function playerName() {
  return localStorage.getItem("packplay.name") ?? "";
}

// ---------------------------------------------------------------------------
// Routing

function route() {
  for (const undo of cleanup) undo();
  cleanup = [];
  const [path, query = ""] = location.hash.replace(/^#/, "").split("?");
  const params = new URLSearchParams(query);
  const parts = path.split("/").filter(Boolean);
  main.replaceChildren();
  try {
    if (parts.length === 0) return lobby();
    const [kind, id] = parts;
    if (kind === "game" && id) {
      if (params.has("token")) {
        keepSeat(id, { token: params.get("token"), seat: null, name: null });
        history.replaceState(null, "", `#/game/${id}`);
      }
      return gameScreen(id, "player");
    }
    if (kind === "watch" && id) return gameScreen(id, "spectator");
    if (kind === "invite" && id && parts[2]) return joinGame({ game_id: id }, parts[2]);
    if (kind === "replay" && id) return replayScreen(id);
    if (kind === "rules" && id) return rulesScreen(id, params.get("lang"));
    if (kind === "doc" && id === "protocol") return documentScreen();
  } catch (error) {
    return showError(error);
  }
  main.append(h("p", {}, "No such page. ", h("a", { href: "#/" }, "Back to the lobby")));
}

function showError(error) {
  main.append(h("p", { class: "error", role: "alert" }, String(error?.message ?? error)));
}

window.addEventListener("hashchange", route);
window.addEventListener("DOMContentLoaded", () => {
  const images = document.getElementById("show-images");
  images.checked = localStorage.getItem("packplay.images") === "on";
  images.addEventListener("change", () => {
    localStorage.setItem("packplay.images", images.checked ? "on" : "off");
    route();
  });
  setUpRulesPanel();
  route();
});

// ---------------------------------------------------------------------------
// The lobby

async function lobby() {
  main.append(h("h1", {}, "Lobby"));
  const createForm = createGameForm();
  main.append(h("h2", {}, "Create a game"), createForm);
  const tabs = h("div", { class: "tabs", role: "tablist" });
  const list = h("div", { id: "game-list" });
  main.append(h("h2", {}, "Games"), tabs, list);
  const filters = [{ game: undefined, title: "All games" }, ...GAME_TYPES];
  let chosen = sessionStorage.getItem("packplay.tab") || "";
  const refresh = async () => {
    tabs.replaceChildren(
      ...filters.map((f) =>
        h(
          "button",
          {
            type: "button",
            "aria-pressed": String((f.game ?? "") === chosen),
            onclick: () => {
              chosen = f.game ?? "";
              sessionStorage.setItem("packplay.tab", chosen);
              refresh();
            },
          },
          f.title,
        ),
      ),
    );
    const game = chosen || undefined;
    try {
      const [open, playing, over] = await Promise.all(
        ["open", "playing", "over"].map((status) => rest.listGames({ game, status })),
      );
      list.replaceChildren(
        gameTable("Open: take a seat", open.games, (g) => [
          h("button", { type: "button", class: "join", onclick: () => joinGame(g) }, "Join"),
          " ",
          h("a", { href: `#/watch/${g.game_id}` }, "watch"),
        ]),
        gameTable("Being played", playing.games, (g) => [
          seats()[g.game_id] ? h("a", { href: `#/game/${g.game_id}` }, "play my seat") : null,
          " ",
          h("a", { class: "spectate", href: `#/watch/${g.game_id}` }, "watch"),
        ]),
        gameTable("Finished", over.games, (g) => [h("a", { class: "replay", href: `#/replay/${g.game_id}` }, "replay")]),
      );
    } catch (error) {
      list.replaceChildren(h("p", { class: "error" }, `Could not list games: ${error.message}`));
    }
  };
  await refresh();
  const timer = setInterval(refresh, 5000);
  cleanup.push(() => clearInterval(timer));
}

function gameTable(title, games, links) {
  const rows = games.map((g) =>
    h(
      "tr",
      { dataset: { gameId: g.game_id } },
      h("td", {}, titleOf(g.game)),
      h("td", {}, g.seats.map((s) => s.name ?? "(free)").join(", ")),
      h("td", {}, g.turn_seconds ? `${g.turn_seconds} s per decision` : "no clock"),
      h("td", {}, `version ${g.version}`),
      h("td", {}, new Date(g.created_at).toLocaleString()),
      h("td", {}, links(g)),
    ),
  );
  return h(
    "section",
    {},
    h("h3", {}, `${title} (${games.length})`),
    games.length === 0
      ? h("p", { class: "muted" }, "None.")
      : h(
          "table",
          { class: "games" },
          h("tr", {}, ["Game", "Players", "Clock", "Progress", "Created", ""].map((t) => h("th", {}, t))),
          rows,
        ),
  );
}

function titleOf(game) {
  return GAME_TYPES.find((t) => t.game === game)?.title ?? game;
}

/** The bots the server can seat (CreateGame's house), strongest first. */
const HOUSE_BOTS = [
  { bot: "hard", title: "hard" },
  { bot: "medium", title: "medium" },
  { bot: "easy", title: "easy" },
  { bot: "strong", title: "the reference bot" },
  { bot: "random", title: "random moves" },
];

function createGameForm() {
  const type = h("select", { name: "game" }, GAME_TYPES.map((t) => h("option", { value: t.game }, t.title)));
  const players = h("select", { name: "players" });
  const setPlayers = () => {
    const t = GAME_TYPES.find((g) => g.game === type.value);
    players.replaceChildren(
      ...Array.from({ length: t.maxPlayers - t.minPlayers + 1 }, (_, i) => h("option", {}, t.minPlayers + i)),
    );
  };
  type.addEventListener("change", setPlayers);
  setPlayers();
  const clock = h("input", { name: "clock", type: "number", min: "0", max: "86400", placeholder: "none", size: 6 });
  const name = h("input", { name: "name", required: true, maxlength: 40, value: playerName(), placeholder: "your name" });
  // "Play against the house": the server plays every other seat with a built-in bot and
  // the game starts at once; otherwise the game waits in the lobby for other players.
  const opponents = h(
    "select",
    { name: "opponents" },
    h("option", { value: "" }, "other players (wait in the lobby)"),
    HOUSE_BOTS.map((b) => h("option", { value: b.bot }, `the house: ${b.title}`)),
  );
  const visibility = h(
    "select",
    { name: "visibility" },
    h("option", { value: "public" }, "public"),
    h("option", { value: "private" }, "private (by invite link)"),
  );
  const message = h("span", { class: "note" });
  const form = h(
    "form",
    {
      class: "create",
      onsubmit: async (event) => {
        event.preventDefault();
        localStorage.setItem("packplay.name", name.value);
        const request = { game: type.value, players: Number(players.value) };
        if (Number(clock.value) > 0) request.turn_seconds = Number(clock.value);
        if (visibility.value === "private") request.private = true;
        const bot = opponents.value;
        if (bot) {
          request.house = Array.from({ length: request.players - 1 }, (_, i) => ({ seat: i + 1, bot }));
          request.seats = [name.value];
        }
        try {
          const game = await rest.createGame(request);
          const invite = game.invite ?? undefined;
          const grant = bot ? game.grants[0] : await rest.joinSeat(game.game_id, { name: name.value, invite });
          keepSeat(game.game_id, { ...grant, name: name.value, invite });
          location.hash = `#/game/${game.game_id}`;
        } catch (error) {
          message.textContent = error.message;
        }
      },
    },
    h("label", {}, "Game", type),
    h("label", {}, "Players", players),
    h("label", {}, "Turn clock (seconds per decision)", clock),
    h("label", {}, "Your name", name),
    h("label", {}, "Opponents", opponents),
    h(
      "label",
      { title: "A private game is not listed; its seats are taken only through its invite link" },
      "Visibility",
      visibility,
    ),
    h("button", { type: "submit", class: "primary" }, "Create and take a seat"),
    h(
      "button",
      {
        type: "button",
        class: "house",
        onclick: () => {
          if (!opponents.value) opponents.value = "strong";
          form.requestSubmit();
        },
      },
      "Play against the house",
    ),
    message,
  );
  return form;
}

async function joinGame(summary, invite = undefined) {
  const name = prompt("Your name at this table:", playerName());
  if (!name) return;
  localStorage.setItem("packplay.name", name);
  try {
    const grant = await rest.joinSeat(summary.game_id, { name, invite });
    keepSeat(summary.game_id, { ...grant, name });
    location.hash = `#/game/${summary.game_id}`;
  } catch (error) {
    alert(`Could not join: ${error.message}`);
  }
}

// ---------------------------------------------------------------------------
// A game, played or watched

async function gameScreen(gameId, role) {
  const held = seats()[gameId];
  const token = role === "player" ? (held?.token ?? null) : null;
  if (role === "player" && token === null) {
    main.append(
      h("p", {}, "This browser holds no seat of this game. ", h("a", { href: `#/watch/${gameId}` }, "Watch it"), " instead."),
    );
    return;
  }
  const screen = new GameScreen(gameId, role, token);
  cleanup.push(() => screen.stop());
  await screen.start();
}

class GameScreen {
  constructor(gameId, role, token) {
    this.gameId = gameId;
    this.role = role;
    this.token = token;
    this.client = new StoryClient();
    this.summary = null;
    this.busy = false;
    this.notice = null;
    this.history = []; // every event heard, oldest first: the catch-up of the join, then each update's
    this.heardTo = null; // the version the events heard reach
    this.storyMissing = false; // versions came without their events (the server replays only so many)
    this.over = false; // the last render showed the result
    this.recent = []; // the events of the last update
    this.picks = new Map(); // decision key -> picked ids, per choice
    this.root = h("div", { class: "game", id: "game" });
    main.append(this.root);
    this.stopped = false;
  }

  async start() {
    this.root.append(h("p", { class: "muted" }, "Loading…"));
    try {
      await this.waitForStart();
      if (this.stopped) return;
      this.client.on("events", (message) => this.record(message.events, message.to_version));
      this.client.on("update", (update) => {
        this.recent = update.events;
        this.record(update.events, update.version);
      });
      this.client.on("view", (view) => {
        if (view.version > (this.heardTo ?? 0)) this.storyMissing = true;
        this.heardTo = Math.max(this.heardTo ?? 0, view.version);
        this.schedule();
      });
      this.client.on("rejected", (r) => {
        this.notice = { kind: "error", text: `Refused (${words(r.reason)}${r.rule ? `, ${r.rule}` : ""}): ${r.message}`, rule: r.rule };
        this.schedule();
      });
      this.client.on("game_over", () => this.schedule());
      this.client.on("reconnecting", ({ attempt }) => {
        this.notice = { kind: "warn", text: `Connection lost; reconnecting (attempt ${attempt})…` };
        this.schedule();
      });
      this.client.on("reconnected", () => {
        this.notice = null;
        this.schedule();
      });
      this.client.on("close", ({ code, resumable }) => {
        if (!resumable && !this.stopped) {
          this.notice = { kind: "error", text: `Disconnected (close code ${code}). Reload the page to connect again.` };
          this.schedule();
        }
      });
      await this.client.open(rest.wsUrl(), { token: this.token, gameId: this.gameId, role: this.role });
      const timer = setInterval(() => this.tick(), 1000);
      this.stopTimer = () => clearInterval(timer);
    } catch (error) {
      this.root.replaceChildren(h("p", { class: "error", role: "alert" }, `Could not open the game: ${error.message}`));
    }
  }

  /** Poll the lobby until every seat is taken (a game starts then). */
  async waitForStart() {
    for (;;) {
      const snapshot = await rest.getGame(this.gameId, { token: this.token });
      this.summary = snapshot.summary;
      if (snapshot.summary.status !== "open" || this.stopped) return;
      const taken = snapshot.summary.seats.filter((s) => s.name !== null).length;
      const invite = seats()[this.gameId]?.invite;
      const link = invite ? `${location.origin}${location.pathname}#/invite/${this.gameId}/${invite}` : null;
      const shown = [
        h("h1", {}, titleOf(snapshot.summary.game)),
        h(
          "p",
          { class: "waiting" },
          `Waiting for players: ${taken} of ${snapshot.summary.players} seats taken. ` +
            (link ? "This game is private: send the invite link to the players." : "Share this page's lobby so others can join."),
        ),
        link ? h("p", {}, "Invite link: ", h("input", { class: "invite", readonly: true, value: link, size: 60 })) : null,
        this.token ? h("button", { type: "button", onclick: () => this.leave() }, "Leave my seat") : null,
      ];
      // replaceChildren writes a null as the text "null": only the elements go in.
      this.root.replaceChildren(...shown.filter((child) => child !== null));
      await new Promise((resolve) => setTimeout(resolve, 1500));
    }
  }

  async leave() {
    try {
      await rest.leaveSeat(this.gameId, this.token);
      const all = seats();
      delete all[this.gameId];
      localStorage.setItem("packplay.seats", JSON.stringify(all));
      location.hash = "#/";
    } catch (error) {
      alert(`Could not leave: ${error.message}`);
    }
  }

  stop() {
    this.stopped = true;
    this.stopTimer?.();
    this.client.close();
  }

  /** Keep the events that bring the story to `version` (described when shown, with the cards known then). */
  record(events, version) {
    this.history.push(...events);
    this.heardTo = Math.max(this.heardTo ?? 0, version);
  }

  names() {
    return (this.summary?.seats ?? []).map((s) => s.name ?? `seat ${s.seat}`);
  }

  /** Render once after the messages of this task (a microtask: tabs in the background run it too). */
  schedule() {
    if (this.scheduled) return;
    this.scheduled = true;
    queueMicrotask(() => {
      this.scheduled = false;
      if (!this.stopped) this.render();
    });
  }

  /** Send an action once: every control is disabled until its answer. */
  async act(action) {
    if (this.busy) return;
    this.busy = true;
    this.notice = null;
    this.render();
    try {
      const answer = await this.client.play(action);
      if (answer.type === "accepted") this.notice = null;
    } catch (error) {
      this.notice = { kind: "warn", text: `Not answered before the connection closed; it is sent again on reconnect if needed (${error.message}).` };
    } finally {
      this.busy = false;
      this.schedule();
    }
  }

  /** The picking state of a `choose_cards` choice, kept while its decision stays the same. */
  picker(choice) {
    const key = JSON.stringify(choice);
    if (!this.picks.has(key)) this.picks.set(key, []);
    const picked = this.picks.get(key);
    const screen = this;
    return {
      choice,
      picked,
      offers: (id) => choice.options.includes(id),
      order: (id) => picked.indexOf(id),
      toggle(id) {
        const at = picked.indexOf(id);
        if (at >= 0) picked.splice(at, 1);
        else if (picked.length < choice.max_count) picked.push(id);
        screen.render();
      },
      problem: () => checkChoice(choice, picked),
      confirm() {
        if (checkChoice(choice, picked) !== null) return;
        const action = fillChoice(choice, picked);
        picked.length = 0;
        screen.act(action);
      },
      clear() {
        picked.length = 0;
        screen.render();
      },
    };
  }

  /**
   * Seconds left on the turn clock, or null without one: the seat's own while it is
   * pending, else the first pending seat's, from the deadlines of the view (times by the
   * server's clock).
   */
  clockLeft(view) {
    if (view.result !== null || !view.deadlines) return null;
    const own = view.seat === null ? null : view.deadlines[view.seat];
    const due = own ?? Math.min(...view.deadlines.filter((deadline) => deadline !== null));
    return Number.isFinite(due) ? Math.max(0, due - Date.now() / 1000) : null;
  }

  tick() {
    const clock = this.root.querySelector(".clock");
    const view = this.client.view;
    if (clock === null || view === null) return;
    const left = this.clockLeft(view);
    if (left !== null) {
      clock.textContent = `clock: ${Math.ceil(left)} s left`;
      clock.classList.toggle("low", left < 10);
    }
  }

  render() {
    const message = this.client.view;
    if (message === null) return;
    const screen = SCREENS[message.game];
    const names = this.names();
    const mine = message.seat !== null && message.pending.includes(message.seat) && message.result === null;
    document.body.dataset.version = String(message.version);
    document.body.dataset.mine = String(mine && !this.busy);
    document.body.dataset.over = String(message.result !== null);
    const ctx = {
      message,
      view: message.view,
      cards: message.cards,
      seat: message.seat,
      names,
      mine: mine && !this.busy,
      act: (action) => this.act(action),
      rerender: () => this.render(),
      recent: this.recent,
      history: { events: this.history, complete: !this.storyMissing },
      openRule: (rule) => openRules(message.game, rule),
      picker: (choice) => this.picker(choice),
      actions: mine && !this.busy ? message.legal.actions : [],
      choices: mine && !this.busy ? message.legal.choices : [],
    };
    const left = this.clockLeft(message);
    const head = h(
      "div",
      { class: "game-head" },
      h("span", { class: "title" }, titleOf(message.game)),
      h("span", {}, message.seat === null ? "watching as a spectator" : `you are ${names[message.seat] ?? "seat"} (seat ${message.seat})`),
      h("span", { class: "version" }, `version ${message.version}`),
      left === null ? h("span", { class: "muted" }, "no turn clock") : h("span", { class: "clock", title: "when it runs out, the server plays a default action" }, `clock: ${Math.ceil(left)} s left`),
      h("button", { type: "button", class: "rules-button", onclick: () => openRules(message.game) }, "Rules"),
      h("span", { class: "muted" }, "game ", h("code", { class: "ident" }, message.game_id)),
    );
    const waitingFor = message.pending.map((s) => names[s] ?? `seat ${s}`).join(" and ");
    const banner =
      message.result !== null
        ? resultBox(message, names)
        : h(
            "div",
            { class: `turn-banner ${mine ? "mine" : ""}`, id: "status" },
            mine ? (this.busy ? "Sending…" : "Your decision.") : `Waiting for ${waitingFor || "the server"}.`,
          );
    const notice = this.notice
      ? h(
          "p",
          { class: this.notice.kind === "error" ? "error" : "note", role: "status" },
          this.notice.text,
          this.notice.rule ? [" ", h("a", { href: "#", onclick: (e) => { e.preventDefault(); openRules(message.game, this.notice.rule); } }, `read ${this.notice.rule}`)] : null,
        )
      : null;
    const board = screen.render(ctx);
    const side = h("div", {}, movesZone(ctx), storyZone(this.history, message, names, this.storyMissing));
    this.root.replaceChildren(head, banner, notice ?? "", h("div", { class: "layout" }, h("div", {}, board), side));
    // The end may come with the last move low on the page: bring the result into sight.
    const over = message.result !== null;
    if (over && !this.over) banner.scrollIntoView({ block: "nearest" });
    this.over = over;
  }
}

function resultBox(message, names) {
  const result = message.result;
  const winners = result.winners.map((s) => names[s] ?? `seat ${s}`).join(" and ");
  return h(
    "div",
    { class: "result", id: "result" },
    h("strong", {}, result.draw ? "A draw." : `${winners} won.`),
    ` Scores: ${result.scores.map((score, s) => `${names[s] ?? `seat ${s}`} ${score}`).join(", ")}. (${result.reason_text}) `,
    h("a", { href: `#/replay/${message.game_id}` }, "Watch the replay"),
    " · ",
    h("a", { href: "#/" }, "back to the lobby"),
  );
}

/** "What happened": the events heard, newest first, and a note when the story does not reach back to the deal. */
function storyZone(history, message, names, missing) {
  const lines = history.slice(-80).reverse().map((event) => h("li", {}, describeEvent(event, message.cards, names)));
  return h(
    "section",
    { class: "zone story" },
    h("h3", {}, "What happened"),
    missing
      ? h(
          "p",
          { class: "note story-note" },
          "The game was too far along for the server to tell its story from the start. ",
          message.result !== null
            ? h("a", { href: `#/replay/${message.game_id}` }, "The replay shows every move.")
            : "Once it is over, its replay shows every move.",
        )
      : null,
    lines.length > 0
      ? h("ol", { class: "log", reversed: true }, lines)
      : missing
        ? null
        : h("p", { class: "muted" }, "Nothing yet: no move has been made."),
  );
}

/** Every legal action as a button, and every choice as a bar: the same choices the board offers. */
function movesZone(ctx) {
  if (ctx.seat === null || ctx.message.result !== null) return null; // a spectator has no moves, nor has anyone at the end
  const zone = h("section", { class: "zone moves" }, h("h3", {}, "Your moves"));
  if (!ctx.mine) {
    zone.append(h("p", { class: "muted" }, "Nothing to decide now."));
    return zone;
  }
  for (const action of ctx.actions) {
    zone.append(
      h("button", { type: "button", class: "act", onclick: () => ctx.act(action), dataset: { action: action.type } }, describeAction(action, ctx.cards)),
      " ",
    );
  }
  for (const choice of ctx.choices) zone.append(choiceBar(ctx, choice));
  return zone;
}

/** A choice's state and buttons; the cards themselves are picked where the game shows them. */
export function choiceBar(ctx, choice) {
  if (choice.single && choice.max_count === 1 && choice.min_count === 1) {
    // One card to name: each option is a complete action.
    return h(
      "div",
      { class: "choice single" },
      h("p", {}, `${describeAction(choice.template, ctx.cards)}, with:`),
      h(
        "div",
        { class: "choices" },
        choice.options.map((id) =>
          h("button", { type: "button", class: "act", dataset: { cardId: id }, onclick: () => ctx.act(fillChoice(choice, [id])) }, cardLabel(ctx.cards, id)),
        ),
      ),
    );
  }
  const picker = ctx.picker(choice);
  const problem = picker.problem();
  const what = describeAction(choice.template, ctx.cards);
  const count = choice.min_count === choice.max_count ? `${choice.min_count}` : `${choice.min_count} to ${choice.max_count}`;
  return h(
    "div",
    { class: "choice" },
    h("p", {}, `${what}: pick ${count} card${choice.max_count === 1 ? "" : "s"}${choice.ordered ? ", in order" : ""}. `, h("span", { class: "muted" }, `${picker.picked.length} picked.`)),
    h(
      "div",
      { class: "choices" },
      choice.options.map((id) =>
        h(
          "button",
          {
            type: "button",
            class: `pick ${picker.order(id) >= 0 ? "picked" : ""}`,
            dataset: { cardId: id },
            onclick: () => picker.toggle(id),
          },
          picker.order(id) >= 0 ? `${picker.order(id) + 1}. ` : "",
          cardLabel(ctx.cards, id),
        ),
      ),
    ),
    h(
      "div",
      { class: "choice-bar" },
      h("button", { type: "button", class: "confirm primary", disabled: problem !== null, onclick: () => picker.confirm() }, "Confirm"),
      h("button", { type: "button", class: "clear", onclick: () => picker.clear() }, "Clear"),
    ),
  );
}

/** A readable line for an action. */
export function describeAction(action, cards) {
  const name = (id) => cardLabel(cards, id);
  switch (action.type) {
    case "day_night.place":
      return action.cards ? `Place ${action.cards.map(name).join(", ")}` : "Place your row face down";
    case "day_night.replace":
      return `Replace with ${name(action.card)}`;
    case "day_night.declare":
      return `Declare ${colorName(action.color)}`;
    case "mishra_factory.take":
      return `Take belt card ${action.belt_position + 1} into ${groupName(action.group)}${action.discard ? `, paying ${name(action.discard)}` : action.belt_position >= 2 ? ", paying a collected card" : ""}`;
    case "wedding_planner.draw":
      return "Draw the top card";
    case "wedding_planner.take":
      return `Take ${name(action.card)} and every card above it`;
    case "wedding_planner.discard":
      return `Discard ${name(action.card)}`;
    case "base_race.layout":
      return action.cards ? "Lay out your cards" : "Lay out your 12 cards (first picked goes top left)";
    case "base_race.move":
      return `Move ${name(action.card)} to row ${action.row + 1}, column ${action.col + 1}`;
    default:
      return words(action.type);
  }
}

const COLORS = { W: "white", U: "blue", B: "black", R: "red", G: "green", C: "colorless" };
function colorName(c) {
  return COLORS[c] ?? String(c);
}
function groupName(g) {
  return g === "C" ? "colorless" : COLORS[g];
}

/** A readable line for an event. */
export function describeEvent(event, cards, names) {
  const who = (seat) => names[seat] ?? `seat ${seat}`;
  const name = (id) => (id ? cardLabel(cards, id) : "a card");
  switch (event.type) {
    case "day_night.round_started":
      return event.skipped ? `Round ${event.round} is skipped.` : `Round ${event.round}: rows of ${event.k}.`;
    case "day_night.row_placed":
      return `${who(event.seat)} placed a row of ${event.count} face down.`;
    case "day_night.hand_discarded":
      return `${who(event.seat)} discarded ${event.count} unplaced card(s) face down.`;
    case "day_night.pair_revealed":
      return `Pair ${event.slot + 1} revealed: ${name(event.day)} (Day) and ${name(event.night)} (Night).`;
    case "day_night.card_replaced":
      return `${who(event.seat)} replaced ${name(event.discarded)} with ${name(event.card)}.`;
    case "day_night.card_is_dud":
      return `${name(event.card)} of ${who(event.seat)} is a dud.`;
    case "day_night.choice_committed":
      return `${who(event.seat)} made a hidden choice.`;
    case "day_night.color_declared":
      return `${who(event.seat)} declared ${colorName(event.color)}.`;
    case "day_night.pair_resolved":
      return `Pair ${event.slot + 1}: ${event.outcome === "tie" ? "a tie" : `${event.outcome} wins`}.`;
    case "day_night.round_ended":
      return `Round ${event.round} over; piles ${event.scores.join(" to ")}.`;
    case "day_night.game_ended":
      return `Game over; piles ${event.scores.join(" to ")}.`;
    case "mishra_factory.taken":
      return `${who(event.seat)} took ${name(event.card)} into ${groupName(event.group)}${event.discarded ? `, paying ${name(event.discarded)}` : ""}.`;
    case "mishra_factory.refilled":
      return `${name(event.card)} comes onto the belt (${event.deck_count} left in the deck).`;
    case "mishra_factory.ended":
      return "Every card is collected.";
    case "wedding_planner.drew":
      return `${who(event.seat)} drew ${event.card ? name(event.card) : "a card"}.`;
    case "wedding_planner.took":
      return `${who(event.seat)} took ${event.cards.map(name).join(", ")} from the discard pile.`;
    case "wedding_planner.discarded":
      return `${who(event.seat)} discarded ${name(event.card)}.`;
    case "wedding_planner.revealed":
      return "Every hand and theme is revealed.";
    case "base_race.laid_out":
      return `${who(event.seat)} laid out their cards.`;
    case "base_race.board_set":
      return `The board is set; ${who(event.first_seat)} moves first.`;
    case "base_race.moved":
      return `${who(event.seat)} moved to row ${event.row + 1}, column ${event.col + 1}.`;
    case "base_race.battle":
      return `${who(event.seat)}: ${name(event.attacker)} attacked ${name(event.defender)} (${battleKind(event.kind)})${event.discarded.length ? `; discarded ${event.discarded.map(name).join(", ")}` : ""}.`;
    case "base_race.turn":
      return `${who(event.seat)} to move${event.extra ? " (extra turn)" : ""}.`;
    case "base_race.game_over":
      return `Game over: ${endReason(event.reason)}.`;
    default:
      return words(event.type);
  }
}

// ---------------------------------------------------------------------------
// The replay viewer

/** The explicit set-up of a replay export, one line per zone, cards by name. */
function dealLines(replay) {
  const name = (id) => (id === null ? "none" : (replay.cards[id]?.name ?? id));
  const zone = (value) =>
    Array.isArray(value)
      ? value.map((item) => (Array.isArray(item) ? `[${item.map(name).join(", ")}]` : name(item))).join(", ")
      : typeof value === "number"
        ? `seat ${value}`
        : name(value);
  return Object.entries(replay.deal ?? {})
    .filter(([field]) => field !== "type")
    .map(([field, value]) => h("li", {}, `${field.replaceAll("_", " ")}: ${zone(value) || "none"}`));
}

async function replayScreen(gameId) {
  main.append(h("h1", {}, "Replay"), h("p", { class: "muted" }, "Loading…"));
  let replay;
  let summary;
  try {
    [replay, { summary }] = await Promise.all([rest.getReplay(gameId), rest.getGame(gameId)]);
  } catch (error) {
    main.replaceChildren(h("h1", {}, "Replay"), h("p", { class: "error" }, `No replay: ${error.message}`));
    return;
  }
  // The final table, as a spectator sees it (every card is known once a game is over).
  const client = new PackplayClient();
  cleanup.push(() => client.close());
  let view;
  try {
    view = await client.open(rest.wsUrl(), { gameId, role: "spectator", reconnect: false });
  } catch (error) {
    main.replaceChildren(h("h1", {}, "Replay"), h("p", { class: "error" }, `Could not read the game: ${error.message}`));
    return;
  }
  // The events after a version: `resume` answers with them, then the whole view (null
  // when the server does not replay from that far back).
  const after = (from) => {
    if (from >= view.version) return Promise.resolve([]);
    return new Promise((resolve) => {
      let events = null;
      const off = client.on("message", (m) => {
        if (m.type === "events") events = m.events;
        if (m.type === "error" && m.code === "rate_limited") setTimeout(() => client.resume(from), 1000);
        if (m.type === "view") {
          off();
          resolve(events);
        }
      });
      client.resume(from);
    });
  };
  const perVersion = new Map(); // version -> its events, read when first shown
  let reading = Promise.resolve();
  const eventsOf = (version) => {
    if (!perVersion.has(version)) {
      // What a version did: the events after the one before, less those after it.
      reading = reading.then(async () => {
        const before = (await after(version - 1)) ?? [];
        const since = (await after(version)) ?? [];
        return before.slice(0, before.length - since.length);
      });
      perVersion.set(version, reading);
    }
    return perVersion.get(version);
  };
  const names = summary.seats.map((s) => s.name ?? `seat ${s.seat}`);
  const cards = view.cards;
  const log = replay.log;
  let step = log.length;
  const slider = h("input", { type: "range", min: "0", max: String(log.length), value: String(step), "aria-label": "step" });
  const label = h("span", { class: "step-label" });
  const detail = h("div", { class: "zone step-detail" });
  const steps = h(
    "ol",
    { class: "steps log", start: "1" },
    log.map((entry, i) =>
      h(
        "li",
        { dataset: { step: String(i + 1) }, onclick: () => show(i + 1) },
        `${names[entry.seat]}: ${describeAction(entry.action, cards)}${entry.timed_out ? " (clock ran out)" : ""}`,
      ),
    ),
  );
  const show = async (n) => {
    step = Math.max(0, Math.min(log.length, n));
    slider.value = String(step);
    label.textContent = `step ${step} of ${log.length}`;
    for (const li of steps.children) li.classList.toggle("current", Number(li.dataset.step) === step);
    if (step === 0) {
      detail.replaceChildren(
        h("h3", {}, "Set-up"),
        h("p", {}, `Seed ${replay.seed}; sets ${replay.setup.sets.join(", ")}.`),
        h("ul", { class: "deal" }, dealLines(replay)),
      );
      return;
    }
    const entry = log[step - 1];
    detail.replaceChildren(
      h("h3", {}, `Step ${step}: version ${entry.version}`),
      h("p", { class: "step-action" }, `${names[entry.seat]}: ${describeAction(entry.action, cards)}`),
      h("p", { class: "muted" }, "Loading what happened…"),
    );
    const happened = await eventsOf(entry.version);
    if (step !== n) return;
    detail.replaceChildren(
      h("h3", {}, `Step ${step}: version ${entry.version}`),
      h("p", { class: "step-action" }, `${names[entry.seat]}: ${describeAction(entry.action, cards)}${entry.timed_out ? " (played by the server: the clock ran out)" : ""}`),
      h("ul", { class: "step-events" }, happened.map((e) => h("li", {}, describeEvent(e, cards, names)))),
    );
  };
  slider.addEventListener("input", () => show(Number(slider.value)));
  const screen = SCREENS[view.game];
  // A screen that shows more than the final view holds (Day vs Night's last round) reads the whole story.
  const story = screen.usesHistory ? await after(0) : [];
  const finalTable = screen.render({
    message: view,
    view: view.view,
    cards,
    seat: null,
    names,
    mine: false,
    act: () => {},
    rerender: () => {},
    recent: [],
    history: { events: story ?? [], complete: story !== null },
    openRule: (rule) => openRules(view.game, rule),
    picker: () => null,
    actions: [],
    choices: [],
  });
  main.replaceChildren(
    h("h1", {}, `Replay: ${titleOf(view.game)}`),
    resultBox(view, names),
    h(
      "div",
      { class: "replay-controls" },
      // Latin-1 and WGL4 marks, which every font has (media symbols are missing from some).
      h("button", { type: "button", class: "first", onclick: () => show(0) }, "« start"),
      h("button", { type: "button", class: "prev", onclick: () => show(step - 1) }, "‹ back"),
      slider,
      h("button", { type: "button", class: "next", onclick: () => show(step + 1) }, "next ›"),
      h("button", { type: "button", class: "last", onclick: () => show(log.length) }, "end »"),
      label,
    ),
    h(
      "div",
      { class: "layout" },
      h("div", {}, detail, h("section", { class: "zone" }, h("h3", {}, "The table at the end"), finalTable)),
      h("section", { class: "zone" }, h("h3", {}, "Every action"), steps),
    ),
  );
  show(step);
}

// ---------------------------------------------------------------------------
// Rules and documents

let rulesPage = "common";

function setUpRulesPanel() {
  const lang = document.getElementById("rules-lang");
  lang.value = localStorage.getItem("packplay.lang") ?? "en";
  lang.addEventListener("change", () => {
    localStorage.setItem("packplay.lang", lang.value);
    openRules(rulesPage);
  });
  document.getElementById("rules-close").addEventListener("click", () => {
    document.getElementById("rules-panel").hidden = true;
  });
}

/** Open the rules panel on `page`, scrolled to `anchor` (a ruling id such as MF-2). */
export async function openRules(page, anchor = null) {
  rulesPage = page;
  const panel = document.getElementById("rules-panel");
  const text = document.getElementById("rules-text");
  const lang = document.getElementById("rules-lang").value;
  panel.hidden = false;
  try {
    text.innerHTML = renderMarkdown(await rest.rules(page, { lang }));
    text.append(h("p", {}, h("a", { href: "#", onclick: (e) => { e.preventDefault(); openRules("common"); } }, "The rules common to every game")));
    if (anchor) document.getElementById(anchor.toLowerCase())?.scrollIntoView();
    else panel.scrollTop = 0;
  } catch (error) {
    text.textContent = `Could not load the rules: ${error.message}`;
  }
}

const LANGUAGES = [
  { lang: "en", title: "English" },
  { lang: "fr", title: "Français" },
  { lang: "es", title: "Español" },
];

async function rulesScreen(page, lang) {
  const language = LANGUAGES.some((l) => l.lang === lang) ? lang : (localStorage.getItem("packplay.lang") ?? "en");
  localStorage.setItem("packplay.lang", language);
  document.getElementById("rules-lang").value = language; // the Rules panel follows
  const link = (href, current, text, lang = undefined) =>
    h("li", {}, h("a", { href, "aria-current": current ? "page" : undefined, hreflang: lang, lang }, text));
  const picker = h(
    "nav",
    { class: "rules-picker", "aria-label": "rules" },
    h(
      "div",
      {},
      h("span", { class: "muted" }, "Language:"),
      h("ul", { class: "lang-list" }, LANGUAGES.map((l) => link(`#/rules/${page}?lang=${l.lang}`, l.lang === language, l.title, l.lang))),
    ),
    h(
      "div",
      {},
      h("span", { class: "muted" }, "Rules:"),
      h(
        "ul",
        { class: "game-list" },
        [{ game: "common", title: "Common rules" }, ...GAME_TYPES].map((t) => link(`#/rules/${t.game}?lang=${language}`, t.game === page, t.title)),
      ),
    ),
  );
  const article = h("article", { class: "markdown", lang: language });
  main.append(picker, article);
  try {
    article.innerHTML = renderMarkdown(await rest.rules(page, { lang: language }));
  } catch (error) {
    article.textContent = `Could not load the rules: ${error.message}`;
  }
}

async function documentScreen() {
  const article = h("article", { class: "markdown" });
  main.append(article);
  const response = await fetch("/docs/protocol.md");
  article.innerHTML = renderMarkdown(await response.text());
}
