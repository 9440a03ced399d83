/**
 * The workflows extension's HTTP routes (mounted by `oceancode serve` through service "routes"):
 *   POST /workflow/run, POST /goal                 -> 202 {run_id}; the run goes on in the server's process
 *   GET  /workflow/runs[?all=true], /workflow/runs/:id, /workflow/runs/:id/event (SSE of its bodies)
 *   POST /workflow/runs/:id/pause|resume|stop      -> for runs live in this server (409 otherwise, 404 unknown)
 * Over HTTP a workflow is named (a built-in or a discovered script), never a path on the server's disk.
 */
import { type JsonSchema, type RouteDefinition, type RouteReply } from "../serve/api.js";
import { HttpError } from "../serve/kit.js";
import type { LaunchOptions, RunBody, RunMeta } from "./api.js";
import type { RunFeed } from "./feed.js";
import { looksLikePath, type Workflows } from "./service.js";

export interface RouteDeps {
  wf: Workflows;
  feed: RunFeed;
  /** the server's project (--dir) */
  project: string;
  /** wake the extensions that register built-ins (goal) before a name resolves */
  wake(): Promise<void>;
  log(text: string): void;
}

const ErrorBody: JsonSchema = {
  type: "object",
  required: ["error"],
  properties: { error: { type: "object", required: ["code", "message"], properties: { code: { type: "string" }, message: { type: "string" } } } },
};
const errors = (...codes: number[]) => Object.fromEntries(codes.map((c) => [c, ErrorBody]));
const budget: JsonSchema = { type: "integer", minimum: 1, description: "model calls the run may make (each model request of its sessions counts 1)" };
const model: JsonSchema = { type: "string", minLength: 1, description: "provider/model of the run's sessions" };
const accepted: JsonSchema = { type: "object", properties: { run_id: { type: "string" } }, required: ["run_id"], additionalProperties: false };
/** a body keeps its kind-specific fields (goal's phase, round, deliverables, gaps; a step's output) */
const bodySchema: JsonSchema = {
  type: "object",
  properties: {
    type: { type: "string", enum: ["workflow_updated", "goal_updated"] },
    run_id: { type: "string" },
    workflow: { type: "string" },
    seq: { type: "integer" },
    at: { type: "string" },
    status: { type: "string" },
    terminal: { type: "boolean" },
    budget: { type: "object", properties: { limit: { type: ["integer", "null"] }, spent: { type: "integer" } }, additionalProperties: true },
  },
  required: ["type", "run_id", "workflow", "seq", "at", "status", "terminal", "budget"],
  additionalProperties: true,
};
const metaSchema: JsonSchema = {
  type: "object",
  properties: { run_id: { type: "string" }, workflow: { type: "string" }, kind: { type: "string", enum: ["workflow", "goal"] }, project: { type: "string" }, started_at: { type: "string" }, pid: { type: "integer" } },
  required: ["run_id", "workflow", "kind", "project", "started_at", "pid"],
  additionalProperties: false,
};
const listed: JsonSchema = {
  type: "object",
  properties: { ...(metaSchema.properties as object), status: { type: "string" }, terminal: { type: "boolean" }, live: { type: "boolean" }, latest: bodySchema },
  required: ["run_id", "workflow", "kind", "project", "started_at", "pid", "status", "terminal", "live"],
  additionalProperties: false,
};
const runParams: JsonSchema = { type: "object", properties: { id: { type: "string", minLength: 1 } }, required: ["id"] };
const controlAnswer: JsonSchema = { type: "object", properties: { run_id: { type: "string" }, action: { type: "string" } }, required: ["run_id", "action"], additionalProperties: false };

export function workflowRoutes(deps: RouteDeps): RouteDefinition[] {
  const { wf, feed } = deps;

  /** Launch and answer once the run exists (its first body): a usage error rejects before that, as a 400. */
  const launch = async (target: string, opts: LaunchOptions): Promise<RouteReply> => {
    if (looksLikePath(target)) throw new HttpError(400, "workflow_usage", `'${target}' looks like a path: over HTTP a workflow is named (a built-in or a script under .oceancode/workflows/)`);
    await deps.wake();
    return new Promise<RouteReply>((resolve, reject) => {
      let started = false;
      let ended!: () => void;
      const done = new Promise<void>((r) => (ended = r));
      const onBody = (b: RunBody) => {
        if (!started) {
          started = true;
          feed.launched.set(b.run_id, done);
          resolve({ status: 202, body: { run_id: b.run_id } });
        }
        feed.publish(b);
        if (b.terminal) {
          feed.launched.delete(b.run_id);
          ended();
        }
      };
      wf.launch(target, deps.project, { ...opts, onBody }).then(
        () => undefined,
        (e: unknown) => {
          const err = e as { code?: string; message?: string };
          if (!started) reject(err.code === "OC_ERR_WORKFLOW_USAGE" ? new HttpError(400, "workflow_usage", String(err.message)) : e);
          else deps.log(`workflow run failed after it started: ${String(err.message ?? e)}`);
          ended();
        },
      );
    });
  };

  const known = (id: string): { meta: RunMeta; bodies: RunBody[] } => {
    const r = wf.store.read(id);
    if (!r) throw new HttpError(404, "run_not_found", `no workflow run '${id}'`);
    return r;
  };

  /** 409 for a run this server cannot control: ended, or live in another process. */
  const notHere = (id: string): never => {
    const { meta, bodies } = known(id);
    const last = bodies.at(-1);
    if (last?.terminal) throw new HttpError(409, "run_ended", `workflow run '${id}' already ended (${last.status})`);
    throw new HttpError(409, "run_not_live", `workflow run '${id}' is not live in this server: it was started by process ${meta.pid}; control it there`);
  };

  const control = (action: "pause" | "resume" | "stop", act: (id: string, body: { budget?: number }) => boolean): RouteDefinition => ({
    method: "POST",
    url: `/workflow/runs/:id/${action}`,
    operationId: `workflowRun${action[0]!.toUpperCase()}${action.slice(1)}`,
    summary:
      action === "pause"
        ? "Pause a run live in this server: its next host call or model request waits (a user_paused body)"
        : action === "resume"
          ? "Resume a paused run live in this server; budget lifts its limit of model calls"
          : "Stop a run live in this server: it ends cancelled",
    schema: {
      params: runParams,
      response: { 200: controlAnswer, ...errors(404, 409) },
    },
    handler: (req) => {
      const id = req.params.id!;
      // checked here, not by a body schema: a bodiless POST is the common case
      const b = req.body ?? {};
      const lift = typeof b === "object" && b !== null ? (b as { budget?: unknown }).budget : undefined;
      if (typeof b !== "object" || b === null || Array.isArray(b) || Object.keys(b).some((k) => action !== "resume" || k !== "budget") || (lift !== undefined && !(Number.isInteger(lift) && (lift as number) > 0))) {
        throw new HttpError(400, "invalid_request", action === "resume" ? 'resume takes no body or {"budget": <positive integer>}' : `${action} takes no body`);
      }
      if (!act(id, lift !== undefined ? { budget: lift as number } : {})) notHere(id);
      return { run_id: id, action };
    },
  });

  return [
    {
      method: "POST",
      url: "/workflow/run",
      operationId: "workflowRun",
      summary: "Launch a workflow (a built-in or a discovered script, by name) in the server's process; its bodies at /workflow/runs/:id/event",
      schema: {
        body: { type: "object", properties: { workflow: { type: "string", minLength: 1 }, args: {}, budget, model }, required: ["workflow"], additionalProperties: false },
        response: { 202: accepted, ...errors(400) },
      },
      handler: (req) => {
        const b = req.body as { workflow: string; args?: unknown; budget?: number; model?: string };
        return launch(b.workflow, { args: b.args ?? null, budget: b.budget ?? null, ...(b.model ? { model: b.model } : {}) });
      },
    },
    {
      method: "POST",
      url: "/goal",
      operationId: "goalRun",
      summary: "Launch goal mode (Plan -> Work -> Verify) on an objective in the server's process; its goal_updated bodies at /workflow/runs/:id/event",
      schema: {
        body: { type: "object", properties: { objective: { type: "string", minLength: 1 }, budget, model }, required: ["objective"], additionalProperties: false },
        response: { 202: accepted, ...errors(400) },
      },
      handler: (req) => {
        const b = req.body as { objective: string; budget?: number; model?: string };
        return launch("goal", { args: { objective: b.objective }, budget: b.budget ?? null, ...(b.model ? { model: b.model } : {}) });
      },
    },
    {
      method: "GET",
      url: "/workflow/runs",
      operationId: "workflowRuns",
      summary: "The runs of this server's project (every project's with all=true), oldest first, each with its latest body",
      schema: {
        querystring: { type: "object", properties: { all: { type: "boolean", default: false } }, additionalProperties: false },
        response: { 200: { type: "array", items: listed } },
      },
      handler: (req) =>
        wf.store.list(req.query.all === true ? undefined : deps.project).map(({ meta, latest }) => ({
          ...meta,
          status: latest?.status ?? "running",
          terminal: latest?.terminal ?? false,
          live: feed.launched.has(meta.run_id),
          ...(latest ? { latest } : {}),
        })),
    },
    {
      method: "GET",
      url: "/workflow/runs/:id",
      operationId: "workflowRunGet",
      summary: "One run: its run.json and every body so far",
      schema: {
        params: runParams,
        response: {
          200: { type: "object", properties: { meta: metaSchema, bodies: { type: "array", items: bodySchema }, live: { type: "boolean" } }, required: ["meta", "bodies", "live"], additionalProperties: false },
          ...errors(404),
        },
      },
      handler: (req) => ({ ...known(req.params.id!), live: feed.launched.has(req.params.id!) }),
    },
    {
      method: "GET",
      url: "/workflow/runs/:id/event",
      operationId: "workflowRunEvents",
      summary: "One run's bodies as SSE (event workflow_updated or goal_updated, id = seq): the stored ones, then live; the stream ends after the terminal body",
      schema: {
        params: runParams,
        response: { 200: { description: "text/event-stream: `id: <seq>\\nevent: <type>\\ndata: <body>\\n\\n` per body", content: { "text/event-stream": { schema: { type: "string" } } } }, ...errors(404) },
      },
      handler: (req): RouteReply => {
        const id = req.params.id!;
        const { meta, bodies } = known(id);
        const stream = feed.stream(id, bodies, req.signal, () => pidAlive(meta.pid));
        return { status: 200, body: stream, headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", "x-accel-buffering": "no" } };
      },
    },
    control("pause", (id) => wf.pause(id)),
    control("resume", (id, b) => wf.resume(id, b.budget !== undefined ? { budget: b.budget } : {})),
    control("stop", (id) => wf.stop(id)),
  ];
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}
