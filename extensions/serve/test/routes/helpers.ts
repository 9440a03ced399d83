/**
 * Contributed routes without the serve host: a real kernel (the compiled bundled extensions) on a sandbox
 * with SQLite storage on disk and the scripted model, a RouteRequest whose session(id) opens the session
 * through engine.openSession (404 unknown, 409 busy, as the contract says), and a bare Fastify app that
 * mounts route definitions the way the contract describes, so schemas are compiled, requests validated and
 * answers serialized by the real library, and @fastify/swagger builds the OpenAPI document from them.
 */
import { createRequire } from "node:module";
import type { ValidateFunction } from "ajv";
import { makeSandbox, type Sandbox } from "../../../../test/kit/cli.js";
import type { EngineService } from "../../../engine/api.js";
import { isSessionBusy } from "../../../engine/kit.js";
import type { JsonSchema, RouteDefinition, RouteRequest } from "../../api.js";
import { HttpError, isRouteReply } from "../../kit.js";
import { bootCompiled, type KernelLike } from "../../../../test/kit/kernel-boot.js";


export interface Booted {
  sb: Sandbox;
  kernel: KernelLike;
  engine: EngineService;
}

/** Boot the compiled kernel on a fresh sandbox (`setup` writes config first) and activate a session's extensions. */
export async function boot(setup?: (sb: Sandbox) => NodeJS.ProcessEnv | void): Promise<Booted> {
  const sb = makeSandbox("oc-routes-");
  const extra = setup?.(sb) ?? {};
  const kernel = await bootCompiled(sb, { ...sb.env, ...extra });
  // as a server does: serve first (it is passive, so a session alone does not activate it), then the session's
  // extensions, then the routes event the server fires before it mounts its routes (export, auth, inspect)
  await kernel.service("routes");
  await kernel.activate("onSession");
  await kernel.activate("onEvent:serve:routes");
  return { sb, kernel, engine: await kernel.service("engine") };
}

export async function shutdown(b: Booted | undefined): Promise<void> {
  if (!b) return;
  await b.kernel.shutdown();
  b.sb.cleanup();
}

/** session(id) as the server holds it: engine.openSession, its errors as the contract's HttpErrors. */
export function sessionAccess(engine: EngineService): RouteRequest["session"] {
  return async (id) => {
    try {
      return await engine.openSession(id);
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      if (isSessionBusy(e)) throw new HttpError(409, "session_busy", message);
      throw new HttpError(404, "session_not_found", message);
    }
  };
}

export function request(engine: EngineService, parts: { params: Record<string, string>; query?: Record<string, unknown>; body?: unknown }): RouteRequest {
  return { params: parts.params, query: parts.query ?? {}, body: parts.body, headers: {}, signal: new AbortController().signal, session: sessionAccess(engine) };
}

export function routeOf(routes: readonly RouteDefinition[], method: string, url: string): RouteDefinition {
  const r = routes.find((x) => x.method === method && x.url === url);
  if (!r) throw new Error(`no route ${method} ${url}`);
  return r;
}

// ---------------------------------------------------------------- ajv: the answers against their schemas

let ajv: { compile(s: object): ValidateFunction } | undefined;
/** Draft 2020-12 (OpenAPI 3.1), strict about unknown keys: an answer key the schema lacks would be dropped by the serializer. */
export function validator(schema: JsonSchema): ValidateFunction {
  if (!ajv) {
    const { Ajv2020 } = createRequire(import.meta.url)("ajv/dist/2020.js") as typeof import("ajv/dist/2020.js");
    ajv = new Ajv2020({ allErrors: true, strict: false, allowUnionTypes: true });
  }
  return ajv.compile(schema);
}

/** The problems of `value` against `schema` ([] when it conforms). */
export function problems(schema: JsonSchema, value: unknown): string[] {
  const v = validator(schema);
  return v(value) ? [] : (v.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? e.keyword}`);
}

// ---------------------------------------------------------------- a bare Fastify mount

export interface Mounted {
  inject(opts: { method: string; url: string; payload?: unknown }): Promise<{ statusCode: number; headers: Record<string, unknown>; body: string; json(): unknown }>;
  openapi(): { paths?: Record<string, Record<string, { operationId?: string }>> };
  close(): Promise<void>;
}

/** Mount definitions as the contract says: 200 plain bodies, RouteReply status/headers, HttpError as {error:{code,message}}. */
export async function mount(routes: readonly RouteDefinition[], engine: EngineService): Promise<Mounted> {
  const { default: Fastify } = await import("fastify");
  const { default: swagger } = await import("@fastify/swagger");
  const app = Fastify();
  await app.register(swagger, { openapi: { openapi: "3.1.0", info: { title: "oceancode (routes test)", version: "0" } } });
  app.setErrorHandler((err: Error & { validation?: unknown; statusCode?: number }, _req, reply) => {
    if (err instanceof HttpError) return reply.code(err.status).send({ error: { code: err.code, message: err.message } });
    if (err.validation) return reply.code(400).send({ error: { code: "bad_request", message: err.message } });
    return reply.code(err.statusCode ?? 500).send({ error: { code: "internal", message: err.message } });
  });
  for (const r of routes) {
    app.route({
      method: r.method,
      url: r.url,
      schema: { ...r.schema, operationId: r.operationId, summary: r.summary },
      handler: async (req, reply) => {
        const out = await r.handler({
          params: req.params as Record<string, string>,
          query: req.query as Record<string, unknown>,
          body: req.body,
          headers: req.headers,
          signal: new AbortController().signal,
          session: sessionAccess(engine),
        });
        if (!isRouteReply(out)) return out;
        reply.code(out.status);
        for (const [k, v] of Object.entries(out.headers ?? {})) reply.header(k, v);
        return reply.send(out.body);
      },
    });
  }
  await app.ready();
  return {
    inject: async (o) => {
      const res = await app.inject({ method: o.method as "GET", url: o.url, ...(o.payload !== undefined ? { payload: o.payload as object } : {}) });
      return { statusCode: res.statusCode, headers: res.headers, body: res.body, json: () => res.json() };
    },
    openapi: () => app.swagger() as ReturnType<Mounted["openapi"]>,
    close: () => app.close(),
  };
}
