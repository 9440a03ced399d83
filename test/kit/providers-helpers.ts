/** Small builders for provider tests: model requests from rows, and draining a provider stream. */
import type { ModelInfo, ModelRequest, Provider, ProviderEvent, Row, ToolSpec, Usage } from "../../extensions/engine/api.js";
import { type ProviderErrorLike } from "../../extensions/engine/api.js";
import { providerErrorCode } from "../../extensions/engine/kit.js";

export function model(provider: string, name: string): ModelInfo {
  return {
    id: `${provider}/${name}`,
    provider,
    name,
    contextWindow: 200_000,
    maxOutputTokens: 8_192,
    price: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 6 },
    known: true,
  };
}

export const READ_TOOL: ToolSpec = {
  name: "read",
  description: "Read a file",
  inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
};

export function request(m: ModelInfo, rows: Row[], extra: Partial<ModelRequest> = {}): ModelRequest {
  return { model: m, system: ["You are a test."], rows, tools: [READ_TOOL], maxOutputTokens: 1024, extra: {}, sessionId: "s1", sessionStep: 1, ...extra } as ModelRequest;
}

let seq = 0;
export const rows = {
  user: (text: string, turn = 1): Row => ({ role: "user", text, seq: seq++, turn, step: 0, at: 0 }),
  assistant: (text: string, calls: Array<{ id: string; name: string; input: Record<string, unknown> }> = [], turn = 1, step = 1): Row => ({
    role: "assistant",
    text,
    toolCalls: calls,
    seq: seq++,
    turn,
    step,
    at: 0,
  }),
  tool: (results: Array<{ callId: string; name: string; content: string; isError?: boolean }>, turn = 1, step = 1): Row => ({
    role: "tool",
    results: results.map((r) => ({ ...r, isError: r.isError ?? false })),
    seq: seq++,
    turn,
    step,
    at: 0,
  }),
  note: (text: string): Row => ({ role: "note", text, seq: seq++, turn: 1, step: 0, at: 0 }),
};

export interface Drained {
  text: string;
  deltas: number;
  calls: Array<{ id: string; name: string; input: Record<string, unknown> }>;
  usage?: Usage;
  stop?: string;
  events: ProviderEvent[];
}

export async function drain(p: Provider, req: ModelRequest, signal = new AbortController().signal): Promise<Drained> {
  const d: Drained = { text: "", deltas: 0, calls: [], events: [] };
  for await (const e of p.stream(req, signal)) {
    d.events.push(e);
    if (e.type === "text_delta") {
      d.text += e.text;
      d.deltas++;
    } else if (e.type === "tool_call") d.calls.push(e.call);
    else if (e.type === "usage") d.usage = e.usage;
    else if (e.type === "done") d.stop = e.stopReason;
  }
  return d;
}

/** Run the stream and return the provider error it throws, recognised by code (fails the test if it does not throw one). */
export async function failure(p: Provider, req: ModelRequest, signal?: AbortSignal): Promise<ProviderErrorLike & { partial: string }> {
  let partial = "";
  try {
    for await (const e of p.stream(req, signal ?? new AbortController().signal)) if (e.type === "text_delta") partial += e.text;
  } catch (e) {
    if (providerErrorCode(e) !== undefined && (e as { code?: unknown }).code === providerErrorCode(e)) return Object.assign(e as ProviderErrorLike, { partial });
    throw new Error(`expected a provider error (an object with a provider error code), got ${String(e)}`);
  }
  throw new Error("expected the stream to fail, it completed");
}
