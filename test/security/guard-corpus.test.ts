import { describe, it, expect } from "vitest";
import path from "node:path";
import { classifyCommand } from "../../extensions/shell-guard/classify.js";
import { readGuardCorpus, readLines, wrapVariants } from "../../bench/shell-guard/corpus.js";
import type { Classification } from "../../extensions/shell-guard/api.js";
import { REPO_ROOT } from "../kit/cli.js";

// In-process, against test/fixtures/guard-corpus.txt. Checked, never executed.
const corpus = readGuardCorpus(path.join(REPO_ROOT, "test", "fixtures", "guard-corpus.txt"));
const opts = { home: "/home/u", project: "/work/p", cwd: "/work/p" };
const show = (r: Classification): string => r.segments.map((s) => `${s.kind}${s.category ? `/${s.category}` : ""}: ${s.command} (${s.reason})`).join("\n  ");

describe("the guard corpus", () => {
  it("is a real corpus with every category of ask and a list of near-misses", () => {
    expect(corpus.ask.length).toBeGreaterThan(250);
    expect(corpus.noAsk.length).toBeGreaterThan(60);
    const cats = new Set(corpus.ask.flatMap((a) => a.categories));
    expect([...cats].sort()).toEqual(["delete", "history", "inline-code", "opaque", "persistence", "secret-read"]);
  });

  it("asks for every [ask] line (a guard segment of the expected category; not safe, plain or denied)", async () => {
    const wrong: string[] = [];
    for (const { command, categories } of corpus.ask) {
      const r = await classifyCommand(command, opts);
      const guard = r.segments.filter((s) => s.kind === "guard");
      const ok = r.verdict === "ask" && guard.some((s) => s.category !== undefined && categories.includes(s.category));
      if (!ok) wrong.push(`${command} [want ${categories.join("|")}]\n  ${show(r)}`);
    }
    expect(wrong).toEqual([]);
  });

  it("every guard segment says why, with a category", async () => {
    for (const { command } of corpus.ask) {
      for (const s of (await classifyCommand(command, opts)).segments.filter((x) => x.kind === "guard")) {
        expect(s.reason.length, command).toBeGreaterThan(10);
        expect(s.category, command).toBeDefined();
        expect(s.verdict, command).toBe("ask");
      }
    }
  });

  it("does not ask for the near-misses (no guard or floor segment)", async () => {
    const asked: string[] = [];
    for (const command of corpus.noAsk) {
      const r = await classifyCommand(command, opts);
      if (r.segments.some((s) => s.kind === "guard" || s.kind === "floor")) asked.push(`${command}\n  ${show(r)}`);
    }
    expect(asked).toEqual([]);
  });

  it("keeps the brief's near-misses in the list", () => {
    for (const c of [".env.example", "cat README", "git reset --soft", "git clean -n", "python -c 'print(1)'", "cat ~/.ssh/id_ed25519.pub"]) {
      expect(corpus.noAsk.some((l) => l.includes(c)), c).toBe(true);
    }
  });

  it("still asks (or denies) for every ask line under the wrappers", async () => {
    // a sample: the first line of each section and a few more, each under every wrapper
    const sample = corpus.ask.filter((_, i) => i % 12 === 0).map((a) => a.command);
    const wrong: string[] = [];
    for (const line of sample) {
      for (const v of wrapVariants(line)) {
        const r = await classifyCommand(v.command, opts);
        if (!r.segments.some((s) => s.kind === "guard" || s.kind === "floor")) wrong.push(`${v.command}\n  ${show(r)}`);
      }
    }
    expect(sample.length).toBeGreaterThan(20);
    expect(wrong).toEqual([]);
  });

  it("classifies a command in well under a few milliseconds on average", async () => {
    const all = [...corpus.ask.map((a) => a.command), ...corpus.noAsk, ...readLines(path.join(REPO_ROOT, "test", "fixtures", "floor-corpus.txt"))];
    for (const c of all) await classifyCommand(c, opts); // warm up
    const t0 = performance.now();
    for (const c of all) await classifyCommand(c, opts);
    const meanMs = (performance.now() - t0) / all.length;
    // about 0.3 ms on an idle machine; the bound is loose because the test machine is shared
    expect(meanMs).toBeLessThan(5);
  });
});
