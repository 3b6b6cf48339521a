// Vampire Wedding Planner: your hand and theme, the discard pile (any card can be
// taken with every card above it), the draw pile as a count, the turns left, and
// the other planners' hands as counts and the cards they took face up.

import { cardElement, h } from "../cards.js";

export function render(ctx) {
  const { view, cards } = ctx;
  const draw = ctx.actions.find((a) => a.type === "wedding_planner.draw");
  const takeByCard = new Map(ctx.actions.filter((a) => a.type === "wedding_planner.take").map((a) => [a.card, a]));
  const discardByCard = new Map(ctx.actions.filter((a) => a.type === "wedding_planner.discard").map((a) => [a.card, a]));
  const totalTurns = view.turns_per_player * view.players;
  const current = view.current_seat === null ? "the wedding is planned" : `${ctx.names[view.current_seat] ?? `seat ${view.current_seat}`} to ${view.phase === "pickup" ? "pick up" : "discard"}`;
  const piles = h(
    "section",
    { class: "zone piles" },
    h("h3", {}, `Turns left: ${totalTurns - view.turns_done} of ${totalTurns} (${view.turns_per_player} each) · ${current}`),
    h(
      "div",
      { class: "cards" },
      h(
        "div",
        {
          class: `card face-down draw-pile ${draw ? "act" : ""}`,
          onclick: draw ? () => ctx.act(draw) : null,
          title: draw ? "draw the top card" : "the draw pile",
        },
        `draw pile: ${view.draw_count}`,
      ),
    ),
    h("div", { class: "muted" }, takeByCard.size ? "Discard pile, bottom to top: click a card to take it with every card above it" : "Discard pile, bottom to top:"),
    h(
      "div",
      { class: "cards discard-pile" },
      view.discard.map((id, i) => {
        const take = takeByCard.get(id);
        const above = view.discard.length - 1 - i;
        return take
          ? cardElement(cards, id, { classes: "act", onclick: () => ctx.act(take), title: above ? `take this card and the ${above} above it` : "take the top card" })
          : cardElement(cards, id);
      }),
    ),
  );
  const seats = view.seats.map((s) => seatZone(ctx, s, discardByCard));
  const mine = seats.filter((_, i) => view.seats[i].seat === ctx.seat);
  const others = seats.filter((_, i) => view.seats[i].seat !== ctx.seat);
  const end = view.draw_pile.length
    ? h("section", { class: "zone" }, h("h3", {}, "Never drawn (top first)"), h("div", { class: "cards" }, view.draw_pile.map((id) => cardElement(cards, id))))
    : null;
  const aside = view.set_aside.length
    ? h("section", { class: "zone" }, h("h3", {}, "Set aside (no Magic back)"), h("div", { class: "cards" }, view.set_aside.map((id) => cardElement(cards, id))))
    : null;
  return h("div", { class: "wedding" }, ...others, piles, ...mine, end, aside);
}

function seatZone(ctx, seatView, discardByCard) {
  const { cards, view } = ctx;
  const name = ctx.names[seatView.seat] ?? `seat ${seatView.seat}`;
  const mine = seatView.seat === ctx.seat;
  const hidden = seatView.hand_count - seatView.cards.length;
  const score = seatView.score;
  return h(
    "section",
    { class: `zone seat ${mine ? "mine" : ""}`, dataset: { seat: String(seatView.seat) } },
    h(
      "h3",
      {},
      `${name}${mine ? " (you)" : ""}: ${seatView.hand_count} card(s) in hand · ${view.turns_per_player - seatView.turns_taken} turn(s) left`,
      view.winners.includes(seatView.seat) ? " · winner" : "",
    ),
    h(
      "div",
      { class: "cards" },
      h("div", { class: "theme-slot" }, h("div", { class: "muted" }, "Theme"), seatView.has_theme ? cardElement(cards, seatView.theme, { title: "theme (hidden until the end)" }) : h("span", { class: "muted" }, "none")),
      seatView.cards.map((id) => {
        const discard = discardByCard.get(id);
        return discard ? cardElement(cards, id, { classes: "act", onclick: () => ctx.act(discard), title: "discard this card" }) : cardElement(cards, id);
      }),
      hidden > 0 ? h("div", { class: "card face-down" }, `${hidden} hidden`) : null,
    ),
    score
      ? h("p", { class: "score" }, `Score ${score.total}: theme ${score.theme}, shiny ${score.shiny}, venue ${score.venue ? cards[score.venue]?.name ?? "yes" : "none"}, penalty ${score.penalty}`)
      : null,
  );
}
