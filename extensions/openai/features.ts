/**
 * What an OpenAI-compatible server may lack, recognised from what it sends: tool support for a model (a 400
 * worded by Ollama, vLLM, LM Studio or llama.cpp), stream_options (a 400 naming it) and usage (no usage
 * chunk despite include_usage).
 */
import OpenAI from "openai";
import type { Usage } from "../engine/api.js";

export type Feature = "tools" | "usage" | "images";

// Ollama: "<model> does not support tools"; vLLM: "\"auto\" tool choice requires --enable-auto-tool-choice";
// llama.cpp: "tools param requires --jinja flag"; others: "tools are not supported", "tool use is not supported"
const NO_TOOLS = /does not support tools|enable-auto-tool-choice|tools param requires|tools? (?:calls? |calling |use )?(?:is|are) not supported|(?:tool|function) call(?:ing|s)? (?:is )?not supported|unsupported.{0,20}\btools?\b/i;

/** The text of an SDK error from a 4xx (or 500), else undefined. */
function refusalText(e: unknown): string | undefined {
  // a 4xx, or the 500 some servers answer a refused feature with: the wording decides
  if (!(e instanceof OpenAI.APIError) || e.status === undefined || e.status < 400 || e.status > 500) return undefined;
  const body = (e.error ?? {}) as { message?: unknown; error?: { message?: unknown } | string };
  const inner = typeof body.error === "string" ? body.error : body.error?.message;
  return `${String(body.message ?? "")} ${String(inner ?? "")} ${e.message}`;
}

/** Is this a server's refusal of the request's tools (so a request without them can succeed)? */
export function lacksTools(e: unknown): boolean {
  const text = refusalText(e);
  return text !== undefined && NO_TOOLS.test(text);
}

/** Is this a server's refusal of stream_options (older servers: "Unrecognized request argument", "extra fields not permitted")? */
export function lacksStreamOptions(e: unknown): boolean {
  const text = refusalText(e);
  return text !== undefined && /stream_options/i.test(text) && !NO_TOOLS.test(text);
}

/** About four characters a token: the estimate a server that reports no usage gets. */
export function estimateUsage(body: { messages: unknown; tools?: unknown }, output: string): Pick<Usage, "inputTokens" | "outputTokens" | "cacheReadTokens"> {
  const input = JSON.stringify(body.messages).length + (body.tools ? JSON.stringify(body.tools).length : 0);
  return { inputTokens: Math.ceil(input / 4), outputTokens: Math.ceil(output.length / 4), cacheReadTokens: 0 };
}
