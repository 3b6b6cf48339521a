export * from "./catalog.js";
export * from "./codec.js";
export * from "./client.js";
export * from "./legal.js";
export * from "./patch.js";
export * from "./rest.js";
export type * from "./protocol.js";
export { ErrorCode, RejectReason } from "./codec.js";
