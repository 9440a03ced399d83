/**
 * The typed client of the oceancode HTTP API 0.1.0, generated from GET /doc
 * (extensions/serve/client/generate.ts). Do not edit: regenerate with `node dist/extensions/serve/client/write.js`.
 */
import { ClientBase, type CallOptions, type ServerSentEvent } from "./base.js";

export { ClientHttpError, type CallOptions, type ClientOptions, type ServerSentEvent } from "./base.js";

export class OceancodeClient extends ClientBase {

  /** GET /event — every session's events (SSE); Last-Event-ID replays what was missed */
  eventStream(input: {
    /** like the Last-Event-ID header */
    lastEventId?: number;
  } = {}, opts: CallOptions & { lastEventId?: string; reconnect?: boolean } = {}): AsyncGenerator<ServerSentEvent<unknown>> {
    return this.stream("/event", {}, opts);
  }

  /** GET /health — the server is up: its version and how many sessions it holds open */
  health(opts: CallOptions = {}): Promise<{
    ok: boolean;
    version: string;
    sessions: number;
  }> {
    return this.call("GET", "/health", {  }, opts);
  }

  /** GET /doc — this OpenAPI 3.1 document */
  openapi(opts: CallOptions = {}): Promise<unknown> {
    return this.call("GET", "/doc", {  }, opts);
  }

  /** POST /session/{id}/question/{questionId} — answer a waiting question: once, always (saves its rule), or reject (with a reason the model is told) */
  questionAnswer(input: {
    id: string;
    questionId: string;
    body: {
      answer: "once" | "always" | "reject";
      reason?: string;
    };
  }, opts: CallOptions = {}): Promise<{
    ok: boolean;
  }> {
    return this.call("POST", "/session/{id}/question/{questionId}", { path: { "id": input["id"], "questionId": input["questionId"] }, body: input.body }, opts);
  }

  /** GET /session/{id}/question — the session's permission questions waiting for an answer */
  questionList(input: {
    id: string;
  }, opts: CallOptions = {}): Promise<Array<{
    id: string;
    sessionId: string;
    askedAt: number;
    question: {
      sessionId?: string;
      tool: string;
      subject: string;
      reason: string;
      rule?: string;
      always?: string;
      autoApprove?: boolean;
    };
  }>> {
    return this.call("GET", "/session/{id}/question", { path: { "id": input["id"] } }, opts);
  }

  /** POST /session/{id}/abort — abort the running turn at its next step boundary (its pending questions are rejected) */
  sessionAbort(input: {
    id: string;
  }, opts: CallOptions = {}): Promise<{
    aborted: boolean;
    turnId?: string;
  }> {
    return this.call("POST", "/session/{id}/abort", { path: { "id": input["id"] } }, opts);
  }

  /** POST /session — start a session (stored from its first prompt) */
  sessionCreate(input: {
    body: {
      /** the project directory (default: the server's --directory) */
      cwd?: string;
      /** provider/model (default: the configured model) */
      model?: string;
      /** recorded as overrides.agent (no primary-agent switch reads it yet) */
      agent?: string;
    };
  }, opts: CallOptions = {}): Promise<{
    id: string;
    parentId?: string;
    cwd: string;
    model: string;
    createdAt: number;
    title?: string;
    overrides?: Record<string, unknown>;
    /** held open by this server */
    open?: boolean;
    /** the running turn's id */
    running?: string;
    /** turns waiting behind it */
    queued?: number;
  }> {
    return this.call("POST", "/session", { body: input.body }, opts);
  }

  /** DELETE /session/{id} — abort its turn, close it and delete it from storage */
  sessionDelete(input: {
    id: string;
  }, opts: CallOptions = {}): Promise<{
    id: string;
    deleted: boolean;
  }> {
    return this.call("DELETE", "/session/{id}", { path: { "id": input["id"] } }, opts);
  }

  /** GET /session/{id}/event — one session's events (SSE); Last-Event-ID replays what was missed */
  sessionEventStream(input: {
    /** like the Last-Event-ID header */
    lastEventId?: number;
    id: string;
  }, opts: CallOptions & { lastEventId?: string; reconnect?: boolean } = {}): AsyncGenerator<ServerSentEvent<unknown>> {
    return this.stream("/session/{id}/event", { "id": input["id"] }, opts);
  }

  /** GET /session/{id} — one session (opened by this server on first use) */
  sessionGet(input: {
    id: string;
  }, opts: CallOptions = {}): Promise<{
    id: string;
    parentId?: string;
    cwd: string;
    model: string;
    createdAt: number;
    title?: string;
    overrides?: Record<string, unknown>;
    /** held open by this server */
    open?: boolean;
    /** the running turn's id */
    running?: string;
    /** turns waiting behind it */
    queued?: number;
  }> {
    return this.call("GET", "/session/{id}", { path: { "id": input["id"] } }, opts);
  }

  /** GET /session — stored sessions (newest first) and the ones this server holds open */
  sessionList(input: {
    cwd?: string;
    limit?: number;
  } = {}, opts: CallOptions = {}): Promise<Array<{
    id: string;
    parentId?: string;
    cwd: string;
    model: string;
    title?: string;
    createdAt: number;
    updatedAt?: number;
    turns?: number;
    steps?: number;
    open?: boolean;
  }>> {
    return this.call("GET", "/session", { query: { "cwd": input["cwd"], "limit": input["limit"] } }, opts);
  }

  /** GET /session/{id}/message — the session's rows (messages) in seq order, a page at a time: pass nextCursor back as cursor */
  sessionMessages(input: {
    cursor?: number;
    limit?: number;
    id: string;
  }, opts: CallOptions = {}): Promise<{
    messages: Array<{
      seq: number;
      role: "user" | "assistant" | "tool" | "note";
      turn?: number;
      step?: number;
      at?: number;
    }>;
    nextCursor?: number;
  }> {
    return this.call("GET", "/session/{id}/message", { path: { "id": input["id"] }, query: { "cursor": input["cursor"], "limit": input["limit"] } }, opts);
  }

  /** POST /session/{id}/prompt — queue a prompt; answers 202 at once, the turn runs after the session's earlier turns (follow it on the event stream) */
  sessionPrompt(input: {
    id: string;
    body: {
      text: string;
    };
  }, opts: CallOptions = {}): Promise<{
    turnId: string;
  }> {
    return this.call("POST", "/session/{id}/prompt", { path: { "id": input["id"] }, body: input.body }, opts);
  }
}
