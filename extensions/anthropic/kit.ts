/**
 * The kit `oceancode/kit/anthropic`: the implementation anthropic shares with other extensions and third parties
 * (its types, hook tables and constants are the contract `oceancode/api/anthropic`, extensions/anthropic/api.ts).
 */
export { toProviderError } from "./errors.js";
export { toAnthropicRequest, toMessages } from "./messages.js";
export { anthropicModels } from "./models.js";
export { onceEach, sdkLogger } from "./provider.js";
export { streamMessages } from "./stream.js";
