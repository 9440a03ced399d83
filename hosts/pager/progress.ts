/**
 * Live progress of the running turn, for the animated status line: when the turn started, the output
 * tokens so far (the steps' reported usage, plus an estimate of the step still streaming from its text
 * deltas: ~4 characters a token, replaced by the real figure at step_end), and the tools running now with
 * their own start times. Fed the same SessionEvents as the store; pure data, no timers.
 */
import type { SessionEvent } from "../../extensions/engine/api.js";
import { visibleLine } from "../terminal/sanitize.js";

/** Frames of the spinner (braille dots: one cell wide everywhere). */
export const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"] as const;
/** How often the status line's spinner and clocks advance. */
export const TICK_MS = 120;

export class TurnProgress {
  /** ms epoch of turn_start; undefined when no turn runs */
  startedAt?: number;
  /** ms epoch of the last turn's end, and how long it ran (for the notification) */
  lastEnded?: { at: number; ms: number };
  private stepTokens = 0;
  private streamChars = 0;
  private readonly tools = new Map<string, { name: string; at: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  apply(e: SessionEvent): void {
    switch (e.type) {
      case "turn_start":
        this.startedAt ??= this.now();
        break;
      case "text_delta":
        this.streamChars += e.text.length;
        break;
      case "discard":
        this.streamChars = 0;
        break;
      case "tool_call_start":
        this.tools.set(e.call.id, { name: visibleLine(e.call.name), at: this.now() });
        break;
      case "tool_call_end":
        this.tools.delete(e.call.id);
        break;
      case "step_end":
        this.stepTokens += e.usage.outputTokens;
        this.streamChars = 0;
        break;
      case "turn_end":
        // the clock runs until the prompt returns (a continuation turn follows on the same clock)
        this.tools.clear();
        break;
    }
  }

  /** A prompt was sent (before the engine's turn_start: the clock starts at the keypress). */
  begin(): void {
    this.startedAt = this.now();
    this.stepTokens = 0;
    this.streamChars = 0;
    this.tools.clear();
  }

  /** The prompt returned (after its last turn_end, or without one). */
  end(): void {
    if (this.startedAt === undefined) return;
    const at = this.now();
    this.lastEnded = { at, ms: at - this.startedAt };
    this.startedAt = undefined;
    this.tools.clear();
  }

  /** Output tokens of this turn so far (reported steps + the streaming step's estimate). */
  outputTokens(): number {
    return this.stepTokens + Math.ceil(this.streamChars / 4);
  }

  /** The tool that has run longest among those running now, with its elapsed ms. */
  runningTool(): { name: string; ms: number; others: number } | undefined {
    let first: { name: string; at: number } | undefined;
    for (const t of this.tools.values()) if (!first || t.at < first.at) first = t;
    return first ? { name: first.name, ms: this.now() - first.at, others: this.tools.size - 1 } : undefined;
  }

  elapsedMs(): number {
    return this.startedAt === undefined ? 0 : this.now() - this.startedAt;
  }
}

/** 4_200 -> "4s", 75_000 -> "1m 15s", 3_700_000 -> "1h 1m" */
export function fmtElapsed(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${s % 60}s`;
  return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
}

/** The status line of a running turn without its spinner: `working… 12s · ↓ 340 tokens · bash 3s`. */
export function progressText(p: TurnProgress, fmtTokens: (n: number) => string): string {
  const parts = [`working… ${fmtElapsed(p.elapsedMs())}`];
  const out = p.outputTokens();
  if (out > 0) parts.push(`↓ ${fmtTokens(out)} tokens`);
  const tool = p.runningTool();
  if (tool) parts.push(`${tool.name} ${fmtElapsed(tool.ms)}${tool.others > 0 ? ` (+${tool.others} more)` : ""}`);
  return parts.join(" · ");
}
