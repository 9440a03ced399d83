/**
 * The provider conformance suite's scenarios (extensions/engine/testing/provider.ts) as a fake server's reply: the
 * fakes (Anthropic, OpenAI, Gemini) take the same reply shapes; only the HTTP status of a failure differs
 * by API (overloaded is Anthropic's 529, Google's 503; an auth failure Google's 403).
 */
import type { ProviderScenario } from "../../../extensions/engine/testing/provider.js";

export type ScenarioReply =
  | { text: string }
  | { toolCalls: Array<{ name: string; input: Record<string, unknown> }> }
  | { type: "drop"; text?: string; holdMs?: number }
  | { type: "too_long" }
  | { type: "error"; status: number };

const STATUS = { rate_limited: 429, overloaded: 529, server: 500, auth: 401, bad_request: 400 } as const;

export function scenarioReply(s: ProviderScenario, status: Partial<Record<keyof typeof STATUS, number>> = {}): ScenarioReply {
  switch (s.kind) {
    case "text":
      return { text: s.text };
    case "tool_call":
      return { toolCalls: [{ name: s.name, input: s.input }] };
    case "stall":
      return { type: "drop", text: s.text, holdMs: 30_000 };
    case "error":
      if (s.code === "prompt_too_long") return { type: "too_long" };
      if (s.code === "network") return { type: "drop" };
      return { type: "error", status: { ...STATUS, ...status }[s.code] };
  }
}
