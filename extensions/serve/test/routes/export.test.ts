/**
 * GET /session/:id/export?format=md|atif on a real kernel, engine, ledger and SQLite storage: the same
 * document `oceancode export` writes (the CLI run as a user would, on the same database), Markdown as
 * text/markdown, ATIF as JSON that conforms to the route's schema and survives Fastify's serializer.
 */
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { REPO_ROOT, runCli } from "../../../../test/kit/cli.js";
import type { EngineService } from "../../../engine/api.js";
import type { LedgerService } from "../../../ledger/api.js";
import type { StorageService } from "../../../storage/api.js";
import { exportRoutes, MARKDOWN_TYPE } from "../../../export/routes.js";
import { agentVersion } from "../../../export/render.js";
import { type JsonSchema, type RouteDefinition } from "../../api.js";
import { isRouteReply } from "../../kit.js";
import { boot, mount, problems, request, routeOf, shutdown, type Booted } from "./helpers.js";

let b: Booted | undefined;
afterEach(async () => {
  await shutdown(b);
  b = undefined;
});

const SCRIPT = JSON.stringify({ steps: [{ tool_calls: [{ name: "read", input: { file_path: "notes.txt" } }] }, { text: "the notes say hello" }] });

async function setup(): Promise<{ routes: RouteDefinition[]; id: string }> {
  b = await boot((sb) => {
    sb.write("notes.txt", "hello\n");
    sb.write("script.json", SCRIPT);
  });
  const storage = await b.kernel.service("storage");
  const ledger = await b.kernel.service("ledger");
  const engine = await b.kernel.service("engine");
  const routes = exportRoutes(() => ({ storage, ledger, engine, agentVersion: agentVersion(path.join(REPO_ROOT, "extensions", "export")) }));
  const s = await b.engine.createSession({ cwd: b.sb.project, model: "scripted/script.json" });
  await b.engine.prompt(s, "what do the notes say?");
  return { routes, id: s.info.id };
}

const cliExport = (flag: string, id: string) => runCli(["--home", b!.sb.home, "--dir", b!.sb.project, "export", flag, id], { env: b!.sb.env, cwd: b!.sb.project });
const undated = (md: string) => md.replace(/^exported: .*$/m, "exported: -");
const jsonSchemaOf = (r: RouteDefinition, media: string): JsonSchema => (r.schema!.response![200]!.content as Record<string, { schema: JsonSchema }>)[media]!.schema;

describe("GET /session/:id/export", () => {
  it("format=md: the CLI's Markdown document, as text/markdown", async () => {
    const { routes, id } = await setup();
    const r = routeOf(routes, "GET", "/session/:id/export");
    const out = await r.handler(request(b!.engine, { params: { id }, query: { format: "md" } }));
    expect(isRouteReply(out)).toBe(true);
    const reply = out as { status: number; body: string; headers: Record<string, string> };
    expect(reply.status).toBe(200);
    expect(reply.headers["content-type"]).toBe(MARKDOWN_TYPE);
    expect(problems(jsonSchemaOf(r, "text/markdown"), reply.body)).toEqual([]);
    expect(reply.body).toContain("what do the notes say?");
    expect(reply.body).toContain("the notes say hello");
    const cli = cliExport("--md", id);
    expect(cli.code, cli.stderr).toBe(0);
    expect(undated(reply.body)).toBe(undated(cli.stdout));
  });

  it("format=atif: the CLI's trajectory, conforming to the route's schema", async () => {
    const { routes, id } = await setup();
    const r = routeOf(routes, "GET", "/session/:id/export");
    const out = await r.handler(request(b!.engine, { params: { id }, query: { format: "atif" } }));
    expect(isRouteReply(out)).toBe(false);
    expect(problems(jsonSchemaOf(r, "application/json"), out)).toEqual([]);
    const cli = cliExport("--atif", id);
    expect(cli.code, cli.stderr).toBe(0);
    expect(out).toEqual(JSON.parse(cli.stdout));
    expect((out as { steps: Array<{ tool_calls?: unknown[] }> }).steps.some((s) => s.tool_calls?.length)).toBe(true);
  });

  it("mounted on Fastify: md is served as text/markdown unchanged, atif as JSON with every key, no format means md; unknown session 404, bad format 400", async () => {
    const { routes, id } = await setup();
    const app = await mount(routes, b!.engine);
    try {
      const md = await app.inject({ method: "GET", url: `/session/${id}/export?format=md` });
      expect(md.statusCode).toBe(200);
      expect(md.headers["content-type"]).toBe(MARKDOWN_TYPE);
      expect(md.body).toMatch(/^---\nsession: "ses_/);
      const plain = await app.inject({ method: "GET", url: `/session/${id}/export` });
      expect(plain.headers["content-type"]).toBe(MARKDOWN_TYPE);
      expect(undated(plain.body)).toBe(undated(md.body));

      const atif = await app.inject({ method: "GET", url: `/session/${id}/export?format=atif` });
      expect(atif.statusCode).toBe(200);
      expect(String(atif.headers["content-type"])).toMatch(/^application\/json/);
      const direct = await routeOf(routes, "GET", "/session/:id/export").handler(request(b!.engine, { params: { id }, query: { format: "atif" } }));
      expect(atif.json()).toEqual(direct);

      const missing = await app.inject({ method: "GET", url: "/session/ses_nope/export?format=md" });
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toMatchObject({ error: { code: "session_not_found" } });
      expect((await app.inject({ method: "GET", url: `/session/${id}/export?format=pdf` })).statusCode).toBe(400);
    } finally {
      await app.close();
    }
  });
});
