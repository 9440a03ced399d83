/**
 * The capabilities picker in a real terminal against the fake Anthropic server: Space on a skill in
 * /skills writes its stable id to ~/.oceancode/skill-state.json and the next request's <available_skills>
 * no longer lists it; Space on an oceancode-store plugin in /plugins drops that plugin's skill from the
 * next request. Both land mid-session, without a restart.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Sandbox } from "../../../test/kit/cli.js";
import { hasTmux, type Pty, askRecorded } from "../../../test/kit/pty.js";
import { systemOf, type AnthropicRecorded, type FakeAnthropicServer } from "../../../test/kit/fakes/anthropic-server.js";
import { pagerTests } from "../../../test/kit/pager-tests.js";

const { makeSandbox, openPagerOnFake, startFakeAnthropic } = pagerTests();
let sb: Sandbox | undefined;
let t: Pty | undefined;
let fake: FakeAnthropicServer | undefined;

const listed = (req: AnthropicRecorded): string[] =>
  (/<available_skills>\n([\s\S]*?)\n<\/available_skills>/.exec(systemOf(req))?.[1] ?? "")
    .split("\n")
    .filter((l) => l.startsWith("- "))
    .map((l) => l.slice(2).split(": ")[0]!);

async function open(): Promise<Pty> {
  fake = await startFakeAnthropic();
  fake.respond(() => ({ text: "done here" }));
  const p = openPagerOnFake(sb!, fake.url);
  await p.waitFor("❯");
  return p;
}

/** Send a prompt and wait for its answer; the request the fake server recorded for it. */
const ask = (p: Pty, text: string, n: number): Promise<AnthropicRecorded> => askRecorded(p, fake!.requests, text, n, /done here/);

describe.skipIf(!hasTmux())("pager: the capabilities picker", () => {
  it("/skills: Space on a skill disables it for the next request and stores its stable id", async () => {
    sb = makeSandbox("oc-pty-caps-");
    sb.write(".oceancode/skills/alpha/SKILL.md", "---\ndescription: the alpha skill\n---\nA\n");
    sb.write(".oceancode/skills/beta/SKILL.md", "---\ndescription: the beta skill\n---\nB\n");
    t = await open();
    expect(listed(await ask(t, "first", 1))).toEqual(["alpha", "beta"]);
    t.send("/skills");
    t.key("Enter");
    await t.waitFor("Everything", 20_000);
    await t.waitFor("skills 2/2");
    // rows: Everything, Local, alpha, beta
    t.key("Down");
    t.key("Down");
    t.send(" ");
    await t.waitFor(/\[ \] alpha\s+disabled \(user\)\s+the alpha skill/, 20_000);
    expect(t.screen()).toContain("skills 1/2");
    t.key("Escape");
    await t.waitGone("Everything", 20_000);
    expect(listed(await ask(t, "second", 2))).toEqual(["beta"]);
    const state = JSON.parse(fs.readFileSync(path.join(sb.home, ".oceancode", "skill-state.json"), "utf8")) as { disabled: string[] };
    expect(state.disabled).toEqual(["local.ocean_code:alpha"]);
  }, 120_000);

  it("/plugins: Space on an oceancode-store plugin drops its skill from the next request", async () => {
    sb = makeSandbox("oc-pty-caps-");
    sb.write(".oceancode/skills/alpha/SKILL.md", "---\ndescription: the alpha skill\n---\nA\n");
    const dir = path.join(sb.home, "plugin-src", "pk");
    sb.write("plugin-src/pk/skills/pskill/SKILL.md", "---\ndescription: the plugin's skill\n---\nP\n", "home");
    sb.write(".oceancode/plugins/installed.json", JSON.stringify({ plugins: [{ name: "pk", path: dir, enabled: true }] }), "home");
    t = await open();
    expect(listed(await ask(t, "first", 1))).toEqual(["alpha", "pk:pskill"]);
    t.send("/plugins");
    t.key("Enter");
    await t.waitFor("OceanCode", 20_000);
    await t.waitFor(/\[x\] pk\s+unversioned\s+untrusted/);
    // rows: Everything, OceanCode, pk
    t.key("Down");
    t.key("Down");
    t.send(" ");
    await t.waitFor(/\[ \] pk\s+unversioned/, 20_000);
    expect(t.screen()).toContain("skills 1/2 · plugins 0/1");
    t.key("Escape");
    await t.waitGone("OceanCode", 20_000);
    expect(listed(await ask(t, "second", 2))).toEqual(["alpha"]);
    const installed = JSON.parse(fs.readFileSync(path.join(sb.home, ".oceancode", "plugins", "installed.json"), "utf8")) as { plugins: Array<{ enabled: boolean }> };
    expect(installed.plugins[0]!.enabled).toBe(false);
  }, 120_000);
});
