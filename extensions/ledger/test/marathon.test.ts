/**
 * End to end through `oceancode run` against the fake Anthropic server: a 200-step marathon whose tool
 * outputs (~8 KB each, ~400k tokens in all) total far more than the model's 200k context. It completes
 * with no refused request, no model call spent on summarizing, and every step's output verbatim in the
 * ledger's transcript files.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anthropicEnv, makeSandbox, runCliAsync, type Sandbox } from "../../../test/kit/cli.js";
import { startFakeAnthropic, type FakeAnthropicServer } from "../../../test/kit/fakes/anthropic-server.js";

const STEPS = 200;
const LINES = 300;

/** What step i's bash command prints (the test re-computes it to check the transcripts). */
export function stepOutput(i: number): string {
  let s = "";
  for (let j = 1; j <= LINES; j++) s += `step-${i} line-${j} abcdefghij\n`;
  return s;
}
const command = (i: number) => `for j in $(seq 1 ${LINES}); do echo "step-${i} line-$j abcdefghij"; done`;

type Block = { type: string; text?: string; id?: string; tool_use_id?: string; content?: unknown };

let fake: FakeAnthropicServer;
let sb: Sandbox;
let result: { code: number | null; stdout: string; stderr: string };
let ledgerDir: string;

beforeAll(async () => {
  fake = await startFakeAnthropic();
  let n = 0;
  fake.respond(() => {
    n += 1;
    if (n <= STEPS) return { text: `step ${n}`, toolCalls: [{ id: `toolu_${n}`, name: "bash", input: { command: command(n) } }] };
    return { text: "marathon done" };
  });
  sb = makeSandbox("oc-marathon-");
  result = await runCliAsync(["run", "--auto", "--model", "anthropic/claude-sonnet-4-5", "run the marathon"], {
    cwd: sb.project,
    env: anthropicEnv(sb, fake.url),
    timeoutMs: 240_000,
  });
  const root = path.join(sb.home, ".local", "share", "oceancode", "session-ledger");
  const ids = fs.existsSync(root) ? fs.readdirSync(root) : [];
  ledgerDir = path.join(root, ids[0] ?? "missing");
}, 300_000);

afterAll(async () => {
  await fake.close();
  sb.cleanup();
});

describe("a 200-step marathon on a 200k model", () => {
  it("completes with no refused request and no summary call", () => {
    expect(result.stderr).not.toMatch(/prompt_too_long|too long|'(ledger|tideline)' failed|error: (ledger|tideline)/i);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("marathon done");
    // one request per step plus the final answer: nothing else was sent (no summarizing call)
    expect(fake.requests).toHaveLength(STEPS + 1);
    for (const q of fake.requests) expect(q.body.tools?.length ?? 0).toBeGreaterThan(0);
    expect(fake.requests.some((q) => /summari[sz]e/i.test(JSON.stringify(q.body.system ?? "")))).toBe(false);
  });

  it("kept every request under the line plus one block, and cut with the pointer line", () => {
    const sizes = fake.requests.map((q) => Math.ceil(JSON.stringify(q.body.messages).length / 4));
    const totalOut = STEPS * stepOutput(1).length;
    expect(totalOut / 4).toBeGreaterThan(200_000); // the outputs alone exceed the context
    // line 80k, block 72k on a 200k model (tokens estimated at bytes / 4, a little generous for JSON)
    expect(Math.max(...sizes)).toBeLessThan(80_000 + 72_000);
    const withPointer = fake.requests.filter((q) => JSON.stringify(q.body.messages).includes("past the tideline: every row up to seq"));
    expect(withPointer.length).toBeGreaterThan(0);
    const last = JSON.stringify(fake.requests.at(-1)!.body.messages);
    expect(last).toContain(ledgerDir);
  });

  it("never starts a window with an orphaned tool result", () => {
    for (const q of fake.requests) {
      const seen = new Set<string>();
      for (const m of q.body.messages ?? []) {
        const blocks = (typeof m.content === "string" ? [] : m.content) as Block[];
        for (const b of blocks) {
          if (b.type === "tool_use") seen.add(b.id!);
          if (b.type === "tool_result") expect(seen.has(b.tool_use_id!)).toBe(true);
        }
      }
    }
  });

  it("between cuts the requests only append (the prompt cache can hit)", () => {
    let appended = 0;
    for (let i = 1; i < fake.requests.length; i++) {
      const a = fake.requests[i - 1]!.body.messages!;
      const b = fake.requests[i]!.body.messages!;
      const strip = (v: unknown) => JSON.stringify(v, (k, x: unknown) => (k === "cache_control" ? undefined : x));
      // the previous request's messages, minus its last (which gets the tool result merged in), are a prefix
      if (strip(b.slice(0, a.length - 1)) === strip(a.slice(0, -1))) appended++;
    }
    expect(appended / (fake.requests.length - 1)).toBeGreaterThan(0.9);
  });

  it("wrote every step's output verbatim into the transcript files", () => {
    const dir = path.join(ledgerDir, "transcript");
    const files = fs.readdirSync(dir).filter((f) => f.endsWith(".md")).sort();
    expect(files[0]).toBe("turn-0001.md");
    const all = files.map((f) => fs.readFileSync(path.join(dir, f), "utf8")).join("\n");
    for (let i = 1; i <= STEPS; i++) expect(all.includes(stepOutput(i).trimEnd())).toBe(true);
    const index = JSON.parse(fs.readFileSync(path.join(ledgerDir, "index.json"), "utf8")) as { cutSeq: number; turns: Array<{ turn: number; firstSeq: number; lastSeq: number }> };
    expect(index.cutSeq).toBeGreaterThan(0);
    expect(index.turns[0]).toMatchObject({ turn: 1, firstSeq: 1 });
    const page = fs.readFileSync(path.join(ledgerDir, "SESSION.md"), "utf8");
    expect(page).toContain("## Commands");
    expect(page).toMatch(/`for j in \$\(seq 1 300\); do echo "step-200 line-\$j abcdefghij"; done` → exit 0 \(t1\)/);
    expect(page).toContain("- run the marathon (t1)");
  });
});
