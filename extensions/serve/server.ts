/**
 * startServer: the one HTTP server of `oceancode serve` and the pager's `--listen`. Fastify and its swagger
 * plugin are imported here, when a server starts, never when the extension activates. Every route is a
 * RouteDefinition (the built-in ones and those contributed through the registry) mounted by one function,
 * so each has its JSON Schemas, its operationId in GET /doc, and the `{error: {code, message}}` answers.
 * Routes registered after the server started are not mounted (Fastify's router is fixed once listening).
 */
import { createRequire } from "node:module";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { EngineService, SessionEvent } from "../engine/api.js";
import type { StorageService } from "../storage/api.js";
import type { Logger, SlashHost } from "../../kernel/api.js";
import { DEFAULT_HOST, DEFAULT_PORT, type FleetService, type RegisteredRoute, type RouteRequest, type ServeOptions, type ServerHandle } from "./api.js";
import { isRouteReply } from "./kit/shared.js";
import { basicAuth, checkBind, credentialsFrom, foreignRequest, REALM } from "./auth.js";
import { coreRoutes } from "./core-routes.js";
import { EventHub, type EventHubOptions } from "./events.js";
import { Questions } from "./questions.js";
import { Routes } from "./registry.js";
import { SessionIdParams } from "./schemas.js";
import { documentBase, documented, ErrorComponent, ERROR_SCHEMA_ID, securityOf, type Security } from "./openapi.js";
import { SessionHub } from "./sessions.js";
import type { PendingStore } from "./pending.js";

export interface ServerDeps {
  engine: EngineService;
  storage: StorageService | undefined;
  /** the contributed routes (service "routes") */
  routes: Routes;
  version: string;
  project: string;
  defaultModel(): string;
  log: Logger;
  /** SSE tuning (tests and benches lower the per-client buffer) */
  events?: EventHubOptions;
  /** this instance's id (/health; the fleet's when there is one) */
  instanceId: string;
  /** fleet mode (a FleetService handed to ServeService.useFleet): events fan out to, and prompts are forwarded between, instances */
  fleet?: FleetService;
  /** how long shutdown waits for aborted turns to reach their step boundary (default 5 s) */
  shutdownWaitMs?: number;
  /** how long a stopping server goes on with accepted turns before it aborts them (serve.shutdown_timeout_s; default 30 s) */
  drainMs?: number;
  /** where a stopping server keeps the accepted prompts it could not finish (run at the next start) */
  pending?: PendingStore;
  /** the kernel's slash dispatch (POST /session/:id/command); absent: no slash command runs */
  runSlash?(name: string, args: string, host: SlashHost): Promise<boolean>;
}

/** serve.shutdown_timeout_s when unset */
export const DEFAULT_DRAIN_MS = 30_000;

/** The handle with the server's parts (the serve command and tests look at them). */
export interface LiveServer extends ServerHandle {
  readonly hub: SessionHub;
  readonly events: EventHub;
}


/** An error a handler threw, recognised by shape (HttpError of any copy of the contract). */
function httpErrorOf(e: unknown): { status: number; code: string; message: string; path?: string } | undefined {
  if (typeof e !== "object" || e === null) return undefined;
  const x = e as { name?: unknown; status?: unknown; code?: unknown; message?: unknown; path?: unknown };
  if (!(x.name === "HttpError" && typeof x.status === "number" && typeof x.code === "string")) return undefined;
  // `path`: what in the request the error is about (a config key path), as validation errors carry it
  return { status: x.status, code: x.code, message: String(x.message), ...(typeof x.path === "string" ? { path: x.path } : {}) };
}

type AjvLike = { compile(schema: object): (data: unknown) => boolean };
type AjvClass = new (opts: Record<string, unknown>) => AjvLike;

/**
 * A body is validated as sent (a number is not a string: Fastify's default would coerce it); the query
 * string and the path parameters are text, so those are coerced to their schema's types.
 */
function validatorCompiler(): (route: { schema: object; httpPart?: string }) => (data: unknown) => boolean {
  // loaded like the kernel loads ajv: required at run time, not bundled twice
  const Ajv = (createRequire(import.meta.url)("ajv") as { default: AjvClass }).default;
  const base = { useDefaults: true, allErrors: false, strict: false };
  // an unknown body key is an error (400), not silently dropped
  const strict = new Ajv({ ...base, coerceTypes: false, removeAdditional: false });
  const loose = new Ajv({ ...base, coerceTypes: "array", removeAdditional: true });
  return ({ schema, httpPart }) => (httpPart === "body" ? strict : loose).compile(schema);
}

function urlOf(host: string, port: number): string {
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
}

function mount(app: FastifyInstance, route: RegisteredRoute, session: RouteRequest["session"], security: Security): void {
  app.route({
    method: route.method,
    url: route.url,
    schema: documented({ ...route.schema, operationId: route.operationId, summary: route.summary, tags: route.tags ?? [route.owner], ...(route.hidden ? { hide: true } : {}) }, security),
    ...(route.bodyLimit ? { bodyLimit: route.bodyLimit } : {}),
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const ac = new AbortController();
      reply.raw.on("close", () => ac.abort());
      const req: RouteRequest = {
        params: request.params as Record<string, string>,
        query: (request.query ?? {}) as Record<string, unknown>,
        body: request.body,
        headers: request.headers,
        signal: ac.signal,
        session,
      };
      const out = await route.handler(req);
      if (isRouteReply(out)) {
        reply.code(out.status);
        if (out.headers) reply.headers(out.headers);
        return out.body === undefined ? reply.send() : reply.send(out.body);
      }
      return out === undefined ? reply.code(204).send() : reply.send(out);
    },
  });
}

export async function startServer(deps: ServerDeps, opts: ServeOptions): Promise<LiveServer> {
  const host = opts.host ?? DEFAULT_HOST;
  const port = opts.port ?? DEFAULT_PORT;
  const env = opts.env ?? process.env;
  const creds = credentialsFrom(env);
  // read once: the tools the model runs (bash, MCP servers) inherit this process's environment, and a
  // password is not a name the child-env filter strips (KEY|SECRET|TOKEN)
  if (env === process.env) delete process.env.OC_SERVER_PASSWORD;
  checkBind(host, creds); // before anything loads or listens
  const authorized = basicAuth(creds);

  const { default: Fastify } = await import("fastify");
  const { default: swagger } = await import("@fastify/swagger");

  const events = new EventHub(deps.events);
  const fleet = deps.fleet;
  // a sub-agent's session -> its parent, from the engine's sessionStart (a child starts under a live parent),
  // so a session's stream can carry its sub-agents' events (?subagents=true)
  const parents = new Map<string, string>();
  let serving = true;
  deps.engine.hooks.sessionStart.tap({ name: "serve:subagents" }, ({ session }) => {
    if (serving && session.info.parentId) parents.set(session.info.id, session.info.parentId);
  });
  deps.engine.hooks.sessionEnd.tap({ name: "serve:subagents" }, ({ session }) => {
    parents.delete(session.info.id);
  });
  const rootOf = (id: string): string | undefined => {
    let root: string | undefined;
    for (let p = parents.get(id), n = 0; p !== undefined && n < 64; p = parents.get(p), n++) root = p;
    return root;
  };
  /** an event of a session this instance runs: to its own SSE clients, and to the fleet's other instances */
  const emit = (sessionId: string, type: string, data: unknown) => {
    const rootId = rootOf(sessionId);
    events.publish(sessionId, type, data, rootId);
    fleet?.publish({ sessionId, ...(rootId ? { rootId } : {}), type, data });
  };
  const questions = new Questions({
    asked: (p) => emit(p.sessionId, "question_asked", { type: "question_asked", sessionId: p.sessionId, questionId: p.id, question: p.question }),
    settled: (p, answer) => emit(p.sessionId, "question_settled", { type: "question_settled", sessionId: p.sessionId, questionId: p.id, answer }),
  });
  const hub = new SessionHub(deps.engine, deps.storage, {
    queued: (sessionId, turnId) => emit(sessionId, "turn_queued", { type: "turn_queued", sessionId, turnId }),
    done: (sessionId, turnId, result, error) =>
      emit(sessionId, "turn_done", { type: "turn_done", sessionId, turnId, reason: result?.reason ?? "error", ...(error ? { error } : {}) }),
    aborted: (sessionId) => questions.rejectAll(sessionId, "the turn was aborted"),
  }, fleet ? (id, text) => fleet.forwardPrompt(id, text) : undefined, fleet, deps.pending);
  const unsubscribe = deps.engine.subscribe((e: SessionEvent) => emit(e.sessionId, e.type, e));
  // the other instances' events reach this instance's SSE clients (ids from this server's own sequence)
  let unfleet: (() => void) | undefined;
  if (fleet) {
    try {
      const started = await fleet.start({ holds: (id) => hub.holds(id), prompt: (id, text) => hub.prompt(id, text), takeover: (id) => hub.takeover(id) });
      // this start's own id range: a Last-Event-ID another instance issued is recognised as not ours
      events.startAfter(started.eventIdBase);
    } catch (e) {
      // e.g. a newer fleet schema: this instance does not join (nor serve) with a fleet it cannot follow
      unsubscribe();
      events.closeAll();
      await fleet.stop().catch(() => undefined);
      throw e;
    }
    // (subscribed once numbered; no client can be connected before the server listens)
    unfleet = fleet.subscribe((e) => events.publish(e.sessionId, e.type, e.data, e.rootId));
  }
  const answersQuestions = opts.questions !== false;
  if (answersQuestions) deps.engine.setQuestionHandler((q, signal) => questions.ask(q, signal));

  let closing = false;
  /** while draining, a refused request is told when to come back: when the drain will be over */
  let drainEnds = 0;
  const retryAfterS = () => String(Math.max(1, Math.ceil((drainEnds - Date.now()) / 1000)));
  // forceCloseConnections: keep-alive sockets do not hold up close()
  const app = Fastify({ logger: false, forceCloseConnections: true });
  app.setValidatorCompiler(validatorCompiler());
  app.addHook("onRequest", async (request, reply) => {
    if (closing) return reply.code(503).header("connection", "close").header("retry-after", retryAfterS()).send({ error: { code: "shutting_down", message: "the server is shutting down (it finishes the prompts it accepted first)" } });
    if (!authorized(request.headers.authorization)) return reply.code(401).header("www-authenticate", REALM).send({ error: { code: "unauthorized", message: "this server needs HTTP basic auth (OC_SERVER_USERNAME / OC_SERVER_PASSWORD)" } });
    // no password: loopback only, and never a browser page's request (DNS rebinding, cross-site)
    const foreign = creds ? undefined : foreignRequest(request.headers);
    if (foreign) return reply.code(403).send({ error: { code: "forbidden_origin", message: foreign } });
    return undefined;
  });
  app.setErrorHandler((err: FastifyError, _request, reply) => {
    const http = httpErrorOf(err);
    if (http) return reply.code(http.status).send({ error: { code: http.code, message: http.message, ...(http.path ? { path: http.path } : {}) } });
    if (err.validation) {
      // e.g. "body/text must be string": the part of the request and the JSON path of the bad value
      const first = err.validation[0];
      const where = `${err.validationContext ?? "request"}${first?.instancePath ?? ""}`;
      return reply.code(400).send({ error: { code: "invalid_request", message: err.message, path: where } });
    }
    const status = typeof err.statusCode === "number" && err.statusCode >= 400 ? err.statusCode : 500;
    if (status >= 500) deps.log.error(`serve: ${reply.request.method} ${reply.request.url}: ${err.stack ?? err.message}`);
    return reply.code(status).send({ error: { code: status >= 500 ? "internal" : (err.code ?? "bad_request"), message: status >= 500 ? "internal error (see the server's log)" : err.message } });
  });
  app.setNotFoundHandler((request, reply) => reply.code(404).send({ error: { code: "not_found", message: `no route ${request.method} ${request.url.split("?")[0]}` } }));

  await app.register(swagger, {
    openapi: documentBase(deps.version, creds !== undefined),
    // shared schemas (the error shape) keep their $id as their component name
    refResolver: { buildLocalReference: (json: { $id?: unknown }, _base: unknown, _fragment: unknown, i: number) => (typeof json.$id === "string" ? json.$id : `def-${i}`) },
  });
  app.addSchema(ErrorComponent);
  const security = securityOf(creds !== undefined);

  // one table for the built-in and the contributed routes: a contributed route that clashes is left out, said in the log
  const table = new Routes();
  for (const r of coreRoutes({ instanceId: deps.instanceId, engine: deps.engine, storage: deps.storage, hub, questions, version: deps.version, project: deps.project, defaultModel: deps.defaultModel, unavailable: () => fleet?.unavailable?.(), runSlash: deps.runSlash ?? (async () => false) })) table.add(r, "serve");
  for (const r of deps.routes.list()) {
    try {
      table.add(r, r.owner);
    } catch (e) {
      deps.log.warn(`serve: ${(e as Error).message}; not mounted`);
    }
  }
  deps.routes.late = (r) => deps.log.warn(`serve: route ${r.method} ${r.url} (${r.owner}) was added after the server started: it is mounted at the next start`);
  const session = (id: string) => hub.session(id);
  for (const r of table.list()) mount(app, r, session, security);

  app.get("/doc", { schema: documented({ operationId: "openapi", summary: "this OpenAPI 3.1 document", tags: ["server"], response: { 200: { description: "the document (OpenAPI 3.1)", type: "object", additionalProperties: true } } }, security) }, async () => app.swagger());
  const lastEventIdOf = (request: FastifyRequest): number | undefined => {
    const raw = request.headers["last-event-id"] ?? (request.query as { lastEventId?: string }).lastEventId;
    const n = Number(Array.isArray(raw) ? raw[0] : raw);
    return raw !== undefined && Number.isSafeInteger(n) && n >= 0 ? n : undefined;
  };
  const sse = { 200: { description: "text/event-stream: `id: <n>\\nevent: <type>\\ndata: <json>\\n\\n` per event", content: { "text/event-stream": { schema: { type: "string" } } } }, 404: { $ref: `${ERROR_SCHEMA_ID}#`, description: "session_not_found" } };
  const lastEventQuery = { type: "object", properties: { lastEventId: { type: "integer", minimum: 0, description: "like the Last-Event-ID header" } } };
  const sessionEventQuery = {
    type: "object",
    properties: {
      ...lastEventQuery.properties,
      subagents: { type: "boolean", description: "also the events of the session's sub-agents (each carries its own sessionId); default false" },
    },
  };
  app.get("/event", { schema: documented({ operationId: "eventStream", summary: "every session's events (SSE); Last-Event-ID replays what was missed", tags: ["event"], querystring: lastEventQuery, response: sse }, security) }, (request, reply) => {
    reply.hijack();
    events.attach(reply.raw, { lastEventId: lastEventIdOf(request) });
  });
  app.get(
    "/session/:id/event",
    { schema: documented({ operationId: "sessionEventStream", summary: "one session's events (SSE), with ?subagents=true its sub-agents' too; Last-Event-ID replays what was missed", tags: ["event"], params: SessionIdParams, querystring: sessionEventQuery, response: sse }, security) },
    async (request, reply) => {
      const id = (request.params as { id: string }).id;
      // 404 / 409 as JSON, before the stream starts; in a fleet a session another instance holds streams here
      // too (its events come through the fleet)
      await hub.session(id).catch((e: unknown) => {
        if (!(fleet && (e as { code?: string }).code === "session_busy")) throw e;
      });
      reply.hijack();
      events.attach(reply.raw, { sessionId: id, subagents: (request.query as { subagents?: boolean }).subagents === true, lastEventId: lastEventIdOf(request) });
    },
  );

  // what an earlier stop kept runs first, before any client can send more
  const resumed = await hub.resumePending((m) => deps.log.warn(m));
  if (resumed.resumed) deps.log.info(`serve: running ${resumed.resumed} prompt(s) an earlier stop kept`);
  if (resumed.kept) deps.log.warn(`serve: ${resumed.kept} kept prompt(s) wait for sessions another process holds; a later start runs them`);
  await app.listen({ host, port });
  const addr = app.server.address();
  const bound = typeof addr === "object" && addr ? addr.port : port;
  let closed: Promise<void> | undefined;
  return {
    host,
    port: bound,
    url: urlOf(host, bound),
    hub,
    events,
    keepUnfinished: () => {
      if (!fleet) hub.keepUnfinished();
    },
    close() {
      closed ??= (async () => {
        closing = true;
        // in a fleet, this instance's turns go on elsewhere at once; alone, it finishes what it accepted first
        const drainMs = fleet ? 0 : (deps.drainMs ?? DEFAULT_DRAIN_MS);
        drainEnds = Date.now() + drainMs;
        // every request from here gets 503 with Retry-After (a load balancer's /health included); the listener
        // stays open while the accepted turns finish, so a client is told rather than refused a connection
        questions.rejectAll(undefined, "the server is shutting down");
        const r = await hub.shutdown(deps.shutdownWaitMs ?? 5_000, { handOver: fleet !== undefined, drainMs });
        serving = false;
        parents.clear();
        app.server.close(() => undefined);
        if (r.drained) deps.log.info(`serve: finished ${r.drained} accepted turn(s) before stopping`);
        if (r.unfinished) deps.log.warn(`serve: ${r.unfinished} turn(s) did not reach a step boundary in time`);
        if (r.kept) deps.log.warn(`serve: ${r.kept} accepted prompt(s) not finished within ${drainMs / 1000} s (serve.shutdown_timeout_s) are kept in ${r.keptIn}: the next start runs them`);
        unsubscribe();
        unfleet?.();
        await fleet?.stop();
        deps.routes.late = undefined;
        if (answersQuestions) deps.engine.setQuestionHandler(undefined);
        events.closeAll();
        await app.close();
      })();
      return closed;
    },
  };
}
