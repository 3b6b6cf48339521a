// Base Race: the 4x6 board, your half at the bottom, face-down and revealed cards,
// legal moves highlighted (click one of your cards, then a highlighted square), and
// the battles as they happen.

import { cardElement, h } from "../cards.js";
import { battleKind, endReason } from "../words.js";

const ROWS = 6;
const COLUMNS = 4;

/** The card whose moves are shown, by id. */
let selected = null;

export function render(ctx) {
  const { view, cards } = ctx;
  const me = ctx.seat ?? 0;
  const layout = ctx.choices.find((c) => c.template.type === "base_race.layout");
  const moves = ctx.actions.filter((a) => a.type === "base_race.move");
  const movable = new Set(moves.map((a) => a.card));
  if (selected !== null && !movable.has(selected)) selected = null;
  const targets = new Map(moves.filter((a) => a.card === selected).map((a) => [`${a.row},${a.col}`, a]));
  const picker = layout ? ctx.picker(layout) : null;
  const preview = new Map();
  if (picker) {
    const first = me === 0 ? 0 : 3;
    picker.picked.forEach((id, i) => preview.set(`${first + Math.floor(i / COLUMNS)},${i % COLUMNS}`, id));
  }
  const pieces = new Map(view.board.map((p) => [`${p.row},${p.col}`, p]));
  // Seat 0's half is rows 0-2: for seat 0 the board is drawn upside down, so that your half is below.
  const rowOrder = me === 0 ? [5, 4, 3, 2, 1, 0] : [0, 1, 2, 3, 4, 5];
  const squares = [];
  for (const row of rowOrder) {
    for (let col = 0; col < COLUMNS; col++) {
      const key = `${row},${col}`;
      const piece = pieces.get(key);
      const target = targets.get(key);
      const ownHalf = me === 0 ? row <= 2 : row >= 3;
      let content = null;
      if (piece) {
        const known = piece.card ?? null;
        const canMove = movable.has(piece.id);
        content = cardElement(cards, known, {
          classes: `${canMove ? "act" : ""} ${selected === piece.id ? "selected" : ""} ${piece.face_up ? "face-up" : "hidden-piece"}`,
          onclick: canMove ? () => select(ctx, piece.id) : null,
          title: `${ctx.names[piece.owner] ?? `seat ${piece.owner}`}'s card${piece.face_up ? ", revealed" : known ? ", face down (you know it)" : ", face down"}`,
          // The owner, and the side the card shows (a face-down card nobody here knows says so itself).
          extra: h("span", { class: "piece-owner" }, `${ctx.names[piece.owner] ?? `seat ${piece.owner}`}${piece.face_up ? " · revealed" : known ? " · face down" : ""}`),
        });
      } else if (preview.has(key)) {
        content = cardElement(cards, preview.get(key), { classes: "preview" });
      }
      squares.push(
        h(
          "div",
          {
            class: `square ${ownHalf ? "mine-half" : ""} ${target ? "target act" : ""}`,
            dataset: { row: String(row), col: String(col) },
            onclick: target ? () => ctx.act(target) : null,
            title: target ? (piece ? "attack this card" : "move here") : null,
          },
          h("span", { class: "coord" }, `row ${row + 1}, col ${col + 1}`),
          content,
        ),
      );
    }
  }
  const battles = ctx.recent.filter((e) => e.type === "base_race.battle");
  const turn =
    view.phase === "layout"
      ? `lay out: ${view.laid_out.map((done, s) => `${ctx.names[s] ?? `seat ${s}`} ${done ? "done" : "not yet"}`).join(", ")}`
      : view.phase === "play"
        ? `${ctx.names[view.turn] ?? `seat ${view.turn}`} to move · move ${view.moves} of at most ${view.move_limit}`
        : `The game is over${view.end_reason ? `: ${endReason(view.end_reason)}` : ""}.`;
  return h(
    "div",
    { class: "base-race" },
    h("p", {}, turn),
    battles.length
      ? h("section", { class: "zone battle" }, h("h3", {}, "Battle"), battles.map((b) => battleLine(ctx, b)))
      : null,
    h("section", { class: "zone" }, h("h3", {}, "The board"), h("div", { class: "board" }, squares)),
    picker ? layoutZone(ctx, picker) : null,
    h(
      "section",
      { class: "zone" },
      h("h3", {}, "Discard pile"),
      h("div", { class: "cards" }, view.discard.map((id) => cardElement(cards, id))),
      h("p", { class: "muted" }, `Out of the game, face down: ${view.out_count}. Cards still to lay out: ${view.hand_counts.join(" / ")}.`),
      view.out.length ? h("div", { class: "cards" }, view.out.map((id) => cardElement(cards, id))) : null,
    ),
  );
}

function select(ctx, id) {
  selected = selected === id ? null : id;
  ctx.rerender();
}

function battleLine(ctx, battle) {
  const { cards } = ctx;
  return h(
    "div",
    { class: "cards" },
    cardElement(cards, battle.attacker, { title: "attacker" }),
    h("span", {}, " attacks "),
    cardElement(cards, battle.defender, { title: "defender" }),
    h(
      "span",
      {},
      ` (${battleKind(battle.kind)})${battle.moved ? ", the attacker moves in" : ""}${battle.extra_turn !== null ? `, extra turn for ${ctx.names[battle.extra_turn] ?? `seat ${battle.extra_turn}`}` : ""}`,
    ),
  );
}

function layoutZone(ctx, picker) {
  const { cards, view } = ctx;
  return h(
    "section",
    { class: "zone hand" },
    h("h3", {}, `Lay out your 12 cards: click them in order (${picker.picked.length} of 12 placed; the board shows where each one goes)`),
    h(
      "div",
      { class: "cards" },
      view.hand.map((id) => {
        const at = picker.order(id);
        return cardElement(cards, id, {
          classes: `pick ${at >= 0 ? "picked" : ""}`,
          onclick: () => picker.toggle(id),
          extra: at >= 0 ? h("span", { class: "order" }, at + 1) : null,
        });
      }),
    ),
    h(
      "div",
      { class: "choice-bar" },
      h("button", { type: "button", class: "primary lay-out", disabled: picker.problem() !== null, onclick: () => picker.confirm() }, "Lay them out"),
      h("button", { type: "button", onclick: () => picker.clear() }, "Clear"),
    ),
  );
}
