/**
 * GET /session/:id/subagent on a real kernel and engine: the session's effective sub-agent model (its
 * override, else subagent.model config, else its own model) as a ModelRef, and the children really run on it.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { Sandbox } from "../../../../test/kit/cli.js";
import type { Session } from "../../../engine/api.js";
import type { StorageService } from "../../../storage/api.js";
import type { ModelRef } from "../../../agents/api.js";
import fs from "node:fs";
import path from "node:path";
import { agentRoutes } from "../../../agents/routes.js";
import { modelAliases } from "../../../agents/resolve.js";
import type { ModelNameEntry } from "../../../engine/api.js";
import { boot, mount, problems, request, routeOf, shutdown, type Booted } from "./helpers.js";

let b: Booted | undefined;
afterEach(async () => {
  await shutdown(b);
  b = undefined;
});

const withConfig = (model: string) => (sb: Sandbox) => void sb.write(".oceancode/oceancode.json", JSON.stringify({ subagent: { model } }));

/** The aliases the agents extension reads: the first-party provider manifests' contributions, as the kernel hands them over. */
function firstPartyAliases() {
  const manifests = ["anthropic", "openai", "scripted"].map((id) => ({ id, m: JSON.parse(fs.readFileSync(path.join("extensions", id, "manifest.json"), "utf8")) as { contributes: { providers?: string[]; models?: ModelNameEntry[] } } }));
  const of = <T,>(k: "providers" | "models") => manifests.map(({ id, m }) => ({ extension: id, tier: "bundled" as const, value: (m.contributes[k] ?? []) as T }));
  return modelAliases(of<string[]>("providers"), of<ModelNameEntry[]>("models"));
}

/** The route as the extension builds it, reading the config value the kernel resolved for it. */
async function subagentOf(s: Session, configured: unknown): Promise<{ model: ModelRef | null }> {
  const r = routeOf(agentRoutes(() => configured, firstPartyAliases()), "GET", "/session/:id/subagent");
  const out = await r.handler(request(b!.engine, { params: { id: s.info.id } }));
  expect(problems(r.schema!.response![200]!, out)).toEqual([]);
  return out as { model: ModelRef | null };
}

describe("GET /session/:id/subagent", () => {
  it("no override, no config: the session's own model", async () => {
    b = await boot();
    const s = await b.engine.createSession({ cwd: b.sb.project, model: "scripted/echo" });
    expect(await subagentOf(s, undefined)).toEqual({ model: { provider: "scripted", model: "echo", id: "scripted/echo" } });
  });

  it("subagent.model config: an alias lands on the session's provider, a provider/model id as written; the override beats it", async () => {
    b = await boot();
    const s = await b.engine.createSession({ cwd: b.sb.project, model: "anthropic/claude-sonnet-4-6" });
    expect(await subagentOf(s, "haiku")).toEqual({ model: { provider: "anthropic", model: "claude-haiku-4-5", id: "anthropic/claude-haiku-4-5" } });
    expect((await subagentOf(s, "openai/gpt-5-mini")).model?.id).toBe("openai/gpt-5-mini");
    s.info.overrides.subagent = "opus";
    expect((await subagentOf(s, "openai/gpt-5-mini")).model?.id).toBe("anthropic/claude-opus-4-8");
  });

  it("a child whose agent names no model runs on subagent.model from the config files", async () => {
    b = await boot((sb) => {
      withConfig("scripted/child.json")(sb);
      sb.write("child.json", JSON.stringify({ steps: [{ text: "child done" }] }));
      const call = { name: "agent", input: { subagent_type: "general-purpose", description: "say hi", prompt: "say hi" } };
      sb.write("parent.json", JSON.stringify({ steps: [{ tool_calls: [call] }, { text: "parent done" }] }));
    });
    const s = await b.engine.createSession({ cwd: b.sb.project, model: "scripted/parent.json" });
    await b.engine.prompt(s, "delegate");
    const storage = await b.kernel.service("storage");
    await storage.settle();
    const children = (await storage.listSessions({})).filter((x) => x.parentId === s.info.id);
    expect(children.map((c) => c.model)).toEqual(["scripted/child.json"]);
  });

  it("mounted on Fastify: the ModelRef survives serialization; an unknown session is 404", async () => {
    b = await boot();
    const app = await mount(agentRoutes(() => "anthropic/claude-haiku-4-5"), b.engine);
    try {
      const s = await b.engine.createSession({ cwd: b.sb.project, model: "scripted/echo" });
      const res = await app.inject({ method: "GET", url: `/session/${s.info.id}/subagent` });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ model: { provider: "anthropic", model: "claude-haiku-4-5", id: "anthropic/claude-haiku-4-5" } });
      expect((await app.inject({ method: "GET", url: "/session/ses_nope/subagent" })).statusCode).toBe(404);
    } finally {
      await app.close();
    }
  });
});
