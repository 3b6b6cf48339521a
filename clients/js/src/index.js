/**
 * `@packplay/client`: the codec, the WebSocket client and the legal-action
 * helpers of Packplay protocol v1.
 *
 * @module
 */

export * from "./catalog.js";
export * from "./codec.js";
export * from "./client.js";
export * from "./legal.js";
