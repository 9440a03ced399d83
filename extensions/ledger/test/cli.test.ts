/** `oceancode ledger …`, `oceancode export …`, config aliases and removed keys, retention: the compiled CLI in a sandbox. */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Ajv2020 } from "ajv/dist/2020.js";
import Database from "better-sqlite3";
import { makeSandbox, runCli, REPO_ROOT, type Sandbox } from "../../../test/kit/cli.js";

let sb: Sandbox;
beforeEach(() => {
  sb = makeSandbox("oc-ledger-cli-");
  sb.write(
    "script.json",
    JSON.stringify({
      steps: [{ text: "running it", tool_calls: [{ name: "bash", input: { command: "echo hi-from-bash" } }] }, { text: "done with {{prompt}}" }],
      after: { text: "Decisions: keep the echo design\nNext step: write the docs\nnot a section line" },
    }),
  );
});
afterEach(() => sb.cleanup());

const cli = (...args: string[]) => runCli(args, { cwd: sb.project, env: sb.env });
const ledgerRoot = () => path.join(sb.home, ".local", "share", "oceancode", "session-ledger");

function runSession(...prompt: string[]): string {
  const r = cli("run", "--auto", "--model", "scripted/script.json", ...prompt);
  expect(r.code).toBe(0);
  const id = /^session: (\S+)/m.exec(r.stderr)?.[1];
  expect(id).toBeTruthy();
  return id!;
}

describe("oceancode ledger", () => {
  it("path prints the session's ledger directory, which holds the transcript, index, page and journal", () => {
    const id = runSession("first task");
    const r = cli("ledger", "path", id);
    expect(r.code).toBe(0);
    const dir = r.stdout.trim();
    expect(dir).toBe(path.join(ledgerRoot(), id));
    for (const f of ["transcript/turn-0001.md", "index.md", "index.json", "SESSION.md", "journal.jsonl"]) expect(fs.existsSync(path.join(dir, f))).toBe(true);
    expect(fs.readFileSync(path.join(dir, "transcript", "turn-0001.md"), "utf8")).toContain("hi-from-bash");
    expect(fs.readFileSync(path.join(dir, "SESSION.md"), "utf8")).toContain("- `echo hi-from-bash` → exit 0 (t1)");
  });

  it("answers bad usage with the usage line and exit 2", () => {
    for (const args of [["ledger"], ["ledger", "path"], ["ledger", "nope", "x"], ["ledger", "path", "a", "b"], ["ledger", "rebuild", "--yes", "x"], ["ledger", "path", "--bogus", "x"]]) {
      const r = cli(...args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toContain("usage: oceancode ledger path");
    }
  });

  it("rebuild recreates a lost ledger from the database, mechanically", () => {
    const id = runSession("first task");
    const dir = cli("ledger", "path", id).stdout.trim();
    const before = fs.readFileSync(path.join(dir, "transcript", "turn-0001.md"), "utf8");
    fs.rmSync(dir, { recursive: true });
    const r = cli("ledger", "rebuild", id);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^LEDGER_REBUILT ${dir.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} turns=1 rows=4\n$`));
    const after = fs.readFileSync(path.join(dir, "transcript", "turn-0001.md"), "utf8");
    // same rows, same rendering (the header's start time comes from the first row)
    expect(after.replace(/started .*\n/, "")).toBe(before.replace(/started .*\n/, ""));
    expect(fs.readFileSync(path.join(dir, "SESSION.md"), "utf8")).toContain("- first task (t1)");
    expect(fs.readFileSync(path.join(dir, "journal.jsonl"), "utf8").trim().split("\n")).toHaveLength(4);
    expect(cli("ledger", "rebuild", "ses_missing").code).toBe(1);
  });

  it("rebuild --merge asks first: refused without --yes off a terminal; with --yes it folds the backlog through the model", () => {
    const id = runSession("first task");
    expect(runCli(["run", "--auto", "--continue", "second task"], { cwd: sb.project, env: sb.env }).code).toBe(0);
    const no = cli("ledger", "rebuild", id, "--merge");
    expect(no.code).toBe(1);
    expect(no.stderr).toMatch(/needs a yes; run it on a terminal to confirm, or pass --yes/);
    const dir = cli("ledger", "path", id).stdout.trim();
    expect(fs.readFileSync(path.join(dir, "SESSION.md"), "utf8")).not.toContain("(t1 merge)");
    const yes = cli("ledger", "rebuild", id, "--merge", "--yes");
    expect(yes.stderr).toBe("");
    expect(yes.code).toBe(0);
    expect(yes.stdout).toContain("LEDGER_MERGED turns=1 lines=2");
    const page = fs.readFileSync(path.join(dir, "SESSION.md"), "utf8");
    expect(page).toContain("- keep the echo design (t1 merge)");
    expect(page).toContain("- write the docs (t1 merge)");
  });
});

describe("ledger rebuild --merge on a terminal", () => {
  // `script` gives the CLI a real pseudo-terminal; the answer is typed after the question appears
  const onTty = (args: string[], answer: string) =>
    new Promise<{ code: number | null; out: string }>((resolve) => {
      const cmd = [process.execPath, path.join(REPO_ROOT, "dist", "hosts", "cli", "main.js"), ...args].map((a) => `'${a}'`).join(" ");
      const child = spawn("script", ["-qec", cmd, "/dev/null"], { cwd: sb.project, env: sb.env, stdio: ["pipe", "pipe", "pipe"] });
      let out = "";
      let sent = false;
      child.stdout.on("data", (d: Buffer) => {
        out += d.toString();
        if (!sent && out.includes("[y/N]")) {
          sent = true;
          child.stdin.write(`${answer}\r`);
        }
      });
      child.on("close", (code) => resolve({ code, out }));
    });

  it("asks y/N: n keeps the mechanical rebuild, y folds", async () => {
    const id = runSession("first task");
    expect(runCli(["run", "--auto", "--continue", "second task"], { cwd: sb.project, env: sb.env }).code).toBe(0);
    const no = await onTty(["ledger", "rebuild", id, "--merge"], "n");
    expect(no.out).toContain(`Fold the merge backlog (1 turn(s)) into SESSION.md with model calls to scripted/script.json? [y/N]`);
    expect(no.out).toContain("not confirmed; the mechanical rebuild stands, nothing was sent to a model");
    expect(no.code).toBe(1);
    const yes = await onTty(["ledger", "rebuild", id, "--merge"], "y");
    expect(yes.out).toContain("LEDGER_MERGED turns=1 lines=2");
    expect(yes.code).toBe(0);
  });
});

describe("oceancode export", () => {
  it("needs exactly one of --md or --atif", () => {
    const id = runSession("first task");
    for (const args of [["export", id], ["export", id, "--md", "--atif"], ["export", "--md"], ["export", "--md", "--nope", id]]) {
      const r = cli(...args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toContain("usage: oceancode export (--md | --atif)");
    }
    expect(cli("export", "ses_missing", "--md").code).toBe(1);
  });

  it("--md: frontmatter, every turn from the ledger's transcripts, a Summary table", () => {
    const id = runSession("first task");
    runCli(["run", "--auto", "--continue", "second task"], { cwd: sb.project, env: sb.env });
    const r = cli("export", id, "--md");
    expect(r.code).toBe(0);
    const md = r.stdout;
    expect(md).toMatch(new RegExp(`^---\\nsession: "${id}"\\n`));
    expect(md).toContain('model: "scripted/script.json"');
    expect(md).toContain("source: ledger transcripts");
    expect(md).toContain("## Turn 1");
    expect(md).toContain("## Turn 2");
    expect(md).toContain("hi-from-bash");
    expect(md).toContain("second task");
    expect(md).toMatch(/## Summary\n\n\| Turn \| Steps \|.*\n\|---:\|/);
    expect(md).toMatch(/\| 1 \| 2 \| 1–4 \| 1 \| 0 \|/);
    // without a ledger it is built from the database rows
    fs.rmSync(path.join(ledgerRoot(), id), { recursive: true });
    const db = cli("export", id, "--md", "--out", "s.md");
    expect(db.code).toBe(0);
    const file = fs.readFileSync(path.join(sb.project, "s.md"), "utf8");
    expect(file).toContain("source: database rows");
    expect(file).toContain("hi-from-bash");
  });

  it("--atif: a valid ATIF-v1.8 trajectory with tool calls, observations and metrics", () => {
    const id = runSession("first task");
    const r = cli("export", id, "--atif", "--out", "-");
    expect(r.code).toBe(0);
    const traj = JSON.parse(r.stdout) as {
      schema_version: string;
      session_id: string;
      steps: Array<{ step_id: number; source: string; message: string; timestamp: string; tool_calls?: Array<{ tool_call_id: string; function_name: string; arguments: Record<string, unknown> }>; observation?: { results: Array<{ source_call_id: string; content: string }> }; metrics?: { prompt_tokens: number; completion_tokens: number } }>;
      final_metrics: { total_steps: number; total_prompt_tokens: number; total_completion_tokens: number };
    };
    const schema = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "extensions", "export", "atif.schema.json"), "utf8")) as object;
    const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
    const validate = ajv.compile(schema);
    expect(validate(traj), JSON.stringify(validate.errors)).toBe(true);
    expect(traj.schema_version).toBe("ATIF-v1.8");
    expect(traj.session_id).toBe(id);
    expect(traj.steps.map((s) => s.step_id)).toEqual(traj.steps.map((_, i) => i + 1));
    expect(traj.steps.map((s) => s.source)).toEqual(["user", "agent", "agent"]);
    const agent = traj.steps[1]!;
    expect(agent.tool_calls).toEqual([{ tool_call_id: expect.any(String), function_name: "bash", arguments: { command: "echo hi-from-bash" } }]);
    expect(agent.observation!.results[0]!.source_call_id).toBe(agent.tool_calls![0]!.tool_call_id);
    expect(agent.observation!.results[0]!.content).toContain("hi-from-bash");
    for (const s of traj.steps) {
      expect(Number.isNaN(Date.parse(s.timestamp))).toBe(false);
      if (s.source === "agent") expect(s.metrics!.prompt_tokens).toBeGreaterThan(0);
    }
    expect(traj.final_metrics.total_steps).toBe(3);
    expect(traj.final_metrics.total_prompt_tokens).toBe(traj.steps.reduce((n, s) => n + (s.metrics?.prompt_tokens ?? 0), 0));
    // a broken trajectory fails the schema (the check can fail)
    expect(validate({ ...traj, steps: [{ step_id: 1, source: "user", message: "x", metrics: { prompt_tokens: 1 } }] })).toBe(false);
  });
});

describe("config: aliases and removed keys", () => {
  it("ledger.shelve / ledger.window are read as ledger.tideline; removed keys load, are ignored, one warning", () => {
    sb.write(".oceancode/oceancode.json", JSON.stringify({ ledger: { shelve: { percent: 55 }, hard_tokens: 5000, low: 3 } }));
    const r = cli("inspect", "--json");
    expect(r.code).toBe(0);
    const rows = JSON.parse(r.stdout) as Array<{ kind: string; id: string; value?: unknown }>;
    const val = (k: string) => rows.find((x) => x.kind === "config" && x.id === k)?.value;
    expect(val("ledger.tideline.percent")).toBe(55);
    expect(val("ledger.hard_tokens")).toBeUndefined();
    expect(val("ledger.shelve.percent")).toBeUndefined();
    const warnings = r.stderr.split("\n").filter((l) => l.includes("ignoring removed config keys"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("ledger.hard_tokens");
    expect(warnings[0]).toContain("ledger.low");
    sb.write(".oceancode/oceancode.json", JSON.stringify({ ledger: { window: { tokens: 250000, block: "35%", preset: "wide" } } }));
    const w = cli("inspect", "--json");
    const rows2 = JSON.parse(w.stdout) as Array<{ kind: string; id: string; value?: unknown }>;
    expect(rows2.find((x) => x.id === "ledger.tideline.tokens")?.value).toBe(250000);
    expect(rows2.find((x) => x.id === "ledger.tideline.block")?.value).toBe("35%");
    expect(w.stderr).toContain("ledger.tideline.preset");
  });

  it("a bad tideline value names the file and key", () => {
    sb.write(".oceancode/oceancode.json", JSON.stringify({ ledger: { tideline: { percent: 140 } } }));
    const r = cli("run", "--model", "scripted/echo", "hi");
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/oceancode\.json.*ledger\.tideline\.percent/);
    // inspect is tolerant (it diagnoses broken config): it names the same file and key as a warning
    const i = cli("inspect");
    expect(i.code).toBe(0);
    expect(i.stderr).toMatch(/warning: .*oceancode\.json:1: ledger\.tideline\.percent: .*section 'ledger' of this file ignored/);
  });

  it("run --tideline refuses a preset word with the usage line", () => {
    const r = cli("run", "--tideline", "wide", "--model", "scripted/echo", "hi");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("'wide' is a removed preset");
    expect(r.stderr).toContain("usage: oceancode run");
  });
});

describe("ledger config", () => {
  it("ledger.dir moves the ledger root; ledger.enabled: false writes no ledger", () => {
    sb.write(".oceancode/oceancode.json", JSON.stringify({ ledger: { dir: "~/my-ledgers" } }));
    const id = runSession("first task");
    const dir = cli("ledger", "path", id).stdout.trim();
    expect(dir).toBe(path.join(sb.home, "my-ledgers", id));
    expect(fs.existsSync(path.join(dir, "transcript", "turn-0001.md"))).toBe(true);
    sb.write(".oceancode/oceancode.json", JSON.stringify({ ledger: { enabled: false } }));
    const off = runSession("second task");
    expect(fs.existsSync(path.join(ledgerRoot(), off))).toBe(false);
    expect(fs.existsSync(path.join(sb.home, "my-ledgers", off))).toBe(false);
    // export still works from the database
    const md = cli("export", off, "--md");
    expect(md.code).toBe(0);
    expect(md.stdout).toContain("source: database rows");
  });
});

describe("retention", () => {
  const userConfig = (value: unknown) => sb.write(".config/oceancode/oceancode.json", JSON.stringify(value), "home");
  const age = (id: string, days: number) => {
    const db = new Database(path.join(sb.home, ".local", "share", "oceancode", "oceancode.db"));
    db.prepare(`UPDATE sessions SET updated_at = ? WHERE id = ?`).run(Date.now() - days * 86_400_000, id);
    db.close();
  };

  it("the old key ledger.retention.days still loads, as ledger.retention_days, with one warning", () => {
    const file = userConfig({ ledger: { retention: { days: 3 } } });
    const inspect = cli("inspect", "--json");
    const rows = JSON.parse(inspect.stdout) as Array<{ kind: string; id: string; value?: unknown }>;
    expect(rows.find((x) => x.kind === "config" && x.id === "ledger.retention_days")?.value).toBe(3);
    expect(rows.find((x) => x.kind === "config" && x.id === "database.retention_days")?.value).toBe(30);
    const old = runSession("old task");
    age(old, 5);
    const r = cli("run", "--auto", "--model", "scripted/script.json", "new task");
    expect(r.code).toBe(0);
    const warnings = r.stderr.split("\n").filter((l) => l.includes("ledger.retention.days"));
    expect(warnings).toEqual([expect.stringMatching(new RegExp(`^oceancode: warning: ${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(:\\d+)?: ledger\\.retention\\.days is now ledger\\.retention_days; it is read as the new key: rename it$`))]);
    // 3 days took effect: the 5-day-old session lost its ledger; the database keeps it for 30
    expect(fs.existsSync(path.join(ledgerRoot(), old))).toBe(false);
    expect(cli("export", old, "--md").code).toBe(0);
  });

  it("database and ledger retention differ: each store keeps its copy for its own days, counted from the same last activity", () => {
    const a = runSession("first task");
    const b = runSession("second task");
    age(a, 20);
    age(b, 20);
    // transcripts kept longer than the rows: the database forgets, `ledger path` and the files remain
    userConfig({ database: { retention_days: 10 }, ledger: { retention_days: 90 } });
    const exp = cli("sessions", "--expiring");
    expect(exp.code).toBe(0);
    expect(exp.stdout).toMatch(new RegExp(`^${a}\\s.*\\sdatabase$`, "m"));
    const r = cli("run", "--auto", "--model", "scripted/script.json", "third task");
    const line = r.stderr.split("\n").filter((l) => l.includes("retention:"));
    expect(line).toEqual([expect.stringContaining("removed 2 idle sessions (2 in ")]);
    expect(line[0]).toContain("; for 2 only the database copy, the rest stays under a longer retention)");
    expect(cli("export", a, "--md").code).toBe(1);
    expect(cli("ledger", "path", a).stdout.trim()).toBe(path.join(ledgerRoot(), a));
    expect(fs.existsSync(path.join(ledgerRoot(), a, "transcript", "turn-0001.md"))).toBe(true);
    // the other way round: rows kept, transcripts go; `ledger rebuild` brings one back from the rows
    const c = runSession("fourth task");
    age(c, 20);
    userConfig({ database: { retention_days: 90 }, ledger: { retention_days: 10 } });
    const r2 = cli("run", "--auto", "--model", "scripted/script.json", "fifth task");
    expect(r2.stderr).toContain(`removed 1 idle session (1 in ${sb.project}; for 1 only the ledger copy, the rest stays under a longer retention)`);
    expect(fs.existsSync(path.join(ledgerRoot(), c))).toBe(false);
    // a's ledger: the database forgot it, so its own file times count (written moments ago)
    expect(fs.existsSync(path.join(ledgerRoot(), a))).toBe(true);
    expect(cli("export", c, "--md").code).toBe(0);
    expect(cli("ledger", "rebuild", c).code).toBe(0);
    expect(fs.existsSync(path.join(ledgerRoot(), c, "transcript", "turn-0001.md"))).toBe(true);
  });
});
