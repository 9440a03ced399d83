/**
 * The guide's five hooks routes, repo trust and permission rules over HTTP, through the typed client
 * against a real `oceancode serve`: a hook added with POST /hooks is held until POST /trust/repo trusts
 * the checkout, then runs (its marker file appears); removal edits only the settings files; bad input is a
 * 400 that writes nothing; a cross-site request is refused before it writes trust or rules; a rule added
 * over HTTP applies at once, lands in .oceancode/oceancode.json and never beats a Claude deny; the
 * checkout's own rules cannot be removed from HTTP. No GET answer carries the provider key.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { OceancodeClient } from "../client/index.js";
import { servedOnFake } from "./serve-tests.js";

const MODEL = "anthropic/claude-sonnet-4-5";
const KEY = "sk-ant-canary-hooks-7f3a9c";
let settings: string;
let trustFile: string;

const { fake, sb, srv, api } = servedOnFake({
  prefix: "oc-serve-hooks-",
  env: { ANTHROPIC_API_KEY: KEY },
  setup(sb) {
    // the checkout's own rule (tier repo): denies rm, whatever is added over HTTP
    settings = sb.write(".claude/settings.json", JSON.stringify({ permissions: { deny: ["Bash(rm:*)"] } }, null, 2));
    trustFile = path.join(sb.home, ".oceancode", "trust.json");
  },
});

/** A client whose every request comes from a web page on another site. */
const crossSite = () => new OceancodeClient({ baseUrl: srv.url, fetch: (u, init) => fetch(u, { ...init, headers: { ...(init?.headers as Record<string, string>), origin: "https://evil.example" } }) });

async function promptToDone(id: string, text: string): Promise<void> {
  const stop = new AbortController();
  // the stream connects on its first read: from event 0, so a turn that ends before that is still seen
  const stream = api.sessionEventStream({ id }, { signal: stop.signal, lastEventId: "0" });
  const { turnId } = await api.sessionPrompt({ id, body: { text } });
  for await (const ev of stream) if (ev.event === "turn_done" && (ev.data as { turnId: string }).turnId === turnId) break;
  stop.abort();
}

describe("hooks and trust over HTTP", () => {
  it("add (held until trusted), trust the repo (it runs), remove; every answer is {repo_trusted, sources}", async () => {
    const marker = path.join(sb.project, "hook-ran.txt");
    const added = await api.hooksAdd({ body: { event: "UserPromptSubmit", command: `touch ${marker}`, timeout: 10 } });
    expect(added.repo_trusted).toBe(false);
    const src = added.sources.find((s) => s.path === settings)!;
    expect(src).toMatchObject({ tier: "repo", status: "held: untrusted", shared_with_claude_code: true });
    expect(src.handlers).toEqual([{ event: "UserPromptSubmit", matcher: "", type: "command", command: `touch ${marker}`, timeout: 10 }]);
    // the settings file keeps its other keys
    expect(JSON.parse(fs.readFileSync(settings, "utf8"))).toMatchObject({ permissions: { deny: ["Bash(rm:*)"] }, hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: `touch ${marker}` }] }] } });
    expect(await api.hooksList()).toEqual(added);

    const s = await api.sessionCreate({ body: { model: MODEL } });
    fake.enqueue({ text: "one" }, { text: "two" });
    await promptToDone(s.id, "first");
    expect(fs.existsSync(marker)).toBe(false); // held: the checkout is not trusted

    const trusted = await api.trustRepo({ body: { on: true } });
    expect(trusted.repo_trusted).toBe(true);
    expect(trusted.sources.find((x) => x.path === settings)?.status).toBe("loaded");
    expect(JSON.parse(fs.readFileSync(trustFile, "utf8"))[sb.project]).toMatchObject({ repo: true });
    await promptToDone(s.id, "second");
    expect(fs.existsSync(marker)).toBe(true);

    expect((await api.hooksReload()).repo_trusted).toBe(true);
    const removed = await api.hooksRemove({ body: { path: settings, event: "UserPromptSubmit", matcher: "", target: `touch ${marker}` } });
    expect(removed.sources.find((x) => x.path === settings)?.handlers ?? []).toEqual([]);
    expect(JSON.parse(fs.readFileSync(settings, "utf8")).hooks ?? {}).toEqual({});
    expect((await api.trustRepo({ body: { on: false } })).repo_trusted).toBe(false);
  }, 60_000);

  it("bad input is refused with a clear error and writes nothing", async () => {
    const before = fs.readFileSync(settings, "utf8");
    await expect(api.hooksAdd({ body: { event: "PreToolUse", matcher: "(", command: "true" } })).rejects.toMatchObject({ status: 400, code: "invalid_matcher" });
    await expect(api.hooksAdd({ body: { event: "NoSuchEvent" as "Stop", command: "true" } })).rejects.toMatchObject({ status: 400, code: "invalid_request" });
    await expect(api.hooksRemove({ body: { path: settings, event: "Stop", target: "not-there" } })).rejects.toMatchObject({ status: 404, code: "no_such_handler", message: expect.stringContaining("hooks remove: no such handler") });
    // only the three settings files are edited: another path is refused, and left as it is
    const other = sb.write("notes.json", JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: "command", command: "x" }] }] } }));
    const otherBefore = fs.readFileSync(other, "utf8");
    await expect(api.hooksRemove({ body: { path: other, event: "Stop", target: "x" } })).rejects.toMatchObject({ status: 400, code: "not_a_settings_file" });
    expect(fs.readFileSync(other, "utf8")).toBe(otherBefore);
    // a local settings file that is not JSON is never overwritten
    const local = sb.write(".claude/settings.local.json", "{ not json");
    await expect(api.hooksAdd({ body: { event: "Stop", command: "true", scope: "local" } })).rejects.toMatchObject({ status: 409, code: "settings_file_invalid" });
    expect(fs.readFileSync(local, "utf8")).toBe("{ not json");
    fs.rmSync(local);
    expect(fs.readFileSync(settings, "utf8")).toBe(before);
  });

  it("a cross-site request is refused before it writes trust, hooks or rules", async () => {
    const evil = crossSite();
    const trustBefore = fs.readFileSync(trustFile, "utf8");
    const settingsBefore = fs.readFileSync(settings, "utf8");
    await expect(evil.trustRepo({ body: { on: true } })).rejects.toMatchObject({ status: 403, code: "forbidden_origin" });
    await expect(evil.hooksAdd({ body: { event: "Stop", command: "touch /tmp/evil" } })).rejects.toMatchObject({ status: 403 });
    await expect(evil.permissionRuleAdd({ body: { rule: "bash * allow" } })).rejects.toMatchObject({ status: 403 });
    expect(fs.readFileSync(trustFile, "utf8")).toBe(trustBefore);
    expect(fs.readFileSync(settings, "utf8")).toBe(settingsBefore);
    expect(fs.existsSync(path.join(sb.project, ".oceancode", "oceancode.json"))).toBe(false);
  });
});

describe("permission rules over HTTP", () => {
  const local = () => path.join(sb.project, ".oceancode", "oceancode.json");

  it("add applies at once and is saved in .oceancode/oceancode.json; remove takes it out of both", async () => {
    const first = (await api.permissionCheck({ body: { tool: "bash", subject: "make deploy" } })).action;
    expect(first).not.toBe("deny");
    const added = await api.permissionRuleAdd({ body: { rule: "bash make deploy deny" } });
    expect(added.file).toBe(local());
    expect(added.rules.find((r) => r.rule === "bash make deploy deny")).toMatchObject({ tool: "bash", action: "deny", layer: "project", file: local(), removable: true });
    expect(JSON.parse(fs.readFileSync(local(), "utf8")).permission).toEqual(["bash make deploy deny"]);
    expect(await api.permissionCheck({ body: { tool: "bash", subject: "make deploy" } })).toMatchObject({ action: "deny", rule: "bash make deploy deny" });
    // the same rule twice is one rule
    expect((await api.permissionRuleAdd({ body: { rule: "bash make deploy deny" } })).rules.filter((r) => r.rule === "bash make deploy deny")).toHaveLength(1);

    const removed = await api.permissionRuleRemove({ body: { rule: "bash make deploy deny" } });
    expect(removed.rules.some((r) => r.rule === "bash make deploy deny")).toBe(false);
    expect(JSON.parse(fs.readFileSync(local(), "utf8")).permission).toEqual([]);
    expect((await api.permissionCheck({ body: { tool: "bash", subject: "make deploy" } })).action).toBe(first);
  });

  it("an added allow never beats the checkout's deny, and the checkout's rules cannot be removed from HTTP", async () => {
    await api.permissionRuleAdd({ body: { rule: "bash rm * allow" } });
    expect((await api.permissionCheck({ body: { tool: "bash", subject: "rm -f notes.txt" } })).action).toBe("deny");
    const repoRule = (await api.permissionRules()).rules.find((r) => r.file === settings)!;
    expect(repoRule).toMatchObject({ action: "deny", removable: false });
    const before = fs.readFileSync(settings, "utf8");
    await expect(api.permissionRuleRemove({ body: { rule: repoRule.rule } })).rejects.toMatchObject({ status: 409, code: "rule_not_removable" });
    expect(fs.readFileSync(settings, "utf8")).toBe(before);
    await expect(api.permissionRuleRemove({ body: { rule: "bash never-added * deny" } })).rejects.toMatchObject({ status: 404, code: "rule_not_found" });
    await expect(api.permissionRuleAdd({ body: { rule: "bash git push maybe" } })).rejects.toMatchObject({ status: 400, code: "invalid_rule" });
    await api.permissionRuleRemove({ body: { rule: "bash rm * allow" } });
  });

  it("no GET answer and not the document carries the provider key", async () => {
    const s = await api.sessionCreate({ body: { model: MODEL } });
    const answers = [await api.hooksList(), await api.permissionRules(), await api.sessionList(), await api.sessionGet({ id: s.id }), await api.openapi()];
    for (const a of answers) expect(JSON.stringify(a)).not.toContain(KEY);
  });
});
