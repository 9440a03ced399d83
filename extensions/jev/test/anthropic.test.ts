/**
 * Points 2, 5 and 6 through the real Anthropic SDK against the fake Anthropic server: in shadow the
 * Messages API bodies are identical to the layer off; in act the body's `tools`, its system text's
 * `<available_skills>` and the tool_result the model reads carry exactly the change.
 */
import { afterEach, describe, expect, it } from "vitest";
import { startFakeAnthropic, type FakeAnthropic } from "../../../test/kit/fakes/anthropic-server.js";
import { startFakeSystemOne, type FakeSystemOne } from "../../../test/kit/fakes/systemone-server.js";
import { anthropicEnv } from "../../../test/kit/cli.js";
import { installOutput } from "../points/output.js";
import { installSkills } from "../points/skills.js";
import { CORE_TOOLS, TOOL_SEARCH, installToolTiers } from "../points/tool-tiers.js";
import type { ToolDefinition } from "../../engine/api.js";
import { bootPoints, testJev, type Booted, type TestJev } from "./points-helpers.js";

const MODEL = "anthropic/claude-opus-4-7";
const EXTRA = ["web_fetch", "web_search", "db_query", "db_migrate", "bench_run", "pdf_read"];
const SKILLS = ["tdd", "release-notes", "changelog", "db-migrations", "perf-bench"];
const FILES: Record<string, string> = {
  ...Object.fromEntries(SKILLS.map((n) => [`.oceancode/skills/${n}/SKILL.md`, `---\ndescription: the ${n} procedure\n---\nDo ${n}.\n`])),
  "big.txt": `${Array.from({ length: 20 }, (_, i) => `part ${i + 1}\n${"y".repeat(150)}${i === 12 ? "\nRESULT: 99 passed" : ""}`).join("\n\n")}\n`,
};
const PROMPT = "fetch the test results from the website and summarise the failures";

let b: Booted | undefined;
let fake: FakeAnthropic | undefined;
let jevFake: FakeSystemOne | undefined;
afterEach(async () => {
  await b?.kernel.shutdown();
  b?.sb.cleanup();
  await fake?.close();
  await jevFake?.close();
  b = fake = jevFake = undefined;
});

async function setup(): Promise<TestJev> {
  jevFake = await startFakeSystemOne();
  jevFake.answer((req) => {
    const qs = req.body.questions ?? {};
    const st = req.body.state as { output?: { blocks: Array<{ label: string; text: string }> } };
    if (qs.block) return { block: { type: "choice", choice: st.output!.blocks.find((x) => x.text.includes("RESULT"))!.label, confidence: 0.9 } };
    const rank = (opts: string[], prefer: string[]) => {
      const probabilities = Object.fromEntries(opts.map((o) => [o, prefer.includes(o.slice(0, o.indexOf(":"))) ? 0.3 - prefer.indexOf(o.slice(0, o.indexOf(":"))) * 0.05 : 0.01]));
      return { type: "choice" as const, choice: Object.entries(probabilities).sort((x, y) => y[1] - x[1])[0]![0], probabilities };
    };
    if (qs.extras) return { needs_more_than_core: { type: "noul", noul: 0.2 }, extras: rank(qs.extras.options!, ["web_fetch", "web_search", "pdf_read", "bench_run"]) };
    return { needs_skill: { type: "noul", noul: 0.2 }, skills: rank(qs.skills!.options!, ["tdd", "changelog", "perf-bench"]) };
  });
  fake = await startFakeAnthropic();
  fake.respond((req) => {
    const msgs = (req.body as { messages: Array<{ role: string; content: unknown }> }).messages;
    const last = JSON.stringify(msgs[msgs.length - 1]);
    return last.includes("tool_result") ? { text: "summary done" } : { text: "reading the results", toolCalls: [{ name: "bash", input: { command: "cat big.txt" } }] };
  });
  b = await bootPoints([], { files: FILES, config: { tools: { max_output_chars: 1500 } }, env: anthropicEnv({ env: {} }, fake.url) });
  for (const n of EXTRA) b.engine.tools.register({ name: n, kind: "other", description: `the ${n} tool`, inputSchema: { type: "object", properties: {} }, run: async () => ({ content: "ok" }) } satisfies ToolDefinition, "test");
  const jev = testJev({ url: jevFake.url });
  installOutput(b.ctx, jev);
  installToolTiers(b.ctx, jev);
  installSkills(b.ctx, jev);
  return jev;
}

type Body = { tools: Array<{ name: string }>; system: unknown; messages: unknown[] };
const bodies = (): Body[] => fake!.requests.map((r) => r.body as unknown as Body);
/** the session id and the fake's own tool_use id counter are all that may differ */
const normal = (x: Body[], id: string) => JSON.stringify(x).replaceAll(id, "S").replace(/toolu_fake_\d+/g, "T");
const systemText = (x: Body) => JSON.stringify(x.system);

describe("jev points through the Anthropic SDK", () => {
  it("shadow: the Messages API bodies are identical to the layer off; three points recorded", async () => {
    const jev = await setup();
    const off = await b!.engine.createSession({ cwd: b!.sb.project, model: MODEL });
    await b!.engine.prompt(off, PROMPT);
    const offBodies = bodies();
    expect(offBodies).toHaveLength(2);
    jev.modes = { output: "shadow", tool_tiers: "shadow", skills: "shadow" };
    const sh = await b!.engine.createSession({ cwd: b!.sb.project, model: MODEL });
    await b!.engine.prompt(sh, PROMPT);
    await jev.idle(3);
    expect(normal(bodies().slice(2), sh.info.id)).toBe(normal(offBodies, off.info.id));
    expect(jev.rows.map((r) => `${r.point}:${r.outcome}`).sort()).toEqual(["output:shadow", "skills:shadow", "tool_tiers:shadow"]);
  });

  it("act: the body offers core + 4 extras, lists 3 skills, and the tool_result keeps the block with the result", async () => {
    const jev = await setup();
    jev.modes = { output: "act", tool_tiers: "act", skills: "act" };
    const s = await b!.engine.createSession({ cwd: b!.sb.project, model: MODEL });
    await b!.engine.prompt(s, PROMPT);
    const [first, second] = bodies();
    const names = first!.tools.map((t) => t.name);
    expect(names.filter((n) => !CORE_TOOLS.includes(n)).sort()).toEqual(["bench_run", "pdf_read", "web_fetch", "web_search"]);
    expect(names).toContain(TOOL_SEARCH);
    expect(names).toContain("bash");
    const listing = /<available_skills>[\s\S]*?<\/available_skills>/.exec(systemText(first!))![0];
    const listed = [...listing.matchAll(/- ([\w-]+):/g)].map((m) => m[1]).sort();
    expect(listed).toEqual(["changelog", "perf-bench", "tdd"]);
    const toolResult = JSON.stringify(second!.messages[second!.messages.length - 1]);
    expect(toolResult).toContain("RESULT: 99 passed");
    expect(toolResult).toContain("kept block B13 of 20");
    expect(jev.rows.map((r) => `${r.point}:${r.outcome}`).sort()).toEqual(["output:acted", "skills:acted", "tool_tiers:acted"]);
  });
});
