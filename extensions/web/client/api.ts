/**
 * The client's only way out: same-origin fetch to the HTTP API and EventSource streams (the browser sends
 * the page's basic-auth credentials and, on a reconnect, Last-Event-ID itself). No state lives in the
 * server instance beyond what the API keeps, so any instance of a fleet serves this page.
 */

export interface ApiError {
  status: number;
  code: string;
  message: string;
}

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, {
    method,
    headers: body !== undefined ? { "content-type": "application/json" } : {},
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  const data = text ? (JSON.parse(text) as unknown) : undefined;
  if (!res.ok) {
    const e = (data as { error?: { code?: string; message?: string } } | undefined)?.error;
    throw Object.assign(new Error(e?.message ?? `${method} ${path}: ${res.status}`), { status: res.status, code: e?.code ?? "http_error" });
  }
  return data as T;
}

/** The paths and operations the server publishes (GET /doc): routes other extensions may or may not contribute. */
export type ApiDoc = { paths?: Record<string, Record<string, { operationId?: string }>> };

export function apiDoc(): Promise<ApiDoc> {
  return api<ApiDoc>("GET", "/doc");
}

export interface Diff {
  path: string;
  created?: boolean;
  added: number;
  removed: number;
  hunks: Array<{ oldStart: number; newStart: number; lines: string[] }>;
  truncated?: boolean;
}
export interface ToolCall {
  id: string;
  name: string;
  input: Record<string, unknown>;
}
export interface ToolResult {
  callId: string;
  name: string;
  content: string;
  isError: boolean;
  diff?: Diff;
}
export type Row = { seq: number; turn: number } & (
  | { role: "user"; text: string }
  | { role: "assistant"; text: string; toolCalls?: ToolCall[] }
  | { role: "tool"; results: ToolResult[] }
  | { role: "note"; text: string }
);

export interface SessionSummary {
  id: string;
  title?: string;
  model: string;
  cwd: string;
  updatedAt?: number;
  createdAt: number;
  turns?: number;
  open?: boolean;
}
export interface Question {
  id: string;
  sessionId: string;
  question: { tool: string; subject: string; reason: string; always?: string; preview?: { diff?: Diff } };
}
export interface Meter {
  model: string;
  used: number;
  contextWindow: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  turns: number;
}
export interface Todo {
  content: string;
  status: string;
}

/** One session's live events: named SSE events, each handed over parsed. */
export function sessionStream(id: string, on: (type: string, data: Record<string, unknown>) => void, onOpen: () => void): () => void {
  const es = new EventSource(`/session/${encodeURIComponent(id)}/event`);
  const types = ["turn_start", "text_delta", "tool_call_start", "tool_call_end", "turn_end", "notice", "usage", "turn_queued", "turn_done", "question_asked", "question_settled", "gap", "dropped"];
  for (const t of types) es.addEventListener(t, (e) => on(t, JSON.parse((e as MessageEvent<string>).data) as Record<string, unknown>));
  es.addEventListener("open", onOpen);
  return () => es.close();
}
