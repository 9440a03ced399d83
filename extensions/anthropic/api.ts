/**
 * The published contract `oceancode/api/anthropic`: what another route to Claude (Amazon Bedrock, Google
 * Vertex AI) reuses so caching markers, images, tool use, errors and the refusal stop behave the same: the
 * request mapping, the stream mapping over any SDK client of the Messages API, and the error mapping.
 */
export { toAnthropicRequest, toMessages, type CacheTtl } from "./messages.js";
export { streamMessages, type MessagesSdk, type StreamOptions } from "./stream.js";
export { toProviderError, ANTHROPIC_ROUTE, type ApiErrorInfo, type MessagesRoute } from "./errors.js";
export { sdkLogger, onceEach } from "./provider.js";
export { anthropicModels } from "./models.js";
