/**
 * The published contract `oceancode/api/anthropic`: what another route to Claude (Amazon Bedrock, Google
 * Vertex AI) reuses so caching markers, images, tool use, errors and the refusal stop behave the same: the
 * request mapping, the stream mapping over any SDK client of the Messages API, and the error mapping.
 */
export { type CacheTtl } from "./messages.js";
export { type MessagesSdk, type StreamOptions } from "./stream.js";
export { ANTHROPIC_ROUTE, type ApiErrorInfo, type MessagesRoute } from "./errors.js";

