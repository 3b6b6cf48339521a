/**
 * `@packplay/client`: the codec, the WebSocket client, JSON Patch and the
 * legal-action helpers of Packplay protocol v2.
 *
 * @module
 */

export * from "./catalog.js";
export * from "./codec.js";
export * from "./client.js";
export * from "./legal.js";
export * from "./patch.js";
export * from "./rest.js";
