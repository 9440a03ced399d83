/**
 * The claude CLI's stream-json output (one JSON object a line) mapped to provider events: text deltas
 * (from --include-partial-messages' stream events), the tools Claude Code ran (its assistant tool_use
 * blocks paired with the tool_result in the next user message), usage and cost from the result line.
 * Only the top-level conversation counts: lines with a parent_tool_use_id are a sub-agent's inner work.
 */
import { type ProviderErrorLike, type ProviderEvent, type ToolCall, type Usage } from "../engine/api.js";
import { emptyUsage, printableText, providerError } from "../engine/kit.js";

type Json = Record<string, unknown>;
type StopReason = Extract<ProviderEvent, { type: "done" }>["stopReason"];

function obj(v: unknown): Json | undefined {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Json) : undefined;
}
function num(v: unknown): number {
  return typeof v === "number" && Number.isFinite(v) ? v : 0;
}

/** A tool_result's content as text: a string, or its text blocks joined. */
function resultText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((b) => obj(b))
    .filter((b): b is Json => b !== undefined && b.type === "text" && typeof b.text === "string")
    .map((b) => b.text as string)
    .join("\n");
}

function stopReason(r: unknown): StopReason {
  switch (r) {
    case "end_turn":
    case "stop_sequence":
      return "end_turn";
    case "max_tokens":
      return "max_tokens";
    case "refusal":
      return "refusal";
    default:
      return r === "tool_use" ? "end_turn" : "other";
  }
}

/** A failed result line as a provider error (the engine retries the retryable codes). */
export function resultError(line: Json): ProviderErrorLike {
  const status = typeof line.api_error_status === "number" ? line.api_error_status : undefined;
  const errors = Array.isArray(line.errors) ? line.errors.map(String).join("; ") : "";
  const text = printableText(String(line.result ?? errors ?? line.subtype ?? "error"), 300) || String(line.subtype ?? "error");
  const where = status ? `Claude Code (API ${status})` : "Claude Code";
  const msg = `${where}: ${text}`;
  if (/prompt is too long|context (window|length)|too many tokens/i.test(text)) return providerError("prompt_too_long", msg, { status });
  if (status === 429 || /rate.?limit|usage limit/i.test(text)) return providerError("rate_limited", msg, { status });
  if (status === 529 || /overloaded/i.test(text)) return providerError("overloaded", msg, { status });
  if (status === 401 || status === 403 || /invalid api key|not logged in|please run \/login|authentication/i.test(text)) {
    return providerError("auth", `${msg} — log in with \`oceancode login\` (runs \`claude auth login\`)`, { status });
  }
  if ((status !== undefined && status >= 500) || line.subtype === "error_during_execution") return providerError("server", msg, { status });
  return providerError("bad_request", msg, { status });
}

export class ClaudeStreamMapper {
  /** claude's session id (system/init), to --resume next time */
  sessionId: string | undefined;
  /** the last top-level request's usage: what Claude Code's context holds now */
  private last: Usage = emptyUsage();
  private partials = false;
  private readonly pending = new Map<string, ToolCall>();
  private result: Json | undefined;

  /** The events one output line gives (none for lines this route does not show). */
  push(line: Json): ProviderEvent[] {
    if (typeof line.session_id === "string") this.sessionId = line.session_id;
    if (line.parent_tool_use_id) return [];
    switch (line.type) {
      case "stream_event":
        return this.streamEvent(obj(line.event));
      case "assistant":
        return this.assistant(obj(line.message));
      case "user":
        return this.user(obj(line.message));
      case "result":
        this.result = line;
        return [];
      default:
        return [];
    }
  }

  private streamEvent(ev: Json | undefined): ProviderEvent[] {
    const start = obj(ev?.content_block);
    if (ev?.type === "content_block_start" && start?.type === "text" && typeof start.text === "string" && start.text) {
      this.partials = true;
      return [{ type: "text_delta", text: start.text }];
    }
    const delta = obj(ev?.delta);
    if (ev?.type === "content_block_delta" && delta?.type === "text_delta" && typeof delta.text === "string" && delta.text) {
      this.partials = true;
      return [{ type: "text_delta", text: delta.text }];
    }
    return [];
  }

  private assistant(msg: Json | undefined): ProviderEvent[] {
    if (!msg) return [];
    const u = obj(msg.usage);
    if (u) this.last = { inputTokens: num(u.input_tokens), outputTokens: num(u.output_tokens), cacheReadTokens: num(u.cache_read_input_tokens), cacheWriteTokens: num(u.cache_creation_input_tokens) };
    const out: ProviderEvent[] = [];
    for (const raw of Array.isArray(msg.content) ? msg.content : []) {
      const b = obj(raw);
      if (!b) continue;
      // without partial messages the text arrives whole, once per block
      if (b.type === "text" && typeof b.text === "string" && b.text && !this.partials) out.push({ type: "text_delta", text: b.text });
      if (b.type === "tool_use" && typeof b.id === "string") this.pending.set(b.id, { id: b.id, name: String(b.name ?? "tool"), input: obj(b.input) ?? {} });
    }
    return out;
  }

  private user(msg: Json | undefined): ProviderEvent[] {
    const out: ProviderEvent[] = [];
    for (const raw of Array.isArray(msg?.content) ? (msg!.content as unknown[]) : []) {
      const b = obj(raw);
      if (!b || b.type !== "tool_result" || typeof b.tool_use_id !== "string") continue;
      const call = this.pending.get(b.tool_use_id);
      if (!call) continue;
      this.pending.delete(b.tool_use_id);
      out.push({ type: "tool_performed", call, result: { callId: call.id, name: call.name, content: resultText(b.content), isError: b.is_error === true } });
    }
    return out;
  }

  /** whether claude's closing result line arrived */
  get hasResult(): boolean {
    return this.result !== undefined;
  }

  /** The closing events once claude exited: usage (its context now), cost, stop reason; throws a failed result. */
  finish(): ProviderEvent[] {
    const r = this.result;
    if (!r) throw providerError("server", "claude exited without a result line");
    if (r.is_error === true || (typeof r.subtype === "string" && r.subtype !== "success")) {
      if (r.subtype === "error_max_turns") return [{ type: "usage", usage: this.usage(r), ...this.cost(r) }, { type: "done", stopReason: "max_tokens" }];
      throw resultError(r);
    }
    return [{ type: "usage", usage: this.usage(r), ...this.cost(r) }, { type: "done", stopReason: stopReason(r.stop_reason) }];
  }

  /** The context as the last request saw it, with the whole turn's output tokens. */
  private usage(r: Json): Usage {
    const total = obj(r.usage);
    return { ...this.last, outputTokens: total ? num(total.output_tokens) : this.last.outputTokens };
  }

  private cost(r: Json): { costUsd?: number } {
    return typeof r.total_cost_usd === "number" && Number.isFinite(r.total_cost_usd) ? { costUsd: r.total_cost_usd } : {};
  }
}
