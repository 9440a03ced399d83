/**
 * The published contract `oceancode/api/openai`: the OpenAI chat-completions provider as a reusable
 * piece, so an OpenAI-compatible route (ollama, openrouter, a user's own base URL) is this provider with
 * its own id, endpoint, key rule, headers and wording rather than a copy of it.
 */
export { PLACEHOLDER_KEY, DEFAULT_BASE_URL, type OpenAIOptions, type OpenAIRoute } from "./provider.js";
export { type ErrorWording } from "./errors.js";
export { type Feature } from "./features.js";
