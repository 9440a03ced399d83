/**
 * The contributions through the kernel, as the serve host sees them: the serve extension's route
 * registry records what each extension adds from its activate(). Checks the manifests' declarations (optional "routes", export's onEvent:serve:routes), that
 * ids and paths are unique across extensions, and that the registered handlers read their own config.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { Sandbox } from "../../../../test/kit/cli.js";
import type { RegisteredRoute, RouteRegistry } from "../../api.js";
import { boot, problems, request, shutdown, type Booted } from "./helpers.js";

let b: Booted | undefined;
afterEach(async () => {
  await shutdown(b);
  b = undefined;
});

function withConfig(sb: Sandbox): void {
  sb.write(".oceancode/oceancode.json", JSON.stringify({ subagent: { model: "openai/gpt-5-mini" }, permission_mode: "acceptEdits" }));
}

const contributed = async (): Promise<RegisteredRoute[]> => (await b!.kernel.service("routes")).list().filter((r) => r.owner !== "serve");

describe("routes contributed through the kernel", () => {
  it("a session's activation adds every extension's routes once, each owned by its extension", async () => {
    b = await boot(withConfig);
    const routes = await contributed();
    const byOwner = (owner: string) => routes.filter((r) => r.owner === owner).map((r) => `${r.method} ${r.url}`).sort();
    expect(byOwner("permissions")).toEqual([
      "GET /api/session/:id/permission/mode",
      "GET /permission/rules",
      "GET /session/:id/permission-mode",
      "POST /api/session/:id/permission/mode",
      "POST /permission/check",
      "POST /permission/rules",
      "POST /permission/rules/remove",
      "POST /session/:id/permission-mode",
    ]);
    expect(byOwner("hooks")).toEqual(["GET /hooks", "POST /hooks", "POST /hooks/reload", "POST /hooks/remove", "POST /trust/repo"]);
    expect(byOwner("tideline")).toEqual(["GET /session/:id/meter", "GET /session/:id/tideline"]);
    expect(byOwner("agents")).toEqual(["GET /agent", "GET /session/:id/subagent"]);
    expect(byOwner("export")).toEqual(["GET /session/:id/export"]);
    expect(byOwner("mcp")).toContain("GET /mcp");
    expect(new Set(routes.map((r) => r.operationId)).size).toBe(routes.length);
  });

  it("the registered handlers answer from the extensions' own config: subagent.model and permission_mode", async () => {
    b = await boot(withConfig);
    const routes = await contributed();
    const find = (m: string, u: string) => routes.find((r) => r.method === m && r.url === u)!;
    const s = await b.engine.createSession({ cwd: b.sb.project, model: "scripted/echo" });
    const params = { id: s.info.id };

    const sub = find("GET", "/session/:id/subagent");
    const model = await sub.handler(request(b.engine, { params }));
    expect(model).toEqual({ model: { provider: "openai", model: "gpt-5-mini", id: "openai/gpt-5-mini" } });
    expect(problems(sub.schema!.response![200]!, model)).toEqual([]);

    expect(await find("GET", "/session/:id/permission-mode").handler(request(b.engine, { params }))).toEqual({ mode: "acceptEdits" });
    expect(await find("POST", "/session/:id/permission-mode").handler(request(b.engine, { params, body: { mode: "plan" } }))).toEqual({ mode: "plan" });
    expect(s.info.overrides.permission_mode).toBe("plan");

    await b.engine.prompt(s, "hi");
    const md = (await find("GET", "/session/:id/export").handler(request(b.engine, { params, query: { format: "md" } }))) as { body: string };
    expect(md.body).toContain("ok: hi");
  });
});
