// How a card looks: name, colours, type line, mana value, power/toughness or loyalty,
// and a link to its image by set and collector number. Images are an enhancement:
// the page shows everything without them, and loads them only when asked to.

export const COLOR_NAMES = { W: "white", U: "blue", B: "black", R: "red", G: "green", C: "colorless" };

/** Create an element: `h("div", {class: "x", onclick}, child, "text")`. */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on")) element.addEventListener(name.slice(2), value);
    else if (name === "dataset") Object.assign(element.dataset, value);
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

/** Whether card images are shown (a checkbox in the header; off by default). */
export function imagesOn() {
  return localStorage.getItem("packplay.images") === "on";
}

/** The URL of a card's image, by set and collector number. */
export function imageUrl(card) {
  return `https://api.scryfall.com/cards/${encodeURIComponent(card.set.toLowerCase())}/${encodeURIComponent(card.number)}?format=image&version=normal`;
}

/** Colour pips: one per colour, or a "C" for colourless. */
export function pips(colors) {
  const list = colors.length > 0 ? colors : ["C"];
  return h(
    "span",
    { class: "pips", title: list.map((c) => COLOR_NAMES[c]).join(", ") },
    list.map((c) => h("span", { class: `pip ${c}` }, c)),
  );
}

/** A short name of a card for logs and buttons: "Name (G, 2)". */
export function cardLabel(cards, id) {
  const card = cards[id];
  if (card === undefined) return "a hidden card";
  return card.name;
}

/**
 * A card's element. `cards` is the view's card table; an id it lacks is a card the
 * audience may not know, shown face down. `options.show` lists the extra facts the
 * game uses: "pt" (power/toughness), "loyalty".
 */
export function cardElement(cards, id, { onclick = null, classes = "", title = null, extra = null } = {}) {
  const card = id === null ? undefined : cards[id];
  if (card === undefined) {
    return clickable(h("div", { class: `card face-down ${classes}`, onclick, title: title ?? "face down" }, "face down", extra), onclick);
  }
  const colorClass = card.colors.length === 1 ? `c-${card.colors[0]}` : card.colors.length > 1 ? "multi" : "";
  const stats = [];
  if (card.power !== null && card.toughness !== null) stats.push(h("span", { class: "pt" }, `${card.power}/${card.toughness}`));
  if (card.loyalty !== null) stats.push(h("span", { class: "loyalty" }, `loyalty ${card.loyalty}`));
  const facts = [card.name, card.type_line, `mana value ${card.mana_value}`];
  const element = h(
    "div",
    {
      class: `card ${colorClass} ${card.foil ? "foil" : ""} ${classes}`,
      onclick,
      title: title ?? facts.join(" · "),
      dataset: { cardId: id, name: card.name },
    },
    h("span", { class: "name" }, card.name),
    h("span", { class: "type" }, card.type_line || (card.magic_back ? "" : "no Magic back")),
    // Colours and mana value on a line of their own: the name has the card's whole width.
    h("span", { class: "cost" }, pips(card.colors), h("span", { class: "mv", title: "mana value" }, card.mana_value)),
    imagesOn() && card.magic_back && card.number
      ? h("img", { src: imageUrl(card), alt: card.name, loading: "lazy" })
      : null,
    h(
      "span",
      { class: "stats" },
      card.magic_back && card.number
        ? h("a", { class: "image", href: imageUrl(card), target: "_blank", rel: "noopener", onclick: stop }, `${card.set} ${card.number}`)
        : h("span", {}, card.set),
      ...stats,
      card.foil ? h("span", { class: "foil-mark", title: "a foil card" }, "foil") : null,
    ),
    extra,
  );
  return clickable(element, onclick);
}

/** A card that acts when clicked is a button for the keyboard too (Enter or Space). */
function clickable(element, onclick) {
  if (!onclick) return element;
  element.setAttribute("role", "button");
  element.tabIndex = 0;
  element.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      onclick(event);
    }
  });
  return element;
}

function stop(event) {
  event.stopPropagation();
}

/** A row of card elements. */
export function cardRow(cards, ids, options = {}) {
  return h("div", { class: "cards" }, ids.map((id) => cardElement(cards, id, options)));
}
