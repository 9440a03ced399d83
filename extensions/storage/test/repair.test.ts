/**
 * A damaged oceancode.db, through the compiled CLI: real sessions (tool calls, a truncated tool output,
 * hook events, two projects, a resumed session), then real damage to the file at several places.
 * doctor --storage fails naming the file; `storage repair` brings every committed turn back (the
 * exports before the damage and after the repair are the same); doctor is ok; --continue resumes.
 */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { makeSandbox, runCli } from "../../../test/kit/cli.js";
import { damage, damagePage, pagesOf, type DamageKind } from "./damage.js";
import { LATEST_VERSION } from "../migrations.js";

const sb = makeSandbox("oc-repair-");
const other = path.join(sb.home, "other-project");
const data = path.join(sb.home, ".local", "share", "oceancode");
const dbFile = path.join(data, "oceancode.db");
const good = path.join(sb.home, "good-data");
const cli = (args: string[], cwd = sb.project) => runCli(args, { cwd, env: sb.env });
const ids: Record<"a" | "b" | "c", string> = { a: "", b: "", c: "" };

function run(cwd: string, ...args: string[]): string {
  const r = cli(["run", "--auto", ...args], cwd);
  expect(r.code, r.stderr).toBe(0);
  return /session: (\S+)/.exec(r.stderr)![1]!;
}

interface Snapshot {
  list: unknown[];
  exports: Record<string, { atif: unknown; md: string }>;
}

/** What a user sees of every session: the list (less the update time) and both exports (less the export time). */
function snapshot(): Snapshot {
  const list = (JSON.parse(cli(["sessions", "--all", "--json"]).stdout) as Array<Record<string, unknown>>).map(({ updatedAt: _u, ...s }) => s);
  const exports: Snapshot["exports"] = {};
  for (const id of Object.values(ids)) {
    const atif = cli(["export", "--atif", id]);
    const md = cli(["export", "--md", id]);
    expect(atif.code, atif.stderr).toBe(0);
    exports[id] = { atif: JSON.parse(atif.stdout), md: md.stdout.replace(/^exported: .*$/m, "exported: -") };
  }
  return { list, exports };
}

const count = (file: string, sql: string): number => {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare(sql).get() as { n: number }).n;
  } finally {
    db.close();
  }
};

let before: Snapshot;
let rows = 0;
let events = 0;

beforeAll(() => {
  fs.mkdirSync(other, { recursive: true });
  // a low output cap, so one tool result reaches the model truncated (its full copy kept aside)
  sb.write(".config/oceancode/oceancode.json", JSON.stringify({ tools: { max_output_chars: 1000 } }), "home");
  // a hook on every bash call: its outcomes are events in the database (which the ledger does not keep)
  sb.write(".oceancode/settings.json", JSON.stringify({ hooks: { PostToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "true" }] }] } }), "home");
  sb.write(
    "work.json",
    JSON.stringify({
      steps: [
        { text: "listing", tool_calls: [{ name: "bash", input: { command: "seq 1 900" } }] },
        { text: "more\n", tool_calls: [{ name: "bash", input: { command: "printf 'a\\nb\\n'; exit 3" } }] },
        { text: "", tool_calls: [{ name: "bash", input: { command: "seq 1 300 | sed 's/^/line /'" } }] },
        { text: "done with {{prompt}}" },
      ],
      after: { text: "and {{prompt}} too" },
    }),
  );
  ids.c = run(sb.project, "--model", "scripted/echo", "an early question");
  ids.b = run(other, "--model", "scripted/echo", "elsewhere\nwith a second line");
  ids.a = run(sb.project, "--model", "scripted/work.json", "build the thing");
  expect(run(sb.project, "--continue", "test it")).toBe(ids.a);
  expect(fs.existsSync(`${dbFile}-wal`) ? fs.statSync(`${dbFile}-wal`).size : 0).toBe(0); // all in the main file
  rows = count(dbFile, "SELECT COUNT(*) AS n FROM rows");
  events = count(dbFile, "SELECT COUNT(*) AS n FROM events");
  expect(events).toBeGreaterThan(0);
  expect(pagesOf(dbFile, "rows").length).toBeGreaterThan(2);
  before = snapshot();
  fs.cpSync(data, good, { recursive: true });
});
afterAll(() => sb.cleanup());

/** Every case starts from the same sessions: database, ledger and kept tool outputs. */
beforeEach(() => {
  fs.rmSync(data, { recursive: true, force: true });
  fs.cpSync(good, data, { recursive: true });
});

describe("storage repair after real damage", () => {
  it.each<DamageKind>(["header", "middle", "end", "truncate"])("%s: doctor fails, repair brings every committed turn back, doctor is ok, --continue resumes", (kind) => {
    damage(dbFile, kind);
    const doc = cli(["doctor", "--storage"]);
    expect(doc.code).toBe(1);
    expect(doc.stdout).toMatch(new RegExp(`^FAIL storage ${dbFile.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: \\d+ bytes .*damaged \\(.*\\); rebuild it from the session ledger with \`oceancode storage repair\``, "m"));

    const r = cli(["storage", "repair"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`${dbFile}: damaged: `);
    expect(r.stdout).toMatch(new RegExp(`STORAGE_REPAIRED sessions=3 turns=4 rows=${rows} events=\\d+ not_recovered=\\d+ ms=\\d+`));
    for (const id of Object.values(ids)) expect(r.stdout).toMatch(new RegExp(`  ${id}  from ledger: \\d turn\\(s\\), \\d+ row\\(s\\)`));
    const aside = /^moved aside: (\S+)$/m.exec(r.stdout)![1]!;
    expect(aside).toMatch(/oceancode\.db\.damaged-\d{8}T\d{6}Z$/);
    expect(fs.existsSync(aside)).toBe(true); // kept

    const ok = cli(["doctor", "--storage"]);
    expect(ok.stdout).toContain(`ok   storage ${dbFile}: `);
    expect(ok.stdout).toContain(`quick_check ok, schema v${LATEST_VERSION}, 3 session(s)`);
    expect(ok.code).toBe(0);
    expect(snapshot()).toEqual(before);

    // events (hook outcomes) come back from the damaged file where it still reads; what did not is said
    const kept = count(dbFile, "SELECT COUNT(*) AS n FROM events");
    if (kept < events) expect(r.stdout).toMatch(/events|could not be read at all/);
    if (kind === "header") expect(r.stdout).toContain("not recovered:\n  - the damaged file could not be read at all (file is not a database)");
    if (kind === "middle") expect(kept).toBe(events);

    const more = cli(["run", "--auto", "--continue", "once more"]);
    expect(more.code, more.stderr).toBe(0);
    expect(more.stderr).toContain(`session: ${ids.a}`);
    expect(more.stdout).toContain("and once more too");
    const list = JSON.parse(cli(["sessions", "--json"]).stdout) as Array<{ id: string; turns: number }>;
    expect(list[0]).toMatchObject({ id: ids.a, turns: 3 });
  }, 180_000);

  it("a healthy database is left alone unless --force; --force rebuilds it the same", () => {
    const r = cli(["storage", "repair"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${dbFile}: quick_check ok (schema v${LATEST_VERSION}, 3 session(s)); nothing to repair (--force rebuilds it from the ledger anyway)\nSTORAGE_OK\n`);
    expect(fs.readdirSync(data).filter((f) => f.includes(".damaged-"))).toEqual([]);
    const f = cli(["storage", "repair", "--force"]);
    expect(f.code).toBe(0);
    expect(f.stdout).toMatch(/STORAGE_REPAIRED sessions=3 turns=4 rows=\d+ events=\d+ not_recovered=0/);
    expect(count(dbFile, "SELECT COUNT(*) AS n FROM events")).toBe(events);
    expect(snapshot()).toEqual(before);
  }, 180_000);

  it("a session without a ledger comes back whole from the damaged file when its rows still read, and is named when not", () => {
    fs.rmSync(path.join(data, "session-ledger", ids.b), { recursive: true });
    // damage an index page: the sessions and rows tables still read
    damagePage(dbFile, pagesOf(dbFile, "sessions_updated")[0]!);
    const r = cli(["storage", "repair"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`  ${ids.b}  from damaged file: 1 turn\\(s\\), 2 row\\(s\\), \\d+ event`));
    const after = snapshot();
    expect(after.list).toEqual(before.list);
    for (const id of Object.values(ids)) expect(after.exports[id]!.atif).toEqual(before.exports[id]!.atif);
    expect(after.exports[ids.a]).toEqual(before.exports[ids.a]);

    fs.rmSync(data, { recursive: true, force: true });
    fs.cpSync(good, data, { recursive: true });
    fs.rmSync(path.join(data, "session-ledger", ids.b), { recursive: true });
    damage(dbFile, "header");
    const lost = cli(["storage", "repair"]);
    expect(lost.code).toBe(0);
    expect(lost.stdout).toMatch(/STORAGE_REPAIRED sessions=2 /);
    expect(lost.stdout).toContain("the damaged file could not be read at all");
    expect(lost.stdout).toContain("any session without a ledger, are lost");
  }, 180_000);

  it("bad usage: the usage line, exit 2", () => {
    for (const args of [["storage"], ["storage", "nope"], ["storage", "repair", "--bogus"], ["storage", "repair", "extra"]]) {
      const r = cli(args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toContain("usage: oceancode storage repair [--force] [--db <path>]");
    }
  });
});
