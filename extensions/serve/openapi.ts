/**
 * The OpenAPI document's quality, applied centrally to every mounted route (built-in or contributed), so a
 * route an extension adds passes `redocly lint` (recommended rules) without knowing about it: the error
 * shape as one component (`#/components/schemas/Error`), the 4XX answers any route can give (400 for bad
 * input, 401 without the password, 403 for a cross-site or rebinding request), security declared on the
 * document and on every operation, `servers`, and a license. The answers are the ones the server really
 * gives: the onRequest guard answers 401/403 on every route, the validator 400 on every route with input.
 */
import type { JsonSchema } from "./api.js";
import { ErrorBody } from "./schemas.js";

/** the shared error schema's $id (Fastify: `app.addSchema`), referenced as `Error#` */
export const ERROR_SCHEMA_ID = "Error";

export const ErrorComponent: JsonSchema = { $id: ERROR_SCHEMA_ID, ...ErrorBody, description: "an error answer: `{error: {code, message}}`" };

const WHY: Record<number, string> = {
  400: "invalid_request: a parameter, query or body does not match its schema (error.path says where), or the request cannot be done as asked",
  401: "unauthorized: this server has a password (OC_SERVER_PASSWORD) and the request has no valid basic auth",
  403: "forbidden_origin: a server without a password refuses a browser page's cross-site or DNS-rebinding request (Origin / Host not loopback)",
  404: "not found (error.code names what: session_not_found, ...)",
  409: "conflict (error.code says: session_busy, ...)",
  413: "too large",
  501: "not offered by the extensions enabled here",
  500: "internal error (see the server's log)",
  503: "the server is shutting down (Retry-After) or cannot serve now",
};

const errorRef = (status: number): JsonSchema => ({ $ref: `${ERROR_SCHEMA_ID}#`, description: WHY[status] ?? "an error answer" });

type Schema = { params?: JsonSchema; querystring?: JsonSchema; body?: JsonSchema; response?: Record<number | string, JsonSchema> } & Record<string, unknown>;

/** `{error: {...}}` and nothing else (serve's ErrorBody, or an extension's copy of it) */
function isPlainError(s: JsonSchema): boolean {
  if (s === ErrorBody) return true;
  const props = s.properties as Record<string, unknown> | undefined;
  return s.type === "object" && props !== undefined && Object.keys(props).length === 1 && "error" in props;
}

export type Security = Array<Record<string, string[]>>;

/** What a server with (basic) or without a password (none: loopback only) declares. */
export function securityOf(hasPassword: boolean): Security {
  return hasPassword ? [{ basic: [] }] : [{}];
}

/**
 * A route's schema as the document shows it: every error answer that is the plain error shape becomes the
 * shared component with its status's meaning; 401 and 403 are added to every route, 400 to one with input.
 * The route's own non-error schemas (a 503 with more fields, say) are left as they are.
 */
export function documented<S extends Schema>(schema: S, security: Security): S & { security: Security } {
  const response: Record<string, JsonSchema> = {};
  for (const [code, s] of Object.entries(schema.response ?? {})) response[code] = Number(code) >= 400 && isPlainError(s) ? errorRef(Number(code)) : s;
  const hasInput = schema.params !== undefined || schema.querystring !== undefined || schema.body !== undefined;
  // a route that declares no success answer still has one (Fastify's document said "Default Response")
  if (!Object.keys(response).some((c) => /^2/.test(c))) response["200"] = { description: "the answer (its shape is not declared)" };
  const extra = [...(hasInput ? [400] : []), 401, 403];
  for (const c of extra) response[String(c)] ??= errorRef(c);
  return { ...schema, response, security };
}

/** The document-level parts (swagger's `openapi` option) for this server. */
export function documentBase(version: string, hasPassword: boolean): Record<string, unknown> {
  return {
    openapi: "3.1.0",
    info: { title: "oceancode", version, description: "The HTTP surface of oceancode serve (docs/serve.md)", license: { name: "MIT", identifier: "MIT" } },
    // relative: the document's own origin, whatever name or proxy the client reached it by
    servers: [{ url: "/", description: "this server" }],
    ...(hasPassword ? { components: { securitySchemes: { basic: { type: "http", scheme: "basic", description: "OC_SERVER_USERNAME (default oceancode) / OC_SERVER_PASSWORD" } } } } : {}),
    security: securityOf(hasPassword),
  };
}
