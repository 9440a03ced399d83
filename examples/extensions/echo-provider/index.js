// An example model provider for oceancode, in plain JavaScript (no build step).
//
//   oceancode run --model echo/echo "hello"            -> echo: hello
//   "[429]" in the prompt       -> the first request of that step fails with code "rate_limited" (status 429);
//                                  the engine backs off and retries, and the retry is answered
//   "[too-long]" in the prompt  -> the first request of that step fails with code "prompt_too_long";
//                                  the engine asks the tideline to cut the window and retries once
//   "[tool <name> <json>]"      -> the first step calls that tool with that input; the next one answers
//
// It imports the running host's own engine kit (code; the types come from the contract oceancode/api/engine):
// the host resolves "oceancode/*" for extensions (no copy of oceancode is needed at run time;
// `npm i -D oceancode` only gives editors types).
import { emptyUsage, providerError } from "oceancode/kit/engine";

/** @typedef {import("oceancode/api/engine").Provider} Provider */
/** @typedef {import("oceancode/api/engine").ModelRequest} ModelRequest */
/** @typedef {import("oceancode/api/engine").ProviderEvent} ProviderEvent */
/** @typedef {import("oceancode/api/engine").ModelInfo} ModelInfo */
/** @typedef {import("oceancode/kernel").ExtensionContext} ExtensionContext */

// A provider error is any thrown object with a string `code` (rate_limited, overloaded, server, network,
// prompt_too_long, auth, bad_request, aborted), with an optional `status` and `retryAfterMs`: the engine
// classifies it by that code. providerError(code, message, { status, retryAfterMs }) makes one.

/**
 * What the request costs, estimated as a real provider would count it: the whole window (about 4
 * characters a token), so the tideline's gauge grows with the session.
 * @param {ModelRequest} req
 */
const windowTokens = (req) => Math.ceil(JSON.stringify(req.rows).length / 4);

/** @param {string} name @returns {Omit<ModelInfo, "known">} */
function describe(name) {
  return { id: `echo/${name}`, provider: "echo", name, contextWindow: 32_000, maxOutputTokens: 4_096, price: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } };
}

const sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal.aborted) return reject(providerError("aborted", "the request was cancelled"));
    const t = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(t), reject(providerError("aborted", "the request was cancelled"))), { once: true });
  });

/** The last user prompt in the window. @param {ModelRequest} req */
function lastPrompt(req) {
  for (let i = req.rows.length - 1; i >= 0; i--) if (req.rows[i].role === "user") return req.rows[i].text;
  return "";
}

/**
 * @typedef {{ text: string } | { toolCall: { name: string, input: Record<string, unknown> } } | { error: string } | { stall: string }} EchoPlan
 * What the next request answers instead of the echo (tests queue these in `plan`).
 */

/** @param {EchoPlan} p @param {AbortSignal} signal @returns {AsyncIterable<ProviderEvent>} */
async function* planned(p, signal) {
  if ("error" in p) throw providerError(p.error, `echo: planned ${p.error}`, p.error === "rate_limited" ? { status: 429, retryAfterMs: 20 } : {});
  if ("toolCall" in p) {
    yield { type: "tool_call", call: { id: "echo-planned", name: p.toolCall.name, input: p.toolCall.input } };
    yield { type: "usage", usage: emptyUsage() };
    yield { type: "done", stopReason: "tool_use" };
    return;
  }
  const text = "text" in p ? p.text : p.stall;
  for (const w of text.split(/(?<= )/)) yield { type: "text_delta", text: w };
  if ("stall" in p) {
    await sleep(60_000, signal); // until aborted
  }
  yield { type: "usage", usage: { ...emptyUsage(), outputTokens: Math.ceil(text.length / 4) } };
  yield { type: "done", stopReason: "end_turn" };
}

/** @returns {Provider & { plan: EchoPlan[] }} */
export function createEchoProvider() {
  /** @type {EchoPlan[]} */
  const plan = [];
  const failedOnce = new Set(); // "<fault>:<session>:<step>": each fault fails the first attempt only
  const once = (fault, req) => {
    const key = `${fault}:${req.sessionId}:${req.sessionStep}`;
    if (failedOnce.has(key)) return false;
    failedOnce.add(key);
    return true;
  };
  return {
    id: "echo",
    plan,
    models: () => [describe("echo")],
    describe,
    /** @param {ModelRequest} req @param {AbortSignal} signal @returns {AsyncIterable<ProviderEvent>} */
    async *stream(req, signal) {
      if (signal.aborted) throw providerError("aborted", "the request was cancelled");
      const next = plan.shift();
      if (next) {
        yield* planned(next, signal);
        return;
      }
      const prompt = lastPrompt(req);
      if (prompt.includes("[429]") && once("429", req)) throw providerError("rate_limited", "echo: rate limited (429)", { status: 429, retryAfterMs: 20 });
      if (prompt.includes("[too-long]") && once("too-long", req)) throw providerError("prompt_too_long", `echo: prompt is too long: ${req.rows.length} rows in the window`, { status: 400 });
      const last = req.rows.at(-1);
      const tool = /\[tool ([a-z][a-z0-9_]*) (\{.*\})\]/.exec(prompt);
      if (tool && last?.role === "user") {
        yield { type: "text_delta", text: `calling ${tool[1]}` };
        yield { type: "tool_call", call: { id: `echo-${req.sessionStep}`, name: tool[1], input: JSON.parse(tool[2]) } };
        yield { type: "usage", usage: { ...emptyUsage(), inputTokens: windowTokens(req), outputTokens: 2 } };
        yield { type: "done", stopReason: "tool_use" };
        return;
      }
      const answer = last?.role === "tool" ? `echo: the tool said ${last.results.map((r) => r.content).join(" | ")}` : `echo: ${prompt}`;
      // streamed word by word; "[slow]" waits between words (abortable)
      const words = answer.split(/(?<= )/);
      for (const w of words) {
        if (prompt.includes("[slow]")) await sleep(200, signal);
        if (signal.aborted) throw providerError("aborted", "the request was cancelled");
        yield { type: "text_delta", text: w };
      }
      yield { type: "usage", usage: { ...emptyUsage(), inputTokens: windowTokens(req), outputTokens: Math.ceil(answer.length / 4) } };
      yield { type: "done", stopReason: "end_turn" };
    },
  };
}

export default {
  /** @param {ExtensionContext} ctx */
  activate(ctx) {
    /** @type {import("oceancode/api/engine").EngineService} */
    const engine = ctx.services.get("engine");
    const provider = createEchoProvider();
    engine.providers.register(provider);
    for (const m of provider.models()) engine.models.add(m);
  },
};
