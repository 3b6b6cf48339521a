// Day vs Night: both hands (yours face up, the other's as a count), the two rows face
// down until their pairs are revealed one at a time, replacements and declared
// colours, each side's pile of winning cards, and the last round as it was played
// (rebuilt from its events: the view empties the rows when a round ends).

import { cardElement, h } from "../cards.js";

const COLORS = { W: "white", U: "blue", B: "black", R: "red", G: "green" };

/** The screen reads the events heard: the view empties the rows when a round ends. */
export const usesHistory = true;

export function render(ctx) {
  const { view, cards, seat } = ctx;
  const me = seat ?? 0;
  const order = [1 - me, me]; // the other side on top, yours below (Day on top for spectators)
  const placing = ctx.choices.find((c) => c.template.type === "day_night.place");
  const picker = placing ? ctx.picker(placing) : null;
  const replaceByCard = new Map(
    ctx.actions.filter((a) => a.type === "day_night.replace").map((a) => [a.card, a]),
  );
  const day = `Day: ${ctx.names[view.day_seat] ?? `seat ${view.day_seat}`}`;
  // While the rows are placed and at the end, the view holds no revealed pair: the last round is told by its events.
  const last = view.phase === "place" || view.phase === "over" ? lastRound(ctx.history.events, view.day_seat) : null;
  const info = h(
    "p",
    { class: "dn-info" },
    view.phase === "over"
      ? `The game is over${last ? ` after round ${last.round}` : ""} · piles ${view.scores.join(" to ")} · ${day}`
      : `Round ${view.round} of 3 · rows of ${view.k} · ${phaseText(view)} · ${day}`,
  );
  const sides = order.map((s) => side(ctx, view.seats[s], s === seat));
  const rows = view.phase === "over" ? null : h("section", { class: "zone" }, h("h3", {}, "The rows"), pairs(ctx, view));
  const previous = last
    ? h(
        "section",
        { class: "zone last-round" },
        h("h3", {}, view.phase === "over" ? `The last round as played (round ${last.round})` : `Round ${last.round} as played`),
        pairs(ctx, last),
      )
    : view.phase === "over" && !ctx.history.complete
      ? h("section", { class: "zone last-round" }, h("h3", {}, "The last round"), h("p", { class: "muted" }, "Its rows cannot be shown: the game is further along than the server replays its events."))
      : null;
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
  return view.phase === "over"
    ? h("div", { class: "day-night" }, info, previous, sides[0], sides[1])
    : h("div", { class: "day-night" }, info, sides[0], rows, declareZone, previous, hand, sides[1]);
}

/**
 * The rows of the last round played, as its events tell them, in the shape `pairs`
 * reads (`day_seat`, `seats[s].row`, `outcomes`, `revealed`) with its `round`, or null
 * when the events heard settle no pair. A slot holds the card that played (a
 * replacement, not the colourless card it replaced), its declared colour and whether
 * it was a dud.
 */
export function lastRound(events, daySeat) {
  let round = 1;
  let building = null;
  let played = null;
  const sideOf = (seat) => (seat === daySeat ? "day" : "night");
  for (const event of events) {
    switch (event.type) {
      case "day_night.round_started":
        if (!event.skipped) round = event.round;
        building = null;
        break;
      case "day_night.pair_revealed":
        if (building === null || building.slots[event.slot] !== undefined) building = { round, slots: [], outcomes: [] };
        building.slots[event.slot] = {
          day: { slot: event.slot, card: event.day, dud: false, color: null, replaced: [] },
          night: { slot: event.slot, card: event.night, dud: false, color: null, replaced: [] },
        };
        break;
      case "day_night.card_replaced": {
        const slot = building?.slots[event.slot]?.[sideOf(event.seat)];
        if (slot) {
          slot.replaced.push(event.discarded);
          slot.card = event.card;
        }
        break;
      }
      case "day_night.card_is_dud": {
        const slot = building?.slots[event.slot]?.[sideOf(event.seat)];
        if (slot) slot.dud = true;
        break;
      }
      case "day_night.color_declared": {
        const slot = building?.slots[event.slot]?.[sideOf(event.seat)];
        if (slot) slot.color = event.color;
        break;
      }
      case "day_night.pair_resolved":
        if (building !== null) {
          building.outcomes[event.slot] = event.outcome;
          played = building;
        }
        break;
      case "day_night.round_ended":
        if (building !== null) building.round = event.round;
        break;
    }
  }
  if (played === null) return null;
  const row = (side) => played.slots.filter(Boolean).map((slot) => slot[side]);
  const seats = [0, 1].map((seat) => ({ seat, row: row(sideOf(seat)) }));
  return { round: played.round, day_seat: daySeat, phase: "played", slot: -1, revealed: played.slots.length, outcomes: played.outcomes, seats };
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
    ctx.view.phase === "over" && seatView.hand?.length
      ? [h("div", { class: "muted" }, "Left in hand at the end:"), h("div", { class: "cards" }, seatView.hand.map((id) => cardElement(cards, id)))]
      : null,
    seatView.buried !== null && seatView.buried.length
      ? [h("div", { class: "muted" }, "Discarded face down (you alone see them):"), h("div", { class: "cards" }, seatView.buried.map((id) => cardElement(cards, id)))]
      : seatView.buried_count
        ? h("div", { class: "muted" }, `${seatView.buried_count} discarded face down`)
        : null,
  );
}

/** The two rows of `view` (the current one, or a round rebuilt by `lastRound`) in pairs, Day above. */
function pairs(ctx, view) {
  const { cards } = ctx;
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
        slotCard(ctx, day.row[i], "Day"),
        slotCard(ctx, night.row[i], "Night"),
        h("span", { class: "outcome" }, outcome === undefined ? (i < view.revealed ? "…" : "") : outcome === "tie" ? "tie" : `${outcome} wins`),
      ),
    );
  }
  const who = (s) => ctx.names[s.seat] ?? `seat ${s.seat}`;
  return [
    h(
      "p",
      { class: "muted" },
      `In each pair, Day (${who(day)}) above, Night (${who(night)}) below`,
      view.phase === "played" ? "." : "; pairs are turned face up one at a time.",
    ),
    h("div", { class: "cards rows" }, slots),
  ];
}

function slotCard(ctx, slot, label) {
  const { cards } = ctx;
  if (slot === undefined) return h("div", { class: "card face-down" }, "—");
  const extra = [];
  if (slot.dud) extra.push(h("strong", {}, "dud"));
  else if (slot.color) extra.push(h("span", { class: "note" }, `plays as ${COLORS[slot.color]}`));
  for (const id of slot.replaced ?? []) extra.push(h("span", { class: "note" }, `replaced ${cards[id]?.name ?? "a colourless card"}`));
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
