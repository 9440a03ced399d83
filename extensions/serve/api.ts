/**
 * The published contract `oceancode/api/serve` (what other extensions and third parties may import).
 *
 * The HTTP surface of `oceancode serve` (and the pager's `--listen`). The serve extension owns the server
 * (Fastify, loaded only when a server starts), its auth, the session routes and the event streams; every
 * other route is contributed by the extension that owns the feature, through the route registry
 * (service name "routes"), the way CLI commands are contributed:
 *
 *   const routes = ctx.services.tryGet("routes");   // a RouteRegistry; manifest: "optional": ["routes"]
 *   routes?.add({ method: "GET", url: "/mcp", operationId: "mcpList", summary: "...",
 *                 schema: { response: { 200: {...} } }, handler: async () => service.servers() }, ctx.id);
 *
 * A route's JSON Schemas validate its requests and produce the OpenAPI 3.1 document at GET /doc, from
 * which the typed client (`oceancode/client`) is generated. Errors are `{error: {code, message}}`.
 */
import type { CommandIO } from "../../kernel/api.js";
import type { Question, Session } from "../engine/api.js";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** A JSON Schema (draft 2020-12 / OpenAPI 3.1 subset) as plain data. */
export type JsonSchema = { [key: string]: unknown };

/**
 * The error answer's schema (`{error: {code, message}}`), for a route's 4XX/5XX responses: e.g.
 * `response: { 200: {...}, 404: ERROR_SCHEMA }`. The document shows it as one component; 400, 401 and 403
 * are added to every route without being listed.
 */
export const ERROR_SCHEMA: JsonSchema = {
  type: "object",
  required: ["error"],
  properties: { error: { type: "object", required: ["code", "message"], properties: { code: { type: "string" }, message: { type: "string" }, path: { type: "string", description: "validation errors: where in the request (body/text)" } } } },
};

/** What a contributed route's handler is given: the validated request, and the server's session access. */
export interface RouteRequest<P = Record<string, string>, Q = Record<string, unknown>, B = unknown> {
  params: P;
  query: Q;
  body: B;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** aborted when the client goes away or the server shuts down */
  signal: AbortSignal;
  /**
   * The session `id` as this server holds it: opened on first use (claimed for this process, like
   * `run --session`). Throws an HttpError 404 `session_not_found` for an unknown id, 409 `session_busy`
   * when another process holds it.
   */
  session(id: string): Promise<Session>;
}

/** A handler may return a plain JSON body (status 200), or a reply with its own status and headers. */
export interface RouteReply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface RouteDefinition {
  method: HttpMethod;
  /** Fastify path syntax, parameters as `:name`, e.g. `/session/:id/permission-mode` */
  url: string;
  /** unique across the server: the generated client's method name */
  operationId: string;
  summary: string;
  /** OpenAPI tags; default: the owning extension's id */
  tags?: string[];
  schema?: {
    params?: JsonSchema;
    querystring?: JsonSchema;
    body?: JsonSchema;
    /** by status code; a 200 schema also serializes the answer (unknown keys are dropped) */
    response?: Record<number, JsonSchema>;
  };
  /** the largest request body in bytes (default Fastify's 1 MiB); a bigger one is refused with 413 */
  bodyLimit?: number;
  /** left out of the OpenAPI document and so of the typed client (a static file: the web client's page and assets) */
  hidden?: boolean;
  handler(req: RouteRequest): Promise<RouteReply | unknown> | RouteReply | unknown;
}

export interface RegisteredRoute extends RouteDefinition {
  /** the contributing extension's id */
  owner: string;
}

/** Service "routes": where extensions contribute HTTP routes (before or after a server starts). */
export interface RouteRegistry {
  /** Add a route. A duplicate method+url or operationId throws (the contributing extension fails to activate). */
  add(route: RouteDefinition, owner: string): void;
  list(): readonly RegisteredRoute[];
}

// ---------------------------------------------------------------- the server itself (service "serve")

export const DEFAULT_PORT = 4096;
export const DEFAULT_HOST = "127.0.0.1";

/** Where and how a server listens. */
export interface ServeOptions {
  /** default 127.0.0.1 */
  host?: string;
  /** 0: any free port (the bound one is in ServerHandle.port); default 4096 */
  port?: number;
  /**
   * Answer permission questions over HTTP (the server installs the engine's question handler). Default true;
   * the pager passes false: its own person at the terminal answers, and the server only watches.
   */
  questions?: boolean;
  /** the environment OC_SERVER_PASSWORD / OC_SERVER_USERNAME are read from (default process.env) */
  env?: NodeJS.ProcessEnv;
}

export interface ServerHandle {
  readonly host: string;
  readonly port: number;
  /** http://host:port (IPv6 hosts in brackets) */
  readonly url: string;
  /**
   * Graceful stop: refuse new requests (503), drain the accepted turns (serve.shutdown_timeout_s), abort what
   * still runs, keep every unfinished accepted prompt for the next start, close sessions and streams.
   */
  close(): Promise<void>;
  /** A forced exit is coming (a second signal): write the unfinished accepted prompts for the next start now (synchronous). */
  keepUnfinished?(): void;
}

/** Service "serve": start the HTTP server in this process (`oceancode serve`, the pager's `--listen`). */
export interface ServeService {
  /** Throws an Error with code OC_ERR_SERVE_AUTH (SERVE_AUTH_REQUIRED) when a non-loopback bind has no password set. */
  start(opts: ServeOptions): Promise<ServerHandle>;
  /**
   * A fleet extension hands its FleetService over here, when it activates on FLEET_EVENT (fired as a server
   * starts) and finds what it needs (serve-fleet: a PostgreSQL store). The last one given is used.
   */
  useFleet(fleet: FleetService): void;
  /**
   * Run `fn` each time a server starts, before its routes are mounted (after the fleet activation): an
   * extension that serves routes only when a server runs (metrics: GET /metrics) adds them here.
   */
  onStart?(fn: () => void | Promise<void>): void;
  /** The running server's counts (metrics read them at each scrape); undefined while no server runs. */
  stats?(): ServeStats | undefined;
  /**
   * The `oceancode serve` command's whole run (boot, start, the listening line, drain on SIGTERM/SIGINT),
   * for a command that is serve with something more: `oceancode web` runs it with `web: true` (as `--web`).
   */
  command(argv: string[], io: CommandIO, opts?: { name?: string; web?: boolean }): Promise<number>;
}

/** What ServeService.stats reports: cheap counts, read at scrape time. */
export interface ServeStats {
  /** sessions this instance holds open (in a fleet: the session claims, i.e. leases, it holds) */
  openSessions: number;
  /** connected SSE clients (every stream) */
  sseClients: number;
  /** accepted prompts whose turn has not started yet */
  queuedPrompts: number;
  /** present in fleet mode */
  fleet?: { takeovers: number };
}

/** The activation event `serve --web` fires before it starts: the web client's extension listens for it and adds its routes. */
export const WEB_EVENT = "onEvent:serve:web";

/**
 * The activation event a server fires before it mounts its routes: an extension that is not a session
 * extension (inspect, doctor, plugins, auth, ...) and only contributes routes listens for it
 * (`"activation": ["onEvent:serve:routes"]`, `"optional": ["routes"]`), so it loads with a server and
 * never with a plain `run`.
 */
export const ROUTES_EVENT = "onEvent:serve:routes";

/** The activation event a server fires before it starts: fleet extensions listen for it (`"activation": ["onEvent:serve:fleet"]`). */
export const FLEET_EVENT = "onEvent:serve:fleet";

export const SERVE_AUTH_REQUIRED = "OC_ERR_SERVE_AUTH" as const;

/** Events the server adds to the engine's SessionEvents on its streams (same framing, same id sequence). */
export type ServerEvent =
  /** a prompt was accepted (POST /session/:id/prompt); it runs after the session's earlier turns */
  | { type: "turn_queued"; sessionId: string; turnId: string }
  /** the accepted prompt finished (its engine turn_end came before) */
  | { type: "turn_done"; sessionId: string; turnId: string; reason: string; error?: string }
  /** a permission question waits for an answer: POST /session/:id/question/:questionId */
  | { type: "question_asked"; sessionId: string; questionId: string; question: Question }
  /** a waiting question was answered or withdrawn (turn aborted, session closed) */
  | { type: "question_settled"; sessionId: string; questionId: string; answer: string };

/**
 * A fleet of serve instances on one database (given to ServeService.useFleet by e.g. `serve-fleet` when
 * the store is PostgreSQL). The serve hub publishes every event of the sessions it runs and feeds the
 * events of other instances to its SSE clients; a prompt for a session another live instance holds is
 * forwarded to it. serve never imports the provider's code: this interface is the whole contract.
 */
export interface FleetEvent {
  /** the instance that ran the session when the event happened */
  origin: string;
  sessionId: string;
  /** a sub-agent's event: the root session it runs under (its stream with ?subagents=true carries it) */
  rootId?: string;
  type: string;
  data: unknown;
}

export interface FleetService {
  /** this instance's id ($OC_INSTANCE_ID, or generated at start) */
  readonly instanceId: string;
  /** start listening (called by the server at start); resolves once the instance receives fleet traffic */
  start(handlers: FleetHandlers): Promise<FleetStarted>;
  /** publish one event of a session this instance runs (fire and forget; failures are logged) */
  publish(event: Omit<FleetEvent, "origin">): void;
  /** every other instance's events (own ones are not delivered); returns the unsubscribe */
  subscribe(listener: (event: FleetEvent) => void): () => void;
  /**
   * Hand a prompt to the live instance that holds the session's claim. Resolves with the turn id the holder
   * queued it as; rejects when no instance picked it up in time (the caller may then take the session over).
   */
  forwardPrompt(sessionId: string, text: string): Promise<string>;
  /**
   * A prompt for a session this instance holds was accepted: recorded (queued) before the client gets its
   * 202, so that another instance finishes it if this one dies first. Rejects when it could not be recorded
   * (the prompt is then refused).
   */
  turnQueued(sessionId: string, turnId: string, text: string): Promise<void>;
  /** ...it starts (from here a takeover continues it as interrupted instead of running it afresh) */
  turnStarted(sessionId: string, turnId: string): Promise<void>;
  /** ...it ended (finished, failed, aborted, or dropped unstarted: nothing to take over) */
  turnFinished(sessionId: string, turnId: string): Promise<void>;
  /**
   * Called by the holder of a session's claim (just claimed, or told by `takeover`): the turns that gone
   * instances (or an earlier run of this one) had queued or running for it, marked taken by this instance,
   * oldest first, each returned to one caller only. Resolves [] when there are none or they cannot be read
   * (logged; the sweep asks again).
   */
  adopt(sessionId: string): Promise<AdoptedTurn[]>;
  /** sessions whose left turns this instance took over (adopt answered turns), since it started; for metrics */
  takeovers?(): number;
  /** why the fleet cannot work now (its database unreachable, reconnecting), if it cannot; /health answers 503 meanwhile */
  unavailable?(): string | undefined;
  /** stop listening (server shutdown) */
  stop(): Promise<void>;
}

export interface FleetStarted {
  /**
   * This start's SSE event ids follow this number (a safe integer): unique per instance start across the
   * fleet, with room for 2^31 events, so a Last-Event-ID from another instance (or from before a restart)
   * is recognised as not this one's.
   */
  eventIdBase: number;
}

export interface FleetHandlers {
  /** whether this instance holds (runs) the session now */
  holds(sessionId: string): boolean;
  /** a prompt forwarded to this instance: queue it (as POST /session/:id/prompt would) and give its turn id */
  prompt(sessionId: string, text: string): Promise<string>;
  /**
   * A session has turns left by a gone instance (FleetService.adopt): claim it and queue them (a claim
   * adopts them), or adopt them when this instance holds it already. "busy": another instance holds it (it
   * adopts them); "gone": the session is not in the store (its turns can never run).
   */
  takeover(sessionId: string): Promise<"taken" | "busy" | "gone">;
}

/** A turn another instance accepted and did not finish, now this instance's to run. */
export interface AdoptedTurn {
  /** the prompt as the client sent it */
  text: string;
  /** it had started (some of its steps may be committed): continued as interrupted, not run afresh */
  interrupted: boolean;
  /** the instance that accepted it */
  instance: string;
}

/** The services this contract names, typed for `ctx.services.get(name)` and `kernel.service(name)`. */
declare module "../../kernel/api.js" {
  interface ServiceMap {
    routes: RouteRegistry;
    serve: ServeService;
  }
}
