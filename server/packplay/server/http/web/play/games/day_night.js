// Day vs Night: both hands (yours face up, the other's as a count), the two rows face
// down until their pairs are revealed one at a time, replacements and declared
// colours, and each side's pile of winning cards.

import { cardElement, h } from "../cards.js";

const COLORS = { W: "white", U: "blue", B: "black", R: "red", G: "green" };

export function render(ctx) {
  const { view, cards, seat } = ctx;
  const me = seat ?? 0;
  const order = [1 - me, me]; // the other side on top, yours below (Day on top for spectators)
  const placing = ctx.choices.find((c) => c.template.type === "day_night.place");
  const picker = placing ? ctx.picker(placing) : null;
  const replaceByCard = new Map(
    ctx.actions.filter((a) => a.type === "day_night.replace").map((a) => [a.card, a]),
  );
  const info = h(
    "p",
    { class: "dn-info" },
    `Round ${view.round} of 3 · rows of ${view.k} · `,
    phaseText(view),
    ` · Day: ${ctx.names[view.day_seat] ?? `seat ${view.day_seat}`}`,
  );
  const sides = order.map((s) => side(ctx, view.seats[s], s === seat));
  const rows = h("section", { class: "zone" }, h("h3", {}, "The rows"), pairs(ctx));
  const hand = handZone(ctx, picker, replaceByCard);
  const declare = ctx.actions.filter((a) => a.type === "day_night.declare");
  const declareZone = declare.length
    ? h(
        "section",
        { class: "zone" },
        h("h3", {}, `Declare a colour for pair ${view.slot + 1}`),
        declare.map((a) => h("button", { type: "button", class: "act", onclick: () => ctx.act(a) }, COLORS[a.color])),
      )
    : null;
  return h("div", { class: "day-night" }, info, sides[0], rows, declareZone, hand, sides[1]);
}

function phaseText(view) {
  switch (view.phase) {
    case "place":
      return "both sides place their rows face down";
    case "replace":
      return `pair ${view.slot + 1}: a colourless card is replaced from hand`;
    case "declare":
      return `pair ${view.slot + 1}: a multicoloured card gets a colour`;
    default:
      return "the game is over";
  }
}

function side(ctx, seatView, mine) {
  const { cards } = ctx;
  const name = ctx.names[seatView.seat] ?? `seat ${seatView.seat}`;
  return h(
    "section",
    { class: `zone side ${mine ? "mine" : ""}`, dataset: { seat: String(seatView.seat) } },
    h(
      "h3",
      {},
      `${name}: ${seatView.role === "day" ? "Day" : "Night"} · pile ${seatView.pile.length} · hand ${seatView.hand_count}`,
      seatView.placed ? " · row placed" : "",
      seatView.committed ? " · choice made" : "",
    ),
    h("div", { class: "muted" }, `Pile (winning cards):`),
    h("div", { class: "cards pile" }, seatView.pile.map((id) => cardElement(cards, id))),
    seatView.discarded.length
      ? [h("div", { class: "muted" }, "Discarded face up:"), h("div", { class: "cards" }, seatView.discarded.map((id) => cardElement(cards, id)))]
      : null,
    seatView.buried !== null && seatView.buried.length
      ? [h("div", { class: "muted" }, "Discarded face down (you alone see them):"), h("div", { class: "cards" }, seatView.buried.map((id) => cardElement(cards, id)))]
      : seatView.buried_count
        ? h("div", { class: "muted" }, `${seatView.buried_count} discarded face down`)
        : null,
  );
}

function pairs(ctx) {
  const { view, cards } = ctx;
  const day = view.seats[view.day_seat];
  const night = view.seats[1 - view.day_seat];
  const size = Math.max(day.row.length, night.row.length);
  if (size === 0) return h("p", { class: "muted" }, "No row placed yet.");
  const slots = [];
  for (let i = 0; i < size; i++) {
    const current = (view.phase === "replace" || view.phase === "declare") && view.slot === i;
    const outcome = view.outcomes[i];
    slots.push(
      h(
        "div",
        { class: `slot-pair ${current ? "current" : ""}`, dataset: { slot: String(i) } },
        h("span", { class: "muted" }, `pair ${i + 1}`),
        slotCard(cards, day.row[i], "Day"),
        slotCard(cards, night.row[i], "Night"),
        h("span", { class: "outcome" }, outcome === undefined ? (i < view.revealed ? "…" : "") : outcome === "tie" ? "tie" : `${outcome} wins`),
      ),
    );
  }
  const who = (s) => ctx.names[s.seat] ?? `seat ${s.seat}`;
  return [
    h("p", { class: "muted" }, `In each pair, Day (${who(day)}) above, Night (${who(night)}) below; pairs are turned face up one at a time.`),
    h("div", { class: "cards rows" }, slots),
  ];
}

function slotCard(cards, slot, label) {
  if (slot === undefined) return h("div", { class: "card face-down" }, "—");
  const extra = [];
  if (slot.dud) extra.push(h("strong", {}, "dud"));
  else if (slot.color) extra.push(h("span", { class: "muted" }, `plays as ${COLORS[slot.color]}`));
  return cardElement(cards, slot.card, { title: `${label}, slot ${slot.slot + 1}`, extra });
}

function handZone(ctx, picker, replaceByCard) {
  const { view, cards, seat } = ctx;
  if (seat === null) return null;
  const hand = view.seats[seat].hand ?? [];
  const title = picker
    ? `Your hand: click ${picker.choice.min_count} cards in the order of your row (slot 1 first)`
    : replaceByCard.size
      ? "Your hand: click the card that replaces your colourless card"
      : "Your hand";
  return h(
    "section",
    { class: "zone hand" },
    h("h3", {}, title),
    h(
      "div",
      { class: "cards" },
      hand.map((id) => {
        if (picker && picker.offers(id)) {
          const at = picker.order(id);
          return cardElement(cards, id, {
            classes: `pick ${at >= 0 ? "picked" : ""}`,
            onclick: () => picker.toggle(id),
            extra: at >= 0 ? h("span", { class: "order" }, at + 1) : null,
          });
        }
        const replace = replaceByCard.get(id);
        if (replace) return cardElement(cards, id, { classes: "act", onclick: () => ctx.act(replace) });
        return cardElement(cards, id);
      }),
    ),
    picker
      ? h(
          "div",
          { class: "choice-bar" },
          h("button", { type: "button", class: "primary place", disabled: picker.problem() !== null, onclick: () => picker.confirm() }, "Place this row"),
          h("button", { type: "button", onclick: () => picker.clear() }, "Clear"),
        )
      : null,
  );
}
