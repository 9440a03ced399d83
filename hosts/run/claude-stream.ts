/**
 * Claude Code's `-p --output-format stream-json|json` shapes from the engine's session events, so scripts and
 * CI steps written for `claude -p` read oceancode's output (the shapes: docs/run.md, "Claude Code habits").
 * One `system/init`, then per model step an `assistant` message (its text and tool_use blocks, with the
 * step's usage), a `user` message per tool result, and a `result` per prompt. Each message is made once, in
 * order; the caller writes each as one line.
 */
import { randomUUID } from "node:crypto";
import type { AssistantRow, ModelInfo, Session, SessionEvent, SessionTotals, ToolResult, TurnResult, Usage } from "../../extensions/engine/api.js";

/** What the init message says about the run (gathered by the host from the kernel). */
export interface ClaudeInitFacts {
  cwd: string;
  tools: string[];
  mcpServers: Array<{ name: string; status: string }>;
  permissionMode: string;
  slashCommands: string[];
  apiKeySource: string;
  version: string;
}

/** The four token counts as the Anthropic API (and so Claude Code) names them. */
export interface ClaudeUsage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
}

export type ClaudeResultSubtype = "success" | "error_max_turns" | "error_max_budget_usd" | "error_during_execution";

export interface ClaudePermissionDenial {
  tool_name: string;
  tool_use_id: string;
  tool_input: Record<string, unknown>;
}

export interface ClaudeResult {
  type: "result";
  subtype: ClaudeResultSubtype;
  is_error: boolean;
  duration_ms: number;
  duration_api_ms: number;
  num_turns: number;
  result: string;
  stop_reason: string | null;
  session_id: string;
  total_cost_usd: number;
  usage: ClaudeUsage & { server_tool_use: { web_search_requests: number; web_fetch_requests: number }; service_tier: string };
  modelUsage: Record<string, { inputTokens: number; outputTokens: number; cacheReadInputTokens: number; cacheCreationInputTokens: number; webSearchRequests: number; costUSD: number; contextWindow: number; maxOutputTokens: number }>;
  permission_denials: ClaudePermissionDenial[];
  /** oceancode's own word for how the prompt ended: completed, max_tokens, budget, time, steps, doom_loop, error, blocked, aborted */
  terminal_reason: string;
  /** error subtypes: what went wrong, one line each */
  errors?: string[];
  uuid: string;
}

export type ClaudeMessage = Record<string, unknown> & { type: string };

/** The engine's tool results start so when a call was refused (a rule, a rejected ask, plan mode). */
const DENIED_PREFIX = "Permission denied by ";

export function claudeUsage(u: Usage): ClaudeUsage {
  return { input_tokens: u.inputTokens, output_tokens: u.outputTokens, cache_read_input_tokens: u.cacheReadTokens, cache_creation_input_tokens: u.cacheWriteTokens };
}

function usageDiff(after: Usage, before: Usage): Usage {
  return {
    inputTokens: after.inputTokens - before.inputTokens,
    outputTokens: after.outputTokens - before.outputTokens,
    cacheReadTokens: after.cacheReadTokens - before.cacheReadTokens,
    cacheWriteTokens: after.cacheWriteTokens - before.cacheWriteTokens,
  };
}

function copyTotals(t: SessionTotals): SessionTotals {
  return { usage: { ...t.usage }, costUsd: t.costUsd, turns: t.turns, steps: t.steps };
}

/** How a prompt's end reads in Claude's result: subtype, is_error, stop_reason, terminal_reason. */
export function resultKind(r: TurnResult): { subtype: ClaudeResultSubtype; isError: boolean; stopReason: string | null; terminal: string } {
  switch (r.reason) {
    case "end_turn":
      return { subtype: "success", isError: false, stopReason: "end_turn", terminal: "completed" };
    case "max_tokens":
      return { subtype: "success", isError: false, stopReason: "max_tokens", terminal: "max_tokens" };
    case "step_cap":
      // a bound stopped the run cleanly (run's exit code stays 0, docs/run.md), but Claude's result for a turn or
      // budget limit is an error (is_error true, an `errors` line), and scripts written for claude -p test that
      return { subtype: r.stoppedBy === "budget" ? "error_max_budget_usd" : "error_max_turns", isError: true, stopReason: null, terminal: r.stoppedBy ?? "steps" };
    default:
      return { subtype: "error_during_execution", isError: true, stopReason: null, terminal: r.reason };
  }
}

export class ClaudeStream {
  private emittedSeq = -1;
  private promptStartSeq = 0;
  private before: SessionTotals;
  private startedAt = Date.now();
  private stepStartedAt = Date.now();
  private apiMs = 0;
  private steps = 0;
  private denials: ClaudePermissionDenial[] = [];

  /** `emit` receives each message as it is made (stream-json writes it as a line; json mode ignores it). */
  constructor(
    private readonly session: Session,
    private readonly model: ModelInfo,
    private readonly emit: (m: ClaudeMessage) => void,
  ) {
    this.before = copyTotals(session.totals);
  }

  private get sid(): string {
    return this.session.info.id;
  }

  init(f: ClaudeInitFacts): ClaudeMessage {
    const m: ClaudeMessage = {
      type: "system",
      subtype: "init",
      cwd: f.cwd,
      session_id: this.sid,
      tools: f.tools,
      mcp_servers: f.mcpServers,
      model: this.model.name,
      permissionMode: f.permissionMode,
      slash_commands: f.slashCommands,
      apiKeySource: f.apiKeySource,
      // the key scripts read for the CLI's version carries oceancode's (this is not Claude Code)
      claude_code_version: f.version,
      oceancode_version: f.version,
      oceancode_model: this.model.id,
      output_style: "default",
      uuid: randomUUID(),
    };
    this.emit(m);
    return m;
  }

  /** A prompt starts: its result counts from here (usage, cost, steps, time). */
  beginPrompt(): void {
    this.before = copyTotals(this.session.totals);
    this.promptStartSeq = this.session.nextSeq;
    this.startedAt = Date.now();
    this.stepStartedAt = this.startedAt;
    this.apiMs = 0;
    this.steps = 0;
    this.denials = [];
  }

  /** The session's newest assistant row of this prompt that no message carried yet. */
  private pendingAssistant(): AssistantRow | undefined {
    const rows = this.session.rows;
    for (let i = rows.length - 1; i >= 0; i--) {
      const r = rows[i]!;
      if (r.seq < this.promptStartSeq || r.seq <= this.emittedSeq) return undefined;
      if (r.role === "assistant") return r;
    }
    return undefined;
  }

  private envelope(): { parent_tool_use_id: null; session_id: string; uuid: string; timestamp: string } {
    return { parent_tool_use_id: null, session_id: this.sid, uuid: randomUUID(), timestamp: new Date().toISOString() };
  }

  private flushAssistant(): void {
    const row = this.pendingAssistant();
    if (!row) return;
    this.emittedSeq = row.seq;
    this.apiMs += Date.now() - this.stepStartedAt;
    const content: Array<Record<string, unknown>> = [];
    if (row.text) content.push({ type: "text", text: row.text });
    for (const c of row.toolCalls) content.push({ type: "tool_use", id: c.id, name: c.name, input: c.input });
    this.emit({
      type: "assistant",
      message: {
        id: `msg_${this.sid}_${row.seq}`,
        type: "message",
        role: "assistant",
        model: this.model.name,
        content,
        stop_reason: row.toolCalls.length > 0 ? "tool_use" : row.usage ? "end_turn" : null,
        stop_sequence: null,
        usage: claudeUsage(row.usage ?? { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }),
      },
      ...this.envelope(),
    });
  }

  private toolResult(call: { id: string; name: string; input: Record<string, unknown> }, r: ToolResult): void {
    if (r.isError && r.content.startsWith(DENIED_PREFIX)) this.denials.push({ tool_name: call.name, tool_use_id: call.id, tool_input: call.input });
    this.emit({
      type: "user",
      message: { role: "user", content: [{ tool_use_id: call.id, type: "tool_result", content: r.content, is_error: r.isError }] },
      ...this.envelope(),
      tool_use_result: { tool: call.name, content: r.content, is_error: r.isError, ...(r.truncated ? { truncated: r.truncated } : {}) },
    });
  }

  /** Map one engine event (other sessions' events, a sub-agent's, are not this stream's). */
  onEvent(e: SessionEvent): void {
    if (!("sessionId" in e) || e.sessionId !== this.sid) return;
    switch (e.type) {
      case "tool_call_start":
        // the step's assistant row (text, every tool call, usage) is stored before its tools run
        this.flushAssistant();
        break;
      case "tool_call_end":
        this.flushAssistant();
        this.toolResult(e.call, e.result);
        break;
      case "step_end":
        this.flushAssistant();
        this.steps += 1;
        this.stepStartedAt = Date.now();
        break;
      case "turn_end":
        // an interrupted step keeps the text it streamed (a row with no usage)
        this.flushAssistant();
        break;
      default:
        break;
    }
  }

  /** The prompt's result (emitted too). `failure` overrides the outcome (a bad stdin line). */
  result(r: TurnResult, failure?: string): ClaudeResult {
    const kind = failure ? { subtype: "error_during_execution" as const, isError: true, stopReason: null, terminal: "input_error" } : resultKind(r);
    const after = this.session.totals;
    const usage = usageDiff(after.usage, this.before.usage);
    const cost = after.costUsd - this.before.costUsd;
    const error = failure ?? r.error ?? (r.reason === "step_cap" ? `Reached the ${r.stoppedBy ?? "steps"} bound of this run` : undefined);
    const text = kind.isError && !r.text ? (error ?? r.reason) : r.text;
    const out: ClaudeResult = {
      type: "result",
      subtype: kind.subtype,
      is_error: kind.isError,
      duration_ms: Date.now() - this.startedAt,
      duration_api_ms: this.apiMs,
      num_turns: this.steps,
      result: text,
      stop_reason: kind.stopReason,
      session_id: this.sid,
      total_cost_usd: cost,
      usage: { ...claudeUsage(usage), server_tool_use: { web_search_requests: 0, web_fetch_requests: 0 }, service_tier: "standard" },
      modelUsage: {
        [this.model.name]: {
          inputTokens: usage.inputTokens,
          outputTokens: usage.outputTokens,
          cacheReadInputTokens: usage.cacheReadTokens,
          cacheCreationInputTokens: usage.cacheWriteTokens,
          webSearchRequests: 0,
          costUSD: cost,
          contextWindow: this.model.contextWindow,
          maxOutputTokens: this.model.maxOutputTokens,
        },
      },
      permission_denials: this.denials,
      terminal_reason: kind.terminal,
      ...(kind.isError && error ? { errors: [error] } : {}),
      uuid: randomUUID(),
    };
    this.emit(out as unknown as ClaudeMessage);
    return out;
  }
}
