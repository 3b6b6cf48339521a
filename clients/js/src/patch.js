/**
 * JSON Patch (RFC 6902) as the server uses it: `add`, `remove` and `replace` on
 * documents of JSON values, with paths that are JSON Pointers (RFC 6901).
 *
 * Mirrors `packplay_protocol.patch.apply`. The other RFC 6902 operations (`move`,
 * `copy`, `test`) are never sent and are refused like any operation that does not
 * fit.
 *
 * @module
 */

/** @typedef {{op: "add" | "remove" | "replace", path: string, value?: unknown}} PatchOp */

/** The operations the protocol uses. */
export const PATCH_OPS = Object.freeze(["add", "remove", "replace"]);

/** An operation does not fit the document: a path that does not exist, a bad index, an unknown op. */
export class PatchError extends Error {
  constructor(message) {
    super(message);
    this.name = "PatchError";
  }
}

/**
 * Apply `ops` in order to `document`, in place, and return it (a new value only
 * when an operation replaces the whole document, path `""`).
 *
 * All or nothing: when an operation does not fit, the ones before it are undone,
 * `document` is left as it was and a {@link PatchError} is thrown. Values are
 * copied in, so the document never shares objects with `ops`.
 *
 * @param {unknown} document  JSON as decoded: objects, arrays, strings, numbers, booleans, null
 * @param {readonly PatchOp[]} ops
 * @returns {unknown}
 * @throws {PatchError}
 */
export function applyPatch(document, ops) {
  if (!Array.isArray(ops)) throw new PatchError("a patch is an array of operations");
  const undo = [];
  try {
    for (const op of ops) document = applyOne(document, op, undo);
  } catch (error) {
    for (let i = undo.length - 1; i >= 0; i--) undo[i]();
    throw error;
  }
  return document;
}

/** A key as a JSON Pointer reference token (`~` and `/` escaped). */
export function escapeToken(key) {
  return key.replaceAll("~", "~0").replaceAll("/", "~1");
}

/** The key a JSON Pointer reference token names (`~1` is `/`, then `~0` is `~`). */
export function unescapeToken(token) {
  return token.replaceAll("~1", "/").replaceAll("~0", "~");
}

function applyOne(document, op, undo) {
  if (!isObject(op)) throw new PatchError("an operation is an object");
  const { op: name, path } = op;
  if (!PATCH_OPS.includes(name)) throw new PatchError(`unknown operation ${JSON.stringify(name)}`);
  if (typeof path !== "string") throw new PatchError("an operation's path is a string");
  if (name !== "remove" && !Object.hasOwn(op, "value")) throw new PatchError(`${name} ${path}: no value`);
  if (path === "") {
    if (name === "remove") throw new PatchError("cannot remove the whole document");
    return copy(op.value);
  }
  if (!path.startsWith("/")) throw new PatchError(`${JSON.stringify(path)} is not a JSON Pointer`);
  const tokens = path.slice(1).split("/");
  const last = tokens.pop();
  let parent = document;
  for (const token of tokens) parent = child(parent, token, path);
  if (Array.isArray(parent)) undo.push(changeArray(parent, last, name, op.value, path));
  else if (isObject(parent)) undo.push(changeObject(parent, unescapeToken(last), name, op.value, path));
  else throw new PatchError(`${path}: the parent is not an object or an array`);
  return document;
}

function child(node, token, path) {
  if (Array.isArray(node)) return node[index(node, token, path, false)];
  if (isObject(node)) {
    const key = unescapeToken(token);
    if (!Object.hasOwn(node, key)) throw new PatchError(`${path}: no member ${JSON.stringify(key)}`);
    return node[key];
  }
  throw new PatchError(`${path}: cannot descend into a scalar`);
}

/** Change an object's member; returns how to undo it. */
function changeObject(parent, key, name, value, path) {
  const had = Object.hasOwn(parent, key);
  const before = parent[key];
  if (name !== "add" && !had) throw new PatchError(`${path}: no member ${JSON.stringify(key)}`);
  if (name === "remove") delete parent[key];
  else setMember(parent, key, copy(value));
  return had ? () => setMember(parent, key, before) : () => delete parent[key];
}

/** Change an array's element; returns how to undo it. */
function changeArray(parent, token, name, value, path) {
  if (name === "add") {
    const at = token === "-" ? parent.length : index(parent, token, path, true);
    parent.splice(at, 0, copy(value));
    return () => parent.splice(at, 1);
  }
  const at = index(parent, token, path, false);
  const before = parent[at];
  if (name === "remove") {
    parent.splice(at, 1);
    return () => parent.splice(at, 0, before);
  }
  parent[at] = copy(value);
  return () => {
    parent[at] = before;
  };
}

const INDEX = /^(0|[1-9][0-9]*)$/;

/** An array index token: digits without leading zeros, within the array (or at its end when allowed). */
function index(array, token, path, allowEnd) {
  if (!INDEX.test(token)) throw new PatchError(`${path}: ${JSON.stringify(token)} is not an array index`);
  const at = Number(token);
  if (at > array.length || (at === array.length && !allowEnd)) {
    throw new PatchError(`${path}: index ${at} is out of range`);
  }
  return at;
}

/** Set an own member, even one named `__proto__`. */
function setMember(object, key, value) {
  Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
}

/** A deep copy of a JSON value (a patch's values stay the patch's own). */
function copy(value) {
  if (Array.isArray(value)) return value.map(copy);
  if (isObject(value)) {
    const out = {};
    for (const key of Object.keys(value)) setMember(out, key, copy(value[key]));
    return out;
  }
  return value;
}

function isObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !ArrayBuffer.isView(value);
}
