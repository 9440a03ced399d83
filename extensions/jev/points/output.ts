/**
 * Point 2, `output`: which block of a long tool output answers the step. A result the tools extension
 * truncated for the model (over `tools.max_output_chars`: head + tail, the full text on disk) is split into
 * blocks (blank-line paragraphs, long ones in 40-line groups, at most 255); Jev picks one by label, with the
 * step's intent (the assistant's text and the call) beside the blocks. act: the model sees the output's
 * first line, the chosen block and the last line instead of head + tail; the full output stays on disk.
 * shadow: asked in the background, recorded, nothing changes. Taps engine.toolResult (published).
 */
import fs from "node:fs";
import type { ExtensionContext } from "../../../kernel/api.js";
import type { EngineService, Row, ToolCallContext, ToolResult } from "../../engine/api.js";
import { type OutputBlock } from "../../tools/api.js";
import { keepOutputBlock, splitOutputBlocks } from "../../tools/kit.js";
import type { JevAnswer, JevQuestion, JevService, JevState } from "../api.js";
import { clip, decide, type Verdict } from "./advise.js";

/** The question, with the options filled per output (the block labels B1..BN). */
export const OUTPUT_QUESTIONS: Readonly<Record<string, JevQuestion>> = {
  block: {
    type: "choice",
    instructions:
      "The agent made the tool call `step.call` with the intent in `step.intent`; its output was too long to show whole and is split into `output.blocks`, each with a `label`. Which block holds what the step needs to see (the answer, the failure, the match)? Answer with the block's label.",
    options: ["B1", "B2", "…one label per block, up to B255"],
  },
};

export function outputQuestions(labels: readonly string[]): Record<string, JevQuestion> {
  return { block: { ...(OUTPUT_QUESTIONS.block as Extract<JevQuestion, { type: "choice" }>), options: labels } };
}

export type OutputThresholds = {
  /** the chosen block's probability needed to act on it (jev.thresholds.output_block, default 0.4) */
  output_block: number;
};
export const OUTPUT_DEFAULTS: OutputThresholds = { output_block: 0.4 };

/** The policy: keep the chosen block when its probability reaches the threshold; else today's head + tail. */
export function outputPolicy(answers: Readonly<Record<string, JevAnswer>>, t: OutputThresholds = OUTPUT_DEFAULTS): Verdict<string> {
  const a = answers.block;
  if (!a || a.type !== "choice") return { verdict: "head" };
  const p = a.probabilities[a.choice] ?? a.confidence;
  if (!(p >= t.output_block)) return { verdict: `head (${a.choice} at ${p.toFixed(2)} < ${t.output_block})` };
  return { verdict: `keep:${a.choice}`, value: a.choice };
}

/** Bytes of block text in a state, shared by the blocks (the client's cap is 48,000 bytes of JSON). */
const BLOCK_BUDGET = 36_000;

function intentOf(rows: readonly Row[], callId: string): string {
  for (let i = rows.length - 1; i >= 0; i--) {
    const r = rows[i]!;
    if (r.role === "assistant" && r.toolCalls.some((c) => c.id === callId)) return r.text;
  }
  return "";
}

export function outputState(call: { name: string; input: Record<string, unknown> }, intent: string, blocks: readonly OutputBlock[], fullBytes: number): JevState {
  const each = Math.max(120, Math.floor(BLOCK_BUDGET / Math.max(1, blocks.length)));
  return {
    step: { intent: clip(intent, 2_000), call: { tool: call.name, input: clip(JSON.stringify(call.input), 1_000) } },
    output: { bytes: fullBytes, blocks: blocks.map((b) => ({ label: b.label, lines: `${b.firstLine}-${b.lastLine}`, text: clip(b.text, each) })) },
  };
}

export function installOutput(ctx: ExtensionContext, jev: JevService): void {
  const engine = ctx.services.get("engine");
  engine.hooks.toolResult.tap({ name: ctx.id, stage: "shape" }, async (result: ToolResult, call: ToolCallContext): Promise<ToolResult> => {
    const fullPath = result.truncated?.fullPath;
    const mode = jev.mode("output");
    if (!fullPath || mode === "off") return result;
    const work = async (): Promise<ToolResult> => {
      let full: string;
      try {
        full = await fs.promises.readFile(fullPath, "utf8");
      } catch {
        return result;
      }
      const blocks = splitOutputBlocks(full);
      if (blocks.length < 2) return result;
      const state = outputState(call.call, intentOf(call.session.rows, call.call.id), blocks, result.truncated?.fullBytes ?? Buffer.byteLength(full));
      const t: OutputThresholds = { output_block: jev.threshold("output_block", OUTPUT_DEFAULTS.output_block) };
      const d = await decide(jev, {
        point: "output",
        sessionId: call.session.info.id,
        state,
        questions: outputQuestions(blocks.map((b) => b.label)),
        baseline: "head",
        policy: (a) => outputPolicy(a, t),
        signal: call.signal,
      });
      const block = d.value !== undefined ? blocks.find((b) => b.label === d.value) : undefined;
      if (!block) return result;
      const lines = result.content.trimEnd().split("\n");
      const content = keepOutputBlock({ full, block, blocks: blocks.length, fullPath, maxChars: Math.max(result.content.length, 2_000), lastLine: lines[lines.length - 1], by: "jev output" });
      return { ...result, content };
    };
    // shadow: reading and splitting the output happen off the critical path too
    if (mode === "shadow") {
      // tracked from the start (the file read comes before the ask): a session that ends meanwhile waits for it
      const shadowed = work().catch(() => undefined);
      jev.track?.(shadowed);
      return result;
    }
    return work();
  });
}
