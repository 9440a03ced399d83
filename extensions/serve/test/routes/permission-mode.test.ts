/**
 * GET/POST /session/:id/permission-mode (and the guide's /api/session/:id/permission/mode) on a real
 * kernel, engine and SQLite storage: the switch is live (the next tool call is decided in the new mode),
 * stored (a reopen keeps it), and a signed requirements lock downgrades bypassPermissions with a note.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Sandbox } from "../../../../test/kit/cli.js";
import type { Session, ToolRow } from "../../../engine/api.js";
import type { PermissionsService } from "../../../permissions/api.js";
import { permissionRoutes } from "../../../permissions/routes.js";
import type { RouteDefinition } from "../../api.js";
import { boot, mount, problems, request, routeOf, shutdown, type Booted } from "./helpers.js";
import { signRequirements } from "../../../../test/kit/requirements.js";

let b: Booted | undefined;
afterEach(async () => {
  await shutdown(b);
  b = undefined;
});

const WRITE_SCRIPT = JSON.stringify({ steps: [{ tool_calls: [{ name: "write", input: { file_path: "out.txt", content: "hello" } }] }, { text: "finished" }] });

async function setup(extra?: (sb: Sandbox) => NodeJS.ProcessEnv | void): Promise<{ routes: RouteDefinition[]; permissions: PermissionsService }> {
  b = await boot((sb) => {
    sb.write(".oceancode/oceancode.json", JSON.stringify({ permission_mode: "acceptEdits" }));
    sb.write("script.json", WRITE_SCRIPT);
    return extra?.(sb);
  });
  const permissions = await b.kernel.service("permissions");
  const storage = await b.kernel.service("storage");
  return { routes: permissionRoutes(permissions, () => storage), permissions };
}

async function call(routes: RouteDefinition[], method: "GET" | "POST", url: string, id: string, body?: unknown): Promise<unknown> {
  const r = routeOf(routes, method, url);
  if (body !== undefined) expect(problems(r.schema!.body!, body)).toEqual([]);
  const out = await r.handler(request(b!.engine, { params: { id }, body }));
  expect(problems(r.schema!.response![200]!, out)).toEqual([]);
  return out;
}

function lastToolRow(s: Session): ToolRow {
  const rows = s.rows.filter((r): r is ToolRow => r.role === "tool");
  return rows[rows.length - 1]!;
}

describe("permission mode routes", () => {
  it("GET answers the configured mode; POST switches it live for the next tool call and stores it, so a reopen keeps it", async () => {
    const { routes, permissions } = await setup();
    const { engine, sb } = b!;
    const s = await engine.createSession({ cwd: sb.project, model: "scripted/script.json" });
    expect(await call(routes, "GET", "/session/:id/permission-mode", s.info.id)).toEqual({ mode: "acceptEdits" });

    expect(await call(routes, "POST", "/session/:id/permission-mode", s.info.id, { mode: "plan" })).toEqual({ mode: "plan" });
    expect(permissions.modeOf(s.info.overrides)).toBe("plan");
    expect(await call(routes, "GET", "/api/session/:id/permission/mode", s.info.id)).toEqual({ mode: "plan" });

    // plan mode denies the write the configured acceptEdits would have allowed
    await engine.prompt(s, "write it");
    expect(fs.existsSync(path.join(sb.project, "out.txt"))).toBe(false);
    expect(lastToolRow(s).results[0]!.isError).toBe(true);

    await engine.closeSession(s, "exit");
    const again = await engine.openSession(s.info.id);
    expect(again.info.overrides.permission_mode).toBe("plan");
    expect(await call(routes, "GET", "/session/:id/permission-mode", s.info.id)).toEqual({ mode: "plan" });

    // a switch is stored at once, not at the next turn's end or close (a crash or another reader sees it)
    await call(routes, "POST", "/session/:id/permission-mode", s.info.id, { mode: "default" });
    const storage = await b!.kernel.service("storage");
    await storage.settle();
    expect((await storage.loadSession(s.info.id))!.info.overrides.permission_mode).toBe("default");
  });

  it("without a switch the configured mode decides (the control: the same write is allowed)", async () => {
    await setup();
    const { engine, sb } = b!;
    const s = await engine.createSession({ cwd: sb.project, model: "scripted/script.json" });
    await engine.prompt(s, "write it");
    expect(fs.readFileSync(path.join(sb.project, "out.txt"), "utf8")).toBe("hello");
  });

  it("a switch made before the first prompt is kept once the session is stored", async () => {
    const { routes } = await setup();
    const { engine, sb } = b!;
    const s = await engine.createSession({ cwd: sb.project, model: "scripted/echo" });
    await call(routes, "POST", "/api/session/:id/permission/mode", s.info.id, { mode: "dontAsk" });
    await engine.prompt(s, "hi");
    await engine.closeSession(s, "exit");
    expect((await engine.openSession(s.info.id)).info.overrides.permission_mode).toBe("dontAsk");
  });

  it("signed requirements that disable bypassPermissions: POST downgrades to default and says why; GET keeps saying it", async () => {
    const { routes, permissions } = await setup((sb) => ({ OC_REQUIREMENTS_PUBKEY: signRequirements(sb, { permissions: { disableBypassPermissionsMode: true } }) }));
    const { engine, sb } = b!;
    const s = await engine.createSession({ cwd: sb.project, model: "scripted/echo" });
    const r = (await call(routes, "POST", "/session/:id/permission-mode", s.info.id, { mode: "bypassPermissions" })) as { mode: string; note?: string };
    expect(r.mode).toBe("default");
    expect(r.note).toMatch(/^bypassPermissions is disabled by .*requirements\.json; using default$/);
    expect(permissions.modeOf(s.info.overrides)).toBe("default");
    // an override stored before the lock (or written by hand) is downgraded on read, with the note
    s.info.overrides.permission_mode = "bypassPermissions";
    expect(await call(routes, "GET", "/session/:id/permission-mode", s.info.id)).toEqual(r);
  });

  it("mounted on Fastify: unknown session 404, a bad mode 400 from the body schema, both spellings answer, four operationIds in OpenAPI", async () => {
    const { routes } = await setup();
    const { engine, sb } = b!;
    const app = await mount(routes, engine);
    try {
      const s = await engine.createSession({ cwd: sb.project, model: "scripted/echo" });
      const missing = await app.inject({ method: "GET", url: "/session/ses_nope/permission-mode" });
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toMatchObject({ error: { code: "session_not_found" } });

      const bad = await app.inject({ method: "POST", url: `/session/${s.info.id}/permission-mode`, payload: { mode: "yolo" } });
      expect(bad.statusCode).toBe(400);
      expect(s.info.overrides.permission_mode).toBeUndefined();

      const set = await app.inject({ method: "POST", url: `/api/session/${s.info.id}/permission/mode`, payload: { mode: "plan" } });
      expect(set.statusCode).toBe(200);
      expect(set.json()).toEqual({ mode: "plan" });
      const get = await app.inject({ method: "GET", url: `/session/${s.info.id}/permission-mode` });
      expect(get.json()).toEqual({ mode: "plan" });

      const ops = Object.values(app.openapi().paths ?? {}).flatMap((p) => Object.values(p).map((o) => o.operationId));
      expect(ops.sort()).toEqual(["permissionModeGet", "permissionModeGetApi", "permissionModeSet", "permissionModeSetApi"]);
    } finally {
      await app.close();
    }
  });
});
