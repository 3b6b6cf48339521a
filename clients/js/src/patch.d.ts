import type { PatchOp } from "./protocol.js";

export const PATCH_OPS: readonly ["add", "remove", "replace"];
/** An operation that does not fit the document; nothing was changed. */
export class PatchError extends Error {}
/** Apply RFC 6902 add, remove and replace in order, in place, all or nothing. */
export function applyPatch<T>(document: T, ops: readonly PatchOp[]): T;
export function escapeToken(key: string): string;
export function unescapeToken(token: string): string;
