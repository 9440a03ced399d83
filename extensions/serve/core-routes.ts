/** The server's own JSON routes (health, sessions, prompts, messages, questions), written like any contributed route. */
import path from "node:path";
import type { Answer, EngineService, Session } from "../engine/api.js";
import type { StorageService } from "../storage/api.js";
import { type RouteDefinition } from "./api.js";
import { HttpError } from "./kit/shared.js";
import type { Questions } from "./questions.js";
import type { SessionHub } from "./sessions.js";
import { errorResponses, QuestionSchema, RowSchema, SessionIdParams, SessionInfoSchema } from "./schemas.js";
import { AttachmentSchema, MAX_ATTACHMENTS, PROMPT_BODY_LIMIT, resolveAttachments, type Attachment } from "./attachments.js";
import { commandRoutes } from "./command-routes.js";
import type { SlashHost } from "../../kernel/api.js";
import { sessionEditRoutes, sessionListRoute } from "./session-routes.js";

export interface CoreDeps {
  /** this instance's id ($OC_INSTANCE_ID, the fleet's, or generated) */
  instanceId: string;
  engine: EngineService;
  storage: StorageService | undefined;
  hub: SessionHub;
  questions: Questions;
  version: string;
  /** the project a session without `cwd` runs in */
  project: string;
  /** the model a session without `model` runs on */
  defaultModel(): string;
  /** why this instance cannot serve now (its fleet database unreachable), if it cannot: /health answers 503 */
  unavailable?(): string | undefined;
  /** the kernel's slash dispatch (POST /session/:id/command) */
  runSlash(name: string, args: string, host: SlashHost): Promise<boolean>;
}

type IdParams = { id: string };

function infoOf(s: Session, hub: SessionHub) {
  const b = hub.busy(s.info.id);
  return { ...s.info, open: true, ...(b.running ? { running: b.running } : {}), queued: b.queued };
}

export function coreRoutes(d: CoreDeps): RouteDefinition[] {
  const tags = ["session"];
  return [
    {
      method: "GET",
      url: "/health",
      operationId: "health",
      summary: "the server is up: its version, its instance id, and the sessions it holds open (claims on); 503 while its fleet database is unreachable",
      tags: ["server"],
      schema: {
        response: {
          200: {
            type: "object",
            required: ["ok", "version", "sessions", "instance", "claims"],
            properties: {
              ok: { type: "boolean" },
              version: { type: "string" },
              sessions: { type: "integer", description: "how many sessions this instance holds" },
              instance: { type: "string", description: "this instance's id ($OC_INSTANCE_ID, or generated at start)" },
              claims: { type: "array", items: { type: "string" }, description: "the ids of the sessions this instance holds claims on" },
            },
          },
          503: {
            type: "object",
            required: ["error"],
            properties: { ok: { type: "boolean" }, instance: { type: "string" }, error: { type: "object", properties: { code: { type: "string" }, message: { type: "string" } } } },
          },
        },
      },
      handler: () => {
        const why = d.unavailable?.();
        // a load balancer stops sending traffic here until the database is back
        if (why) return { status: 503, headers: { "retry-after": "2" }, body: { ok: false, instance: d.instanceId, error: { code: "database_unreachable", message: why } } };
        return { ok: true, version: d.version, sessions: d.hub.openCount, instance: d.instanceId, claims: d.hub.claimed() };
      },
    },
    {
      method: "POST",
      url: "/session",
      operationId: "sessionCreate",
      summary: "start a session (stored from its first prompt)",
      tags,
      schema: {
        body: {
          type: "object",
          additionalProperties: false,
          properties: {
            cwd: { type: "string", minLength: 1, description: "the project directory (default: the server's --directory)" },
            model: { type: "string", minLength: 1, description: "provider/model (default: the configured model)" },
            agent: { type: "string", minLength: 1, description: "recorded as overrides.agent (no primary-agent switch reads it yet)" },
          },
        },
        response: { 201: SessionInfoSchema, ...errorResponses(400, 503) },
      },
      handler: async (req) => {
        const body = (req.body ?? {}) as { cwd?: string; model?: string; agent?: string };
        const model = body.model ?? d.defaultModel();
        try {
          const unready = await d.engine.checkModel(model);
          if (unready) throw new HttpError(400, "model_unavailable", unready);
        } catch (e) {
          if (e instanceof HttpError) throw e;
          throw new HttpError(400, "unknown_model", (e as Error).message);
        }
        const cwd = path.resolve(d.project, body.cwd ?? ".");
        const s = await d.hub.create({ cwd, model, ...(body.agent ? { overrides: { agent: body.agent } } : {}) });
        return { status: 201, body: infoOf(s, d.hub) };
      },
    },
    sessionListRoute(d),
    ...sessionEditRoutes(d),
    ...commandRoutes(d),
    {
      method: "GET",
      url: "/session/:id",
      operationId: "sessionGet",
      summary: "one session (opened by this server on first use)",
      tags,
      schema: { params: SessionIdParams, response: { 200: SessionInfoSchema, ...errorResponses(404, 409) } },
      handler: async (req) => infoOf(await req.session((req.params as IdParams).id), d.hub),
    },
    {
      method: "DELETE",
      url: "/session/:id",
      operationId: "sessionDelete",
      summary: "abort its turn, close it and delete it from storage",
      tags,
      schema: { params: SessionIdParams, response: { 200: { type: "object", required: ["id", "deleted"], properties: { id: { type: "string" }, deleted: { type: "boolean" } } }, ...errorResponses(404, 409) } },
      handler: async (req) => {
        const id = (req.params as IdParams).id;
        d.questions.rejectAll(id, "the session was deleted");
        const r = await d.hub.close(id, true);
        return { id, deleted: r.deleted };
      },
    },
    {
      method: "POST",
      url: "/session/:id/prompt",
      operationId: "sessionPrompt",
      summary: "queue a prompt, with files and images attached; answers 202 at once, the turn runs after the session's earlier turns (follow it on the event stream)",
      tags,
      bodyLimit: PROMPT_BODY_LIMIT,
      schema: {
        params: SessionIdParams,
        body: {
          type: "object",
          required: ["text"],
          additionalProperties: false,
          properties: { text: { type: "string", minLength: 1 }, attachments: { type: "array", maxItems: MAX_ATTACHMENTS, items: AttachmentSchema } },
          examples: [{ text: "why does this test fail?", attachments: [{ type: "file", path: "test/upload.test.ts" }, { type: "file", path: "notes.txt", content: "the upload times out after 30 s" }] }],
        },
        response: { 202: { type: "object", required: ["turnId"], properties: { turnId: { type: "string" } } }, ...errorResponses(400, 404, 409, 413, 503) },
      },
      handler: async (req) => {
        const id = (req.params as IdParams).id;
        const body = req.body as { text: string; attachments?: Attachment[] };
        if (!body.attachments?.length) return { status: 202, body: { turnId: await d.hub.prompt(id, body.text) } };
        // read and checked before the prompt is accepted: a refused attachment queues nothing
        const attached = await resolveAttachments(body.attachments, await req.session(id), d.engine, req.signal);
        return { status: 202, body: { turnId: await d.hub.prompt(id, body.text, attached) } };
      },
    },
    {
      method: "POST",
      url: "/session/:id/fork",
      operationId: "sessionFork",
      summary: "a new session from this one's history up to a journal entry (r<seq>, <seq> or turn:<n>; default: all of it, along the active path); the source is not changed",
      tags,
      schema: {
        params: SessionIdParams,
        body: { type: "object", additionalProperties: false, properties: { at: { type: "string", minLength: 1, maxLength: 64 } } },
        response: {
          201: {
            type: "object",
            required: ["id", "from", "entry", "rows", "turns"],
            properties: { id: { type: "string" }, from: { type: "string" }, entry: { type: "string" }, rows: { type: "integer" }, turns: { type: "integer" } },
          },
          ...errorResponses(400, 404),
        },
      },
      handler: async (req) => {
        const id = (req.params as IdParams).id;
        const at = ((req.body ?? {}) as { at?: string }).at;
        try {
          return { status: 201, body: await d.engine.forkSession(id, at !== undefined ? { at } : {}) };
        } catch (e) {
          const code = (e as { code?: unknown }).code;
          if (code === "OC_ERR_FORK_ENTRY") throw new HttpError(400, "bad_entry", (e as Error).message);
          if (code === "OC_ERR_NO_SESSION") throw new HttpError(404, "session_not_found", (e as Error).message);
          throw e;
        }
      },
    },
    {
      method: "POST",
      url: "/session/:id/abort",
      operationId: "sessionAbort",
      summary: "abort the running turn at its next step boundary (its pending questions are rejected)",
      tags,
      schema: { params: SessionIdParams, response: { 200: { type: "object", required: ["aborted"], properties: { aborted: { type: "boolean" }, turnId: { type: "string" } } }, ...errorResponses(404, 409) } },
      handler: async (req) => {
        const id = (req.params as IdParams).id;
        await req.session(id); // 404 for an unknown session
        const turnId = d.hub.abort(id);
        return turnId ? { aborted: true, turnId } : { aborted: false };
      },
    },
    {
      method: "GET",
      url: "/session/:id/message",
      operationId: "sessionMessages",
      summary: "the session's rows (messages) in seq order, a page at a time: pass nextCursor back as cursor",
      tags,
      schema: {
        params: SessionIdParams,
        querystring: { type: "object", properties: { cursor: { type: "integer", minimum: 0, default: 0 }, limit: { type: "integer", minimum: 1, maximum: 1000, default: 100 } } },
        response: { 200: { type: "object", required: ["messages"], properties: { messages: { type: "array", items: RowSchema }, nextCursor: { type: "integer" } } }, ...errorResponses(404) },
      },
      handler: async (req) => {
        const { cursor = 0, limit = 100 } = req.query as { cursor?: number; limit?: number };
        const rows = (await d.hub.rows((req.params as IdParams).id)).filter((r) => r.seq > cursor);
        const page = rows.slice(0, limit);
        return { messages: page, ...(rows.length > limit ? { nextCursor: page[page.length - 1]!.seq } : {}) };
      },
    },
    {
      method: "GET",
      url: "/session/:id/question",
      operationId: "questionList",
      summary: "the session's permission questions waiting for an answer",
      tags: ["question"],
      schema: { params: SessionIdParams, response: { 200: { type: "array", items: QuestionSchema } } },
      handler: (req) => d.questions.list((req.params as IdParams).id),
    },
    {
      method: "POST",
      url: "/session/:id/question/:questionId",
      operationId: "questionAnswer",
      summary: "answer a waiting question: once, always (saves its rule), or reject (with a reason the model is told)",
      tags: ["question"],
      schema: {
        params: { type: "object", required: ["id", "questionId"], properties: { id: { type: "string" }, questionId: { type: "string" } } },
        body: {
          type: "object",
          required: ["answer"],
          additionalProperties: false,
          properties: {
            answer: { type: "string", enum: ["once", "always", "reject"] },
            reason: { type: "string", maxLength: 2000 },
            values: { type: "object", additionalProperties: { type: "string" }, description: "a form question's values by field name (an MCP elicitation), with answer once" },
          },
        },
        response: { 200: { type: "object", required: ["ok"], properties: { ok: { type: "boolean" } } }, ...errorResponses(400, 404) },
      },
      handler: (req) => {
        const { id, questionId } = req.params as { id: string; questionId: string };
        const { answer, reason, values } = req.body as { answer: Answer; reason?: string; values?: Record<string, string> };
        if (!d.questions.answer(id, questionId, answer, reason, values)) throw new HttpError(404, "question_not_found", `no pending question '${questionId}' in session '${id}'`);
        return { ok: true };
      },
    },
  ];
}
