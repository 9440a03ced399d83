/**
 * The kit `oceancode/kit/openai`: the implementation openai shares with other extensions and third parties
 * (its types, hook tables and constants are the contract `oceancode/api/openai`, extensions/openai/api.ts).
 */
export { fixKey, toProviderError } from "./errors.js";
export { estimateUsage, lacksStreamOptions, lacksTools } from "./features.js";
export { createOpenAIProvider } from "./provider.js";
