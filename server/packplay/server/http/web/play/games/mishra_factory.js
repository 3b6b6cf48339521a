// Mishra's Factory: the belt (two free cards at the front, two at the back that cost a
// collected card), the deck as a count, and each player's colour groups with the
// points they score so far.

import { cardElement, h } from "../cards.js";
import { fillChoice } from "../sdk/legal.js";

const GROUPS = ["W", "U", "B", "R", "G", "C"];
const GROUP_NAMES = { W: "white", U: "blue", B: "black", R: "red", G: "green", C: "colorless" };

/** A back card's take waiting for the collected card that pays for it: {position, group}. */
let paying = null;

/**
 * Every take the seat may make: a front card's as an action, a back card's as a
 * choice of the collected card that pays for it (or as actions naming it).
 */
function takesOf(ctx) {
  const takes = ctx.actions
    .filter((a) => a.type === "mishra_factory.take")
    .map((a) => ({ position: a.belt_position, group: a.group, free: a.discard === null ? a : null, pay: a.discard === null ? [] : [[a.discard, a]] }));
  for (const choice of ctx.choices) {
    const t = choice.template;
    if (t.type !== "mishra_factory.take" || choice.field !== "discard") continue;
    takes.push({ position: t.belt_position, group: t.group, free: null, pay: choice.options.map((id) => [id, fillChoice(choice, [id])]) });
  }
  const merged = new Map();
  for (const take of takes) {
    const key = `${take.position}:${take.group}`;
    const held = merged.get(key) ?? { position: take.position, group: take.group, free: null, pay: [] };
    held.free ??= take.free;
    held.pay.push(...take.pay);
    merged.set(key, held);
  }
  return [...merged.values()];
}

export function render(ctx) {
  const { view } = ctx;
  const takes = takesOf(ctx);
  if (paying && !takes.some((t) => t.position === paying.position && t.group === paying.group)) paying = null;
  const turn = view.turn === null ? "the game is over" : `${ctx.names[view.turn] ?? `seat ${view.turn}`} to take a card`;
  return h(
    "div",
    { class: "mishra" },
    h("p", {}, `Turn ${view.turn_number + 1} · ${turn} · ${view.deck_count} card(s) in the deck`),
    belt(ctx, takes),
    groupsRule(ctx),
    ...view.collections.map((collection) => collectionZone(ctx, collection, takes)),
    h(
      "section",
      { class: "zone" },
      h("h3", {}, "Paid and set aside"),
      h("div", { class: "muted" }, "Paid for back cards (out of the game):"),
      h("div", { class: "cards" }, view.discarded.map((id) => cardElement(ctx.cards, id))),
      h("div", { class: "muted" }, "Set aside (no Magic back):"),
      h("div", { class: "cards" }, view.set_aside.map((id) => cardElement(ctx.cards, id))),
    ),
  );
}

function belt(ctx, takes) {
  const { view, cards } = ctx;
  return h(
    "section",
    { class: "zone" },
    h("h3", {}, "The belt: front (free) · back (costs a collected card)"),
    h(
      "div",
      { class: "belt" },
      view.belt.map((id, position) => {
        const back = position >= 2;
        const here = takes.filter((t) => t.position === position);
        return h(
          "div",
          { class: `pos ${back ? "back" : "front"}`, dataset: { position: String(position) } },
          h("span", { class: "label" }, `${back ? "back" : "front"} ${position + 1}`),
          cardElement(cards, id),
          here.map(({ group, free }) => {
            const chosen = paying && paying.position === position && paying.group === group;
            return h(
              "button",
              {
                type: "button",
                class: `act ${chosen ? "selected" : ""}`,
                onclick: () => {
                  if (free) return ctx.act(free);
                  paying = chosen ? null : { position, group };
                  ctx.rerender();
                },
              },
              `into ${GROUP_NAMES[group]}${free ? "" : ": then pick a card to pay"}`,
            );
          }),
        );
      }),
    ),
  );
}

/** Which group a card may join (MF-1), where the groups are shown. */
function groupsRule(ctx) {
  return h(
    "p",
    { class: "note groups-rule" },
    "The groups: a land is wild and may join any of the six groups, colorless included; a multicolored card joins the group of one of its colors; any other card joins its color's group, or the colorless one when it has no color. A card never changes group. ",
    h(
      "a",
      {
        href: "#",
        onclick: (event) => {
          event.preventDefault();
          ctx.openRule("MF-1");
        },
      },
      "Rule MF-1",
    ),
  );
}

function collectionZone(ctx, collection, takes) {
  const { view, cards } = ctx;
  const score = view.scores.find((s) => s.seat === collection.seat);
  const name = ctx.names[collection.seat] ?? `seat ${collection.seat}`;
  const mine = collection.seat === ctx.seat;
  const take = paying && mine ? takes.find((t) => t.position === paying.position && t.group === paying.group) : null;
  const payWith = new Map(take ? take.pay : []);
  return h(
    "section",
    { class: `zone collection ${mine ? "mine" : ""}`, dataset: { seat: String(collection.seat) } },
    h("h3", {}, `${name}${view.turn === collection.seat ? " (to play)" : ""}: ${score.total} points (groups bonus ${score.groups_bonus})`),
    payWith.size ? h("p", { class: "note" }, "Click the collected card you pay with.") : null,
    h(
      "div",
      { class: "groups" },
      GROUPS.map((group) =>
        h(
          "div",
          { class: "group", dataset: { group } },
          h("div", { class: "gname" }, `${GROUP_NAMES[group]}: ${score.group_points[group]} pt`),
          collection.groups[group].map((id) => {
            const pay = payWith.get(id);
            return pay ? cardElement(cards, id, { classes: "act", onclick: () => ctx.act(pay) }) : cardElement(cards, id);
          }),
        ),
      ),
    ),
  );
}
