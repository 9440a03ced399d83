/**
 * The capability, config, provider, auth, doctor and log routes through the typed client against a real
 * `oceancode serve` child: agents, skills (and turning one off), slash commands, plugins, providers and
 * the model catalogue, doctor's checks as JSON, the log tail's stream; the effective config with its
 * provenance, PATCH of the user file (comments kept, a bad value refused naming the key path, nothing
 * written) and of a git-tracked project file (a widening rule refused, a deny rule taken); auth status
 * and a stored key that never comes back: the canary is in auth.json (mode 0600) and in no GET answer,
 * nor in /doc. Writing routes refuse a cross-site page and a rebinding Host, and the file is untouched.
 */
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeSandbox, REPO_ROOT, type Sandbox } from "../../../test/kit/cli.js";
import { OceancodeClient } from "../client/index.js";
import { startServe, type Served } from "./serve-helpers.js";

const CANARY = "sk-canary-api-b-7f3e9c1d";
const ENV_CANARY = "sk-env-canary-2b8a44e0";
let sb: Sandbox;
let srv: Served;
let api: OceancodeClient;
let userFile: string;
let projectFile: string;

/** A request with exactly these headers (fetch will not send a Host of its own choosing). */
function raw(method: string, urlPath: string, body: unknown, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const data = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port: srv.port, method, path: urlPath, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(data), ...headers }, timeout: 10_000 }, (res) => {
      let text = "";
      res.on("data", (d: Buffer) => (text += d.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on("error", reject);
    req.on("timeout", () => req.destroy(new Error("timed out")));
    req.end(data);
  });
}

const git = (...args: string[]) => {
  const r = spawnSync("git", ["-C", sb.project, "-c", "user.name=t", "-c", "user.email=t@t.invalid", ...args], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
};

beforeAll(async () => {
  sb = makeSandbox("oc-serve-apib-");
  userFile = sb.write(".config/oceancode/oceancode.json", '{\n  // the user\'s own limit\n  "engine": { "max_steps": 42 }\n}\n', "home");
  sb.write(".claude/agents/reviewer.md", "---\nname: reviewer\ndescription: the user's reviewer\n---\nUSER REVIEWER BODY\n", "home");
  sb.write(".claude/skills/tidy/SKILL.md", "---\nname: tidy\ndescription: tidy the imports\nargument-hint: <file>\n---\nTIDY $ARGUMENTS\n", "home");
  // the checkout's own config: tracked by git, so the repo tier
  projectFile = sb.write(".oceancode/oceancode.json", '{ "permission": ["bash git push * ask"], "engine": { "max_retries": 9 } }\n');
  git("add", ".oceancode/oceancode.json");
  git("commit", "-q", "-m", "project config");
  srv = await startServe(["--directory", sb.project], { env: { ...sb.env, ANTHROPIC_API_KEY: ENV_CANARY } });
  api = new OceancodeClient({ baseUrl: srv.url });
}, 60_000);
afterAll(async () => {
  await srv?.stop("SIGKILL");
  sb?.cleanup();
});

describe("capabilities over HTTP", () => {
  it("agents, skills (off and on), slash commands, plugins", async () => {
    const agents = (await api.agentList()).agents;
    expect(agents.map((a) => a.qualifiedName)).toEqual(expect.arrayContaining(["reviewer", "general-purpose"]));
    expect(agents.find((a) => a.name === "reviewer")).toMatchObject({ tier: "user", description: "the user's reviewer", invocable: true, trusted: true });
    // the body is the child's system prompt: not part of a listing
    expect(JSON.stringify(agents)).not.toContain("USER REVIEWER BODY");

    const tidy = () => api.skillList().then((r) => r.skills.find((s) => s.name === "tidy"));
    expect(await tidy()).toMatchObject({ kind: "skill", enabled: true, argumentHint: "<file>", userInvocable: true });
    const off = await api.skillEnable({ name: "tidy", body: { on: false } });
    expect(off.changed).toHaveLength(1);
    expect(await tidy()).toMatchObject({ enabled: false, reason: "disabled (user)" });
    expect(fs.readFileSync(path.join(sb.home, ".oceancode", "skill-state.json"), "utf8")).toContain(off.changed[0]);
    await expect(api.skillEnable({ name: "no-such-skill", body: { on: true } })).rejects.toMatchObject({ status: 404, code: "skill_not_found" });
    await api.skillEnable({ name: off.changed[0]!, body: { on: true } });
    expect((await tidy())?.enabled).toBe(true);

    const commands = (await api.commandList()).commands;
    expect(commands.find((c) => c.name === "undo")).toMatchObject({ source: "checkpoints", usage: "/undo" });
    expect(commands.find((c) => c.name === "tidy")).toMatchObject({ source: "skill", usage: "/tidy <file>", summary: "tidy the imports" });

    expect((await api.pluginList()).plugins).toEqual([]);
    await expect(api.pluginEnable({ name: "ghost", body: { on: true } })).rejects.toMatchObject({ status: 404, code: "plugin_not_found" });
  });

  it("providers and the model catalogue, without loading a provider", async () => {
    const providers = (await api.providerList()).providers;
    expect(providers.find((p) => p.id === "anthropic")).toMatchObject({ extension: "anthropic", loaded: false });
    expect(providers.find((p) => p.id === "openai")?.models).toBeGreaterThan(0);
    const cat = await api.modelList();
    expect(cat.default).toMatch(/^anthropic\//);
    const sonnet = cat.models.find((m) => m.aliases.includes("sonnet"));
    expect(sonnet?.id).toMatch(/^anthropic\/claude-sonnet/);
    // the figures come from the manifest's catalogue entry: no provider had to load for them
    expect(sonnet).toMatchObject({ catalogued: true, contextWindow: 1_000_000, maxOutputTokens: 64_000, price: { input: 3, output: 15 }, tools: true, images: true });
    expect((await api.providerList()).providers.find((p) => p.id === "anthropic")?.loaded).toBe(false);
  });

  it("doctor's checks as JSON; the log tail is an SSE stream", async () => {
    const d = await api.doctor();
    expect(d.ok).toBe(true);
    expect(d.problems).toBe(0);
    expect(d.checks.some((c) => c.check.startsWith("config global") && c.check.includes(userFile))).toBe(true);
    const res = await fetch(`${srv.url}/log?recent=5`, { headers: { accept: "text/event-stream" }, signal: AbortSignal.timeout(10_000) });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain(": log tail");
    await reader.cancel();
  });
});

describe("config over HTTP", () => {
  it("the effective config with provenance, as inspect shows it", async () => {
    const c = await api.configGet();
    expect(c.keys.find((k) => k.key === "engine.max_steps")).toMatchObject({ value: 42, layer: "global", source: userFile });
    expect(c.keys.find((k) => k.key === "engine.max_retries")).toMatchObject({ value: 4, layer: "default", source: "(built-in)" });
    expect(c.files).toEqual({ user: userFile, project: projectFile });
    // the tracked project file's ask rule is admitted (an untrusted layer may add asks and denies), its retries held
    expect(c.held).toEqual([{ key: "engine.max_retries", file: projectFile }]);
    expect(c.keys.find((k) => k.key === "permission")).toMatchObject({ layer: "project", source: projectFile });
  });

  it("PATCH the user file: validated against the schema (the key path named, nothing written), comments kept", async () => {
    const before = fs.readFileSync(userFile, "utf8");
    await expect(api.configPatch({ body: { scope: "user", set: { "engine.max_steps": "many" } } })).rejects.toMatchObject({ status: 400, code: "invalid_config", message: expect.stringContaining("engine.max_steps: expected integer") });
    await expect(api.configPatch({ body: { scope: "user", set: { "nosuchsection.x": 1 } } })).rejects.toMatchObject({ status: 400, code: "unknown_config_key", message: expect.stringContaining("nosuchsection.x") });
    await expect(api.configPatch({ body: { scope: "user", set: { "engine.no_such_key": 1 } } })).rejects.toMatchObject({ status: 400, code: "unknown_config_key", message: expect.stringContaining("engine.no_such_key") });
    // the error body names the key path beside the message
    const rawBad = await srv.api<{ error: { path?: string } }>("PATCH", "/config", { scope: "user", set: { "engine.max_steps": -1 } });
    expect(rawBad.status).toBe(400);
    expect(rawBad.body.error.path).toBe("engine.max_steps");
    expect(fs.readFileSync(userFile, "utf8")).toBe(before);
    const ok = await api.configPatch({ body: { scope: "user", set: { "engine.max_steps": 77, "engine.idle_minutes": 5 } } });
    expect(ok).toEqual({ scope: "user", file: userFile, keys: ["engine.max_steps", "engine.idle_minutes"], applies: "next_start" });
    const text = fs.readFileSync(userFile, "utf8");
    expect(text).toContain("// the user's own limit");
    expect(text).toMatch(/"max_steps": 77/);
    expect(text).toMatch(/"idle_minutes": 5/);
    await api.configPatch({ body: { scope: "user", set: { "engine.idle_minutes": null } } });
    expect(fs.readFileSync(userFile, "utf8")).not.toContain("idle_minutes");
  });

  it("PATCH a git-tracked project file: a widening key refused, a deny rule taken", async () => {
    const before = fs.readFileSync(projectFile, "utf8");
    await expect(api.configPatch({ body: { scope: "project", set: { permission: ["bash git push * ask", "bash * allow"] } } })).rejects.toMatchObject({ status: 403, code: "config_key_not_allowed", message: expect.stringContaining("bash * allow") });
    await expect(api.configPatch({ body: { scope: "project", set: { "engine.max_steps": 100000 } } })).rejects.toMatchObject({ status: 403, code: "config_key_not_allowed", message: expect.stringContaining("engine.max_steps") });
    expect(fs.readFileSync(projectFile, "utf8")).toBe(before);
    await api.configPatch({ body: { scope: "project", set: { permission: ["bash git push * ask", "bash rm * deny"] } } });
    expect(JSON.parse(fs.readFileSync(projectFile, "utf8"))).toEqual({ permission: ["bash git push * ask", "bash rm * deny"], engine: { max_retries: 9 } });
  });

  it("writing routes refuse a cross-site page and a rebinding Host: the files are untouched", async () => {
    const user = fs.readFileSync(userFile, "utf8");
    for (const headers of [{ origin: "https://evil.example" }, { host: "rebind.evil.example" }, { origin: "null" }]) {
      const patch = await raw("PATCH", "/config", { scope: "user", set: { "engine.max_steps": 1 } }, headers);
      expect(patch.status).toBe(403);
      expect(JSON.parse(patch.body)).toMatchObject({ error: { code: "forbidden_origin" } });
      expect((await raw("POST", "/auth/openai", { key: "sk-from-a-web-page" }, headers)).status).toBe(403);
      expect((await raw("POST", "/skill/tidy/enable", { on: false }, headers)).status).toBe(403);
    }
    expect(fs.readFileSync(userFile, "utf8")).toBe(user);
    expect(fs.existsSync(path.join(sb.home, ".local", "share", "oceancode", "auth.json"))).toBe(false);
    expect((await api.skillList()).skills.find((s) => s.name === "tidy")?.enabled).toBe(true);
  });
});

describe("auth over HTTP", () => {
  it("status says which providers have a key and from where; a stored key is never answered back", async () => {
    const before = (await api.authStatus()).providers;
    expect(before.find((p) => p.provider === "anthropic")).toEqual({ provider: "anthropic", configured: true, source: "env", variable: "ANTHROPIC_API_KEY" });
    expect(before.find((p) => p.provider === "openai")).toEqual({ provider: "openai", configured: false, variable: "OPENAI_API_KEY" });
    await expect(api.authSetKey({ provider: "nosuch", body: { key: CANARY } })).rejects.toMatchObject({ status: 404, code: "unknown_provider" });
    // a cloud provider's credentials come from its own chain: nothing is stored for it
    await expect(api.authSetKey({ provider: "bedrock", body: { key: CANARY } })).rejects.toMatchObject({ status: 400, code: "no_key_taken" });
    await expect(api.authSetKey({ provider: "openai", body: { key: "has a space" } })).rejects.toMatchObject({ status: 400, code: "invalid_key" });
    const stored = await api.authSetKey({ provider: "openai", body: { key: CANARY } });
    expect(stored).toEqual({ provider: "openai", configured: true, source: "auth.json", variable: "OPENAI_API_KEY" });
    // the env var still wins for anthropic; storing one there says so
    expect((await api.authSetKey({ provider: "anthropic", body: { key: `${CANARY}-a` } })).note).toContain("ANTHROPIC_API_KEY");
    const ex = spawnSync(process.execPath, [path.join(REPO_ROOT, "examples", "serve", "workspace.mjs"), "status"], { env: { ...sb.env, OC_URL: srv.url }, encoding: "utf8", timeout: 20_000 });
    expect(ex.status, ex.stderr).toBe(0);
    expect(ex.stdout).toMatch(/openai\s+key from auth\.json/);
    expect(ex.stdout).toContain("doctor: ok");
    expect(ex.stdout).not.toContain(CANARY);
    const { file } = await api.authStatus();
    expect(fs.readFileSync(file, "utf8")).toContain(CANARY);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);

    // every GET answer and the OpenAPI document: neither canary anywhere
    const answers = await Promise.all([
      api.authStatus(),
      api.configGet(),
      api.providerList(),
      api.modelList(),
      api.agentList(),
      api.skillList(),
      api.commandList(),
      api.pluginList(),
      api.doctor(),
      api.health(),
      api.fileList({}),
      api.fileFind({ query: "auth" }),
      fetch(`${srv.url}/doc`).then((r) => r.text()),
    ]);
    const all = JSON.stringify(answers);
    expect(all).toContain("OPENAI_API_KEY");
    expect(all).not.toContain(CANARY);
    expect(all).not.toContain(ENV_CANARY);
    expect(srv.stderr()).not.toContain(CANARY);

    // forgetting it: gone from auth.json; the anthropic env key is the environment's and stays in force
    expect(await api.authRemoveKey({ provider: "openai" })).toEqual({ provider: "openai", configured: false, variable: "OPENAI_API_KEY", removed: true });
    expect(fs.readFileSync(file, "utf8")).not.toContain(`"${CANARY}"`);
    expect(await api.authRemoveKey({ provider: "anthropic" })).toMatchObject({ configured: true, source: "env", removed: true });
    expect((await api.authRemoveKey({ provider: "openai" })).removed).toBe(false);
  });
});
