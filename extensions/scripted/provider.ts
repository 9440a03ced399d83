/**
 * The scripted provider. Deterministic: the step answered is chosen by the session's step number, so a
 * resumed session (--continue) carries on where it stopped. It reports usage like a real provider with a
 * prompt cache: the prefix shared with the session's previous request counts as cache read.
 */
import fs from "node:fs";
import path from "node:path";
import { PROVIDER_ERROR_CODES, type ModelInfo, type ModelRequest, type Provider, type ProviderEvent, type Row } from "../engine/api.js";
import { ProviderError, providerErrorCode } from "../engine/kit.js";
import { loadScript, type Script, type ScriptStep } from "./script.js";

const ECHO = "echo";

function lastUserText(rows: Row[]): string {
  for (let i = rows.length - 1; i >= 0; i--) {
    const r = rows[i]!;
    if (r.role === "user") return r.text;
  }
  return "";
}

function serialize(rows: Row[]): string[] {
  return rows.map((r) => JSON.stringify(r.role === "note" ? { role: r.role, text: r.text } : r));
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new ProviderError("aborted", "aborted"));
    const t = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(t);
      reject(new ProviderError("aborted", "aborted"));
    }, { once: true });
  });
}

export class ScriptedProvider implements Provider {
  readonly id = "scripted";
  private readonly scripts = new Map<string, Script>();
  private readonly attempts = new Map<string, number>();
  /** per session: the previous request's serialized rows (for cache-read accounting) */
  private readonly previous = new Map<string, string[]>();

  constructor(
    private readonly project: string,
    private readonly recordFile?: string,
  ) {}

  models(): Array<Omit<ModelInfo, "known">> {
    return [{ id: "scripted/echo", provider: "scripted", name: ECHO, contextWindow: 200_000, maxOutputTokens: 8_192, price: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } }];
  }

  resolveFile(name: string): string {
    const candidates = path.isAbsolute(name) ? [name] : [path.resolve(this.project, name), path.resolve(name)];
    return candidates.find((c) => fs.existsSync(c)) ?? candidates[0]!;
  }

  private script(name: string): Script {
    let s = this.scripts.get(name);
    if (!s) {
      try {
        s = loadScript(this.resolveFile(name));
      } catch (e) {
        throw new ProviderError("bad_request", (e as Error).message);
      }
      this.scripts.set(name, s);
    }
    return s;
  }

  describe(name: string): Omit<ModelInfo, "known"> | undefined {
    if (name === ECHO) return this.models()[0];
    const s = this.script(name);
    return {
      id: `scripted/${name}`,
      provider: "scripted",
      name,
      contextWindow: s.context_window ?? 200_000,
      maxOutputTokens: s.max_output_tokens ?? 8_192,
      price: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    };
  }

  async *stream(req: ModelRequest, signal: AbortSignal): AsyncIterable<ProviderEvent> {
    if (this.recordFile) {
      fs.appendFileSync(
        this.recordFile,
        `${JSON.stringify({ sessionId: req.sessionId, sessionStep: req.sessionStep, model: req.model.id, system: req.system, rows: req.rows, tools: req.tools.map((t) => t.name), extra: req.extra })}\n`,
      );
    }
    const prompt = lastUserText(req.rows);
    let step: ScriptStep;
    if (req.model.name === ECHO) step = { text: `ok: ${prompt}` };
    else {
      const s = this.script(req.model.name);
      step = s.steps[req.sessionStep - 1] ?? s.after ?? { text: "(script finished)" };
    }
    if (step.error) {
      const key = `${req.sessionId}:${req.sessionStep}`;
      const n = (this.attempts.get(key) ?? 0) + 1;
      this.attempts.set(key, n);
      if (n <= (step.error.times ?? 1)) {
        const code = providerErrorCode(step.error);
        if (!code) throw new ProviderError("bad_request", `scripted step ${req.sessionStep}: error.code must be one of ${PROVIDER_ERROR_CODES.join(", ")}`);
        throw new ProviderError(code, step.error.message ?? `scripted ${code}`, { status: step.error.status, retryAfterMs: step.error.retry_after_ms });
      }
    }
    if (step.delay_ms) await delay(step.delay_ms, signal);
    if (signal.aborted) throw new ProviderError("aborted", "aborted");

    // usage as a caching provider would report it: the shared prefix with the previous request is a cache read
    const rows = serialize(req.rows);
    const prev = this.previous.get(req.sessionId) ?? [];
    let shared = 0;
    while (shared < rows.length && shared < prev.length && rows[shared] === prev[shared]) shared++;
    this.previous.set(req.sessionId, rows);
    const fixed = Math.ceil((req.system.join("\n").length + JSON.stringify(req.tools).length) / 4);
    const sharedTok = Math.ceil(rows.slice(0, shared).reduce((n, r) => n + r.length, 0) / 4);
    const newTok = Math.ceil(rows.slice(shared).reduce((n, r) => n + r.length, 0) / 4);

    const fill = (t: string) => t.replaceAll("{{prompt}}", prompt).replaceAll("{{n}}", String(req.sessionStep));
    const text = fill(step.text ?? "");
    if (text) {
      const pieces = Math.max(1, Math.min(step.chunks ?? 8, text.length));
      const size = Math.ceil(text.length / pieces);
      for (let i = 0; i < text.length; i += size) {
        if (signal.aborted) throw new ProviderError("aborted", "aborted");
        yield { type: "text_delta", text: text.slice(i, i + size) };
      }
    }
    const calls = (step.tool_calls ?? []).map((c, i) => ({
      id: c.id ?? `call_${req.sessionStep}_${i + 1}`,
      name: c.name,
      input: JSON.parse(fill(JSON.stringify(c.input))) as Record<string, unknown>,
    }));
    for (const call of calls) yield { type: "tool_call", call };
    const outputTokens = step.usage?.output ?? Math.max(1, Math.ceil((text.length + JSON.stringify(calls).length) / 4));
    const inputTokens = step.usage?.input ?? newTok + (shared === 0 ? fixed : 0);
    yield { type: "usage", usage: { inputTokens, outputTokens, cacheReadTokens: step.usage?.input !== undefined ? 0 : sharedTok + (shared > 0 ? fixed : 0), cacheWriteTokens: 0 } };
    yield { type: "done", stopReason: calls.length ? "tool_use" : (step.stop_reason ?? "end_turn") };
  }
}
