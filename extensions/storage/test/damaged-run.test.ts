/**
 * Runs against a database that cannot keep them, through the compiled CLI: a damaged file or one that
 * cannot be opened. The run never exits 0 for a session it did not store, and says where the session's
 * transcript is; --continue says the database is damaged instead of "no earlier session".
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeSandbox, runCli, type Sandbox } from "../../../test/kit/cli.js";
import { damage } from "./damage.js";

let sb: Sandbox;
let dbFile: string;
let ledgerRoot: string;
beforeEach(() => {
  sb = makeSandbox("oc-damaged-run-");
  dbFile = path.join(sb.home, ".local", "share", "oceancode", "oceancode.db");
  ledgerRoot = path.join(sb.home, ".local", "share", "oceancode", "session-ledger");
});
afterEach(() => sb.cleanup());

const cli = (...args: string[]) => runCli(args, { cwd: sb.project, env: sb.env });
const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function firstSession(): string {
  const r = cli("run", "--model", "scripted/echo", "first");
  expect(r.code, r.stderr).toBe(0);
  return /session: (\S+)/.exec(r.stderr)![1]!;
}

describe("a run whose session cannot be stored", () => {
  it("on a damaged database: exit 1, names the file, the fix and the transcript; storage repair brings the session in", () => {
    const first = firstSession();
    damage(dbFile, "header");
    const r = cli("run", "--model", "scripted/echo", "second");
    expect(r.stdout).toBe("ok: second\n"); // the session ran, in memory
    expect(r.code).toBe(1);
    const id = /session: (\S+)/.exec(r.stderr)![1]!;
    const transcript = path.join(ledgerRoot, id, "transcript");
    expect(r.stderr).toMatch(new RegExp(`oceancode run: session ${id} was not stored: ${esc(dbFile)}: cannot use the database \\(file is not a database\\).*\`oceancode storage repair\`.*; its transcript is in ${esc(transcript)}/\n`));
    expect(r.stderr).not.toMatch(/retried/);
    expect(fs.readFileSync(path.join(transcript, "turn-0001.md"), "utf8")).toContain("ok: second");

    const fix = cli("storage", "repair");
    expect(fix.code).toBe(0);
    expect(fix.stdout).toMatch(/STORAGE_REPAIRED sessions=2 turns=2 rows=4 /);
    const list = (JSON.parse(cli("sessions", "--json").stdout) as Array<{ id: string; title: string }>).map((s) => [s.id, s.title]);
    expect(list).toEqual([
      [id, "second"],
      [first, "first"],
    ]);
  });

  it("--continue on a damaged database says so (header or a rows page), not 'no earlier session'", () => {
    firstSession();
    fs.copyFileSync(dbFile, `${dbFile}.good`);
    for (const kind of ["header", "middle"] as const) {
      fs.copyFileSync(`${dbFile}.good`, dbFile);
      damage(dbFile, kind);
      const r = cli("run", "--continue", "again");
      expect(r.code, kind).toBe(1);
      expect(r.stderr, kind).not.toContain("no earlier session");
      expect(r.stderr, kind).toMatch(new RegExp(`^oceancode run: (--continue: )?${esc(dbFile)}: cannot use the database \\((file is not a database|database disk image is malformed)\\): the file is damaged or not an oceancode database; rebuild it from the session ledger with \`oceancode storage repair\``, "m"));
    }
  });

  it("--db names the file in the fix; a database that cannot be opened at all: exit 1 with the transcript's place", () => {
    const elsewhere = path.join(sb.home, "custom.db");
    fs.writeFileSync(elsewhere, "not sqlite at all ".repeat(300));
    const d = runCli(["--db", elsewhere, "run", "--model", "scripted/echo", "hi"], { cwd: sb.project, env: sb.env });
    expect(d.code).toBe(1);
    expect(d.stderr).toContain(`\`oceancode --db ${elsewhere} storage repair\``);

    const dir = path.join(sb.home, "a-directory.db");
    fs.mkdirSync(dir);
    const r = runCli(["--db", dir, "run", "--model", "scripted/echo", "hello"], { cwd: sb.project, env: sb.env });
    expect(r.stdout).toBe("ok: hello\n");
    expect(r.code).toBe(1);
    const id = /session: (\S+)/.exec(r.stderr)![1]!;
    expect(r.stderr).toMatch(new RegExp(`oceancode run: session ${id} was not stored: ${esc(dir)}: cannot open the database .* \\(\\d+ write\\(s\\) not committed\\); its transcript is in ${esc(path.join(ledgerRoot, id, "transcript"))}/\n`));
  });

  it("with the ledger off, it says nothing of the session is on disk", () => {
    sb.write(".config/oceancode/oceancode.json", JSON.stringify({ ledger: { enabled: false } }), "home");
    fs.mkdirSync(path.dirname(dbFile), { recursive: true });
    fs.writeFileSync(dbFile, Buffer.alloc(8192));
    const r = cli("run", "--model", "scripted/echo", "hello");
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/was not stored: .*; the ledger is off, so nothing of it is on disk\n/);
  });
});
