/**
 * The OpenAPI document's quality, for every route a real `oceancode serve` mounts (built-in and contributed,
 * ours and other extensions'): `redocly lint` with the recommended rules finds no error and no warning, and
 * swagger-parser validates it, both for a server without a password (loopback) and with one (basic auth
 * declared and required). The 4XX answers the document promises are the ones the server gives.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createConfig, lintFromString } from "@redocly/openapi-core";
import SwaggerParser from "@apidevtools/swagger-parser";
import { makeSandbox, type Sandbox } from "../../../test/kit/cli.js";
import { startServe, type Served } from "./serve-helpers.js";

interface Doc {
  security?: unknown;
  servers?: unknown[];
  components?: { securitySchemes?: Record<string, unknown> };
  paths: Record<string, Record<string, { operationId?: string; summary?: string; security?: unknown; responses: Record<string, unknown> }>>;
}

const basic = { authorization: `Basic ${Buffer.from("oceancode:pw-openapi").toString("base64")}` };
let sb: Sandbox;
let open: Served;
let locked: Served;
let openDoc: Doc;
let lockedDoc: Doc;

beforeAll(async () => {
  sb = makeSandbox("oc-serve-openapi-");
  [open, locked] = await Promise.all([
    startServe(["--directory", sb.project], { env: sb.env }),
    startServe(["--directory", sb.project], { env: { ...sb.env, OC_SERVER_PASSWORD: "pw-openapi" } }),
  ]);
  openDoc = (await open.api<Doc>("GET", "/doc")).body;
  lockedDoc = (await locked.api<Doc>("GET", "/doc", undefined, basic)).body;
}, 60_000);
afterAll(async () => {
  await Promise.all([open?.stop("SIGKILL"), locked?.stop("SIGKILL")]);
  sb.cleanup();
});

async function lint(doc: Doc): Promise<string[]> {
  const config = await createConfig({ extends: ["recommended"] });
  const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: "/doc.json", config });
  return problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? "?"}`);
}

const operations = (doc: Doc) => Object.entries(doc.paths).flatMap(([p, item]) => Object.entries(item).map(([m, op]) => ({ path: p, method: m, op })));

describe("the OpenAPI document", () => {
  it("passes redocly lint (recommended) with 0 errors and 0 warnings, with and without a password", async () => {
    expect(operations(openDoc).length).toBeGreaterThan(40);
    expect(await lint(openDoc)).toEqual([]);
    expect(await lint(lockedDoc)).toEqual([]);
  }, 30_000);

  it("is valid for swagger-parser", async () => {
    await expect(SwaggerParser.validate(structuredClone(openDoc) as never)).resolves.toBeTruthy();
    await expect(SwaggerParser.validate(structuredClone(lockedDoc) as never)).resolves.toBeTruthy();
  }, 30_000);

  it("every operation: a unique operationId, a summary, security, a 2XX and a 4XX; basic auth declared only when required", () => {
    const ids = new Set<string>();
    for (const { path, method, op } of operations(openDoc)) {
      const where = `${method.toUpperCase()} ${path}`;
      expect(op.operationId, where).toMatch(/^[A-Za-z_]\w*$/);
      expect(ids.has(op.operationId!), `${where}: duplicate operationId`).toBe(false);
      ids.add(op.operationId!);
      expect(op.summary, where).toBeTruthy();
      expect(op.security, where).toEqual([{}]);
      const codes = Object.keys(op.responses);
      expect(codes.some((c) => /^2/.test(c)), where).toBe(true);
      expect(codes.some((c) => /^4/.test(c)), where).toBe(true);
      expect(codes, where).toContain("403");
    }
    expect(openDoc.security).toEqual([{}]);
    expect(openDoc.servers?.length).toBeGreaterThan(0);
    expect(lockedDoc.security).toEqual([{ basic: [] }]);
    expect(lockedDoc.components?.securitySchemes?.basic).toMatchObject({ type: "http", scheme: "basic" });
    for (const { op } of operations(lockedDoc)) expect(op.security).toEqual([{ basic: [] }]);
  });

  it("the documented 4XX answers are what the server gives, in the error shape", async () => {
    // 401 without the password, on a contributed route too
    const r401 = await locked.api<{ error: { code: string; message: string } }>("GET", "/session/x/todos");
    expect(r401.status).toBe(401);
    expect(r401.body.error.code).toBe("unauthorized");
    // 403 for a browser page's cross-site request
    const r403 = await open.api<{ error: { code: string } }>("GET", "/mcp", undefined, { origin: "https://evil.example" });
    expect(r403).toMatchObject({ status: 403, body: { error: { code: "forbidden_origin" } } });
    // 400 for a body that does not match its schema
    const r400 = await open.api<{ error: { code: string; path: string } }>("POST", "/session", { model: 42 });
    expect(r400).toMatchObject({ status: 400, body: { error: { code: "invalid_request", path: "body/model" } } });
  });

  it("a session another process holds is 409 session_busy in the error shape, on a contributed route with its own 409 too", async () => {
    // both servers share one data dir: a session the open one holds is busy for the locked one
    const s = (await open.api<{ id: string }>("POST", "/session", { model: "scripted/echo" })).body;
    await open.api("POST", `/session/${s.id}/prompt`, { text: "hi" });
    let busy = { status: 0, body: undefined as unknown };
    for (let i = 0; i < 100 && busy.status !== 409; i++) {
      busy = await locked.api("POST", `/session/${s.id}/undo`, {}, basic); // 404 until its first row is stored
      if (busy.status !== 409) await new Promise((r) => setTimeout(r, 100));
    }
    expect(busy).toMatchObject({ status: 409, body: { error: { code: "session_busy" } } });
    expect(await locked.api("GET", `/session/${s.id}/todos`, undefined, basic)).toMatchObject({ status: 409, body: { error: { code: "session_busy" } } });
  });
});
