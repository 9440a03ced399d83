/** The scripted model's file format (see docs/scripted-model.md) and its loader. */
import fs from "node:fs";
import type { ProviderErrorCode } from "../engine/api.js";
import { ScriptError } from "./errors.js";

export interface ScriptToolCall {
  name: string;
  input: Record<string, unknown>;
  id?: string;
}

export interface ScriptStep {
  text?: string;
  tool_calls?: ScriptToolCall[];
  /** total delay before the answer streams (abortable) */
  delay_ms?: number;
  /** how many text_delta pieces to stream (default: up to 8, split on spaces) */
  chunks?: number;
  /** fail the first `times` attempts of this step with a provider error, then answer normally */
  error?: {
    /** a provider error code (PROVIDER_ERROR_CODES) */
    code?: ProviderErrorCode;
    /** @deprecated the old name of `code` ("rate_limit" is read as "rate_limited") */
    kind?: string;
    message?: string;
    status?: number;
    times?: number;
    retry_after_ms?: number;
  };
  /** repeat this step n times (expands in place) */
  repeat?: number;
  /** override the reported usage */
  usage?: { input?: number; output?: number };
  stop_reason?: "end_turn" | "max_tokens";
}

export interface Script {
  context_window?: number;
  max_output_tokens?: number;
  steps: ScriptStep[];
  /** the answer once the steps run out (default: "(script finished)") */
  after?: ScriptStep;
}

export { ScriptError } from "./errors.js";

export function loadScript(file: string): Script {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (e) {
    throw ScriptError({ message: `cannot read scripted model file ${file}: ${(e as Error).message}` });
  }
  const s = raw as Script;
  if (!s || !Array.isArray(s.steps)) throw ScriptError({ message: `${file}: expected {"steps": [...]} (see docs/scripted-model.md)` });
  const steps: ScriptStep[] = [];
  s.steps.forEach((st, i) => {
    if (typeof st !== "object" || st === null) throw ScriptError({ message: `${file}: steps[${i}] must be an object` });
    for (const [j, c] of (st.tool_calls ?? []).entries()) {
      if (typeof c?.name !== "string" || typeof c.input !== "object") throw ScriptError({ message: `${file}: steps[${i}].tool_calls[${j}] needs "name" and "input"` });
    }
    const n = st.repeat ?? 1;
    for (let k = 0; k < n; k++) steps.push(st);
  });
  return { ...s, steps };
}
