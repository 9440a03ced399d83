import { describe, it, expect } from "vitest";
import path from "node:path";
import { classifyCommand } from "../../shell-guard/classify.js";
import { readLines, wrapVariants, PREFIX_WRAPPERS } from "../../../bench/shell-guard/corpus.js";
import { REPO_ROOT } from "../../../test/kit/cli.js";

// In-process: the classifier is pure, so each line is checked directly (the CLI path is covered by
// test/security/guard-e2e.test.ts). Checked, never executed.
const corpus = readLines(path.join(REPO_ROOT, "test", "fixtures", "floor-corpus.txt"));
const opts = { home: "/home/u", project: "/work/p", cwd: "/work/p" };

async function notDenied(commands: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const c of commands) {
    const r = await classifyCommand(c, opts);
    if (r.verdict !== "deny" || !r.segments.some((s) => s.kind === "floor")) {
      out.push(`${c}\n  ${r.segments.map((s) => `${s.kind}: ${s.command} (${s.reason})`).join("\n  ")}`);
    }
  }
  return out;
}

describe("the dangerous floor against an obfuscated corpus (checked, never executed)", () => {
  it("has a real corpus", () => expect(corpus.length).toBeGreaterThan(75));

  it("denies every line, as the floor", async () => {
    expect(await notDenied(corpus)).toEqual([]);
  });

  const variants = corpus.flatMap((line) => wrapVariants(line));
  it("builds every wrapper for the simple lines and the structural wrappers for all", () => {
    expect(variants.length).toBeGreaterThan(corpus.length * 15);
    const simple = wrapVariants("rm -rf /").map((v) => v.wrapper);
    for (const w of [...PREFIX_WRAPPERS, "pipeline tail", "bash -c '…'", 'sh -c "…"', "eval '…'", "( … )", "$( … )", "true && …"]) expect(simple).toContain(w);
    // a function definition or a leading assignment cannot take a prefix wrapper; the nesting ones still apply
    expect(wrapVariants(":(){ :|:& };:").map((v) => v.wrapper)).toEqual(["bash -c '…'", 'sh -c "…"', "eval '…'", "( … )", "$( … )", "true && …"]);
  });

  it.each(["sudo", "env X=1", "nice", "nohup", "timeout 5", "time", "command", "exec", "xargs", "stdbuf -o0", "ionice -c3", "pipeline tail", "bash -c '…'", 'sh -c "…"', "eval '…'", "( … )", "$( … )", "true && …"])(
    "denies every line wrapped in %s",
    async (wrapper) => {
      const mine = variants.filter((v) => v.wrapper === wrapper).map((v) => v.command);
      expect(mine.length).toBeGreaterThan(40);
      expect(await notDenied(mine)).toEqual([]);
    },
  );

  it("quotes a line for sh -c \"…\" and eval '…' so the shell sees it unchanged", () => {
    const v = wrapVariants(`X=/; rm -rf "$X"`);
    expect(v.find((x) => x.wrapper === 'sh -c "…"')!.command).toBe(`sh -c "X=/; rm -rf \\"\\$X\\""`);
    expect(v.find((x) => x.wrapper === "eval '…'")!.command).toBe(`eval 'X=/; rm -rf "$X"'`);
    expect(wrapVariants("echo 'a'").find((x) => x.wrapper === "bash -c '…'")!.command).toBe(`bash -c 'echo '\\''a'\\'''`);
  });
});
