/**
 * Helpers for bots: what a `view`'s `legal` allows, as actions ready to send.
 *
 * `legal.actions` are complete actions. Each of `legal.choices` is a
 * `choose_cards` choice (`ChooseCards` in the protocol): its `template` is an
 * action complete but for `field`, which takes between `min_count` and
 * `max_count` distinct ids of `options` (a single id instead of a list when
 * `single`; the list's order matters when `ordered`).
 *
 * @module
 */

/** @typedef {{type: string, [field: string]: unknown}} Action */
/**
 * @typedef {object} ChooseCards
 * @property {Action} template
 * @property {string} field
 * @property {string[]} options
 * @property {number} min_count
 * @property {number} max_count
 * @property {boolean} [ordered]
 * @property {boolean} [single]
 */
/** @typedef {{actions?: Action[], choices?: ChooseCards[]}} Legal */
/** @typedef {() => number} Random  uniform in [0, 1), like `Math.random` */

/** @param {{legal: Legal} | Legal} viewOrLegal */
function legalOf(viewOrLegal) {
  return viewOrLegal?.legal ?? viewOrLegal ?? {};
}

/**
 * The actions that can be sent as they are.
 * @param {{legal: Legal} | Legal} viewOrLegal  a `view` message or its `legal`
 * @returns {Action[]}
 */
export function concreteActions(viewOrLegal) {
  return [...(legalOf(viewOrLegal).actions ?? [])];
}

/**
 * The choices to fill before sending.
 * @param {{legal: Legal} | Legal} viewOrLegal
 * @returns {ChooseCards[]}
 */
export function choices(viewOrLegal) {
  return [...(legalOf(viewOrLegal).choices ?? [])];
}

/** Whether the seat has anything to decide. */
export function hasDecision(/** @type {{legal: Legal} | Legal} */ viewOrLegal) {
  return concreteActions(viewOrLegal).length > 0 || choices(viewOrLegal).length > 0;
}

/** The counts a choice allows: `[low, high]`, within what its options can give. */
export function countRange(/** @type {ChooseCards} */ choice) {
  const n = new Set(choice.options).size;
  const high = Math.min(choice.single ? 1 : choice.max_count, n);
  return [Math.max(choice.min_count, 0), high];
}

/**
 * Why `ids` cannot fill `choice`, or `null` when they can.
 * @param {ChooseCards} choice
 * @param {readonly string[]} ids
 * @returns {string | null}
 */
export function checkChoice(choice, ids) {
  const [low, high] = countRange(choice);
  if (!Array.isArray(ids)) return "ids must be a list";
  if (ids.length < low || ids.length > high) return `choose between ${low} and ${high} ids, not ${ids.length}`;
  const options = new Set(choice.options);
  const seen = new Set();
  for (const id of ids) {
    if (!options.has(id)) return `${JSON.stringify(id)} is not an option`;
    if (seen.has(id)) return `${JSON.stringify(id)} is chosen twice`;
    seen.add(id);
  }
  return null;
}

/**
 * The action made by filling `choice` with `ids`. When the choice is not
 * `ordered` the ids are put in the order of `options`, so the same set always
 * makes the same action. Throws `RangeError` when the ids break the constraints.
 *
 * @param {ChooseCards} choice
 * @param {readonly string[]} ids
 * @returns {Action}
 */
export function fillChoice(choice, ids) {
  const problem = checkChoice(choice, ids);
  if (problem !== null) throw new RangeError(problem);
  const chosen = choice.ordered ? [...ids] : [...new Set(choice.options)].filter((id) => ids.includes(id));
  const value = choice.single ? (chosen[0] ?? null) : chosen;
  return { ...choice.template, [choice.field]: value };
}

/**
 * A random valid filling of `choice`: a uniform count in range, then uniform ids.
 * @param {ChooseCards} choice
 * @param {Random} [random]
 * @returns {Action}
 */
export function randomFill(choice, random = Math.random) {
  const [low, high] = countRange(choice);
  if (low > high) throw new RangeError("no filling meets the choice's constraints");
  const count = low + Math.floor(random() * (high - low + 1));
  const pool = [...new Set(choice.options)];
  // A partial Fisher-Yates shuffle: the first `count` entries are a uniform pick.
  for (let i = 0; i < count; i++) {
    const j = i + Math.floor(random() * (pool.length - i));
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return fillChoice(choice, pool.slice(0, count));
}

/**
 * Every valid filling of `choice`, smallest counts first: combinations in option
 * order, or every ordering of them when `ordered`. Stops after `limit`.
 *
 * @param {ChooseCards} choice
 * @param {{limit?: number}} [options]
 * @returns {Generator<Action>}
 */
export function* enumerateChoice(choice, { limit = 1000 } = {}) {
  const [low, high] = countRange(choice);
  const pool = [...new Set(choice.options)];
  let produced = 0;
  for (let count = low; count <= high; count++) {
    for (const ids of picks(pool, count, Boolean(choice.ordered))) {
      if (produced++ >= limit) return;
      yield fillChoice(choice, ids);
    }
  }
}

/**
 * The concrete actions, then the fillings of each choice, at most `limit` in all.
 * @param {{legal: Legal} | Legal} viewOrLegal
 * @param {{limit?: number}} [options]
 * @returns {Action[]}
 */
export function listActions(viewOrLegal, { limit = 1000 } = {}) {
  const out = concreteActions(viewOrLegal).slice(0, limit);
  for (const choice of choices(viewOrLegal)) {
    for (const action of enumerateChoice(choice, { limit: limit - out.length })) out.push(action);
  }
  return out;
}

/**
 * One legal action at random (each concrete action and each choice equally
 * likely, choices filled at random), or `null` when there is nothing to decide.
 *
 * @param {{legal: Legal} | Legal} viewOrLegal
 * @param {Random} [random]
 * @returns {Action | null}
 */
export function randomAction(viewOrLegal, random = Math.random) {
  const actions = concreteActions(viewOrLegal);
  const options = choices(viewOrLegal);
  const total = actions.length + options.length;
  if (total === 0) return null;
  const i = Math.floor(random() * total);
  return i < actions.length ? actions[i] : randomFill(options[i - actions.length], random);
}

/** Lists of `count` distinct items of `pool`: combinations, or permutations when `ordered`. */
function* picks(pool, count, ordered, start = 0, prefix = [], used = new Set()) {
  if (prefix.length === count) {
    yield [...prefix];
    return;
  }
  for (let i = ordered ? 0 : start; i < pool.length; i++) {
    if (used.has(i)) continue;
    used.add(i);
    prefix.push(pool[i]);
    yield* picks(pool, count, ordered, i + 1, prefix, used);
    prefix.pop();
    used.delete(i);
  }
}
