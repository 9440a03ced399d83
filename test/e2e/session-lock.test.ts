/**
 * One process per session, with real processes: a second `run -c` is refused naming the holder (exit 2);
 * with --wait, 20 racing runs take turns and every turn lands exactly once, in the database, the export
 * and the journal (whose entry ids stay unique).
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeSandbox, runCli, runCliAsync, type Sandbox } from "../kit/cli.js";

let sb: Sandbox;
afterEach(() => sb?.cleanup());

const journalOf = (s: Sandbox, id: string) =>
  fs
    .readFileSync(path.join(s.home, ".local", "share", "oceancode", "session-ledger", id, "journal.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { type: string; id?: string; role?: string });

describe("one process per session", () => {
  it("a second run -c is refused with the holder's pid and exit 2; --wait takes its turn after", async () => {
    sb = makeSandbox("oc-lock-");
    sb.write("s.json", JSON.stringify({ steps: [{ text: "first" }, { text: "slow answer", delay_ms: 2500 }] }));
    const cli = (...a: string[]) => runCliAsync(["--dir", sb.project, "run", ...a], { env: sb.env });
    expect((await cli("--model", "scripted/s.json", "one")).code).toBe(0);
    const slow = cli("-c", "two");
    await new Promise((r) => setTimeout(r, 1200));
    const refused = await cli("-c", "three");
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/session ses_\w+ is open in process \d+ on \S+ \(since [0-9T:.-]+Z\); close it there, or pass --wait/);
    const waited = await cli("-c", "--wait", "four");
    expect(waited.code, waited.stderr).toBe(0);
    expect((await slow).code).toBe(0);
    const id = (JSON.parse(runCli(["--dir", sb.project, "sessions", "--json"], { env: sb.env }).stdout) as Array<{ id: string }>)[0]!.id;
    const exp = runCli(["--dir", sb.project, "export", "--md", "--out", "-", id], { env: sb.env });
    expect(exp.stdout).toContain("two");
    expect(exp.stdout).not.toContain("three");
    expect(exp.stdout).toContain("four");
  });

  it("20 racing run -c --wait on one session: every turn present once, journal ids unique", async () => {
    sb = makeSandbox("oc-lock-race-");
    expect(runCli(["--dir", sb.project, "run", "--model", "scripted/echo", "turn-00"], { env: sb.env }).code).toBe(0);
    const runs = await Promise.all(
      Array.from({ length: 20 }, (_, i) => runCliAsync(["--dir", sb.project, "run", "-c", "--wait", `turn-${String(i + 1).padStart(2, "0")}`], { env: sb.env, timeoutMs: 240_000 })),
    );
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    const list = JSON.parse(runCli(["--dir", sb.project, "sessions", "--json"], { env: sb.env }).stdout) as Array<{ id: string; turns: number }>;
    expect(list).toHaveLength(1);
    expect(list[0]!.turns).toBe(21);
    const exp = runCli(["--dir", sb.project, "export", "--md", "--out", "-", list[0]!.id], { env: sb.env }).stdout;
    for (let i = 0; i <= 20; i++) {
      const word = `turn-${String(i).padStart(2, "0")}`;
      expect(exp.split(`ok: ${word}`).length - 1, word).toBe(1);
    }
    const entries = journalOf(sb, list[0]!.id).filter((e) => e.type === "entry");
    const ids = entries.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(entries.filter((e) => e.role === "user")).toHaveLength(21);
  }, 300_000);
});
