/**
 * Crashes, then damage: a session killed with SIGKILL several times at random points and resumed each
 * time, finished cleanly, then its database damaged. Resuming after a crash never reports a transcript
 * as damaged (a crash leaves sound prefixes), and `storage repair` gives back exactly what the database
 * had committed: rows.jsonl's resume records drop rows the database never saw.
 */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { makeSandbox, runCliAsync } from "../../../test/kit/cli.js";
import { runAndKill } from "../../../test/kit/kill-run.js";
import { damage } from "./damage.js";

const KILLS = 5;
const sb = makeSandbox("oc-crash-repair-");
afterAll(() => sb.cleanup());
sb.write(
  "long.json",
  JSON.stringify({ steps: [{ text: "step {{n}}", tool_calls: [{ name: "bash", input: { command: "echo out-{{n}}; seq 1 200" } }], repeat: 45 }, { text: "finished: {{prompt}}" }] }),
);
const data = path.join(sb.home, ".local", "share", "oceancode");
const dbFile = path.join(data, "oceancode.db");

let seed = 11_30;
const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
const cli = (...args: string[]) => runCliAsync(args, { cwd: sb.project, env: sb.env });

function dbRows(id: string): string[] {
  const db = new Database(dbFile, { readonly: true });
  try {
    return (db.prepare("SELECT json FROM rows WHERE session_id = ? ORDER BY seq").all(id) as Array<{ json: string }>).map((r) => r.json);
  } finally {
    db.close();
  }
}

describe("crash, resume, damage, repair", () => {
  it(`${KILLS} kill -9s then a clean finish: no false damage warnings; repair gives back every committed row`, async () => {
    let id: string | undefined;
    for (let k = 0; k < KILLS; k++) {
      const args = k === 0 ? ["--model", "scripted/long.json", "go"] : ["--continue", "keep going"];
      const r = await runAndKill({ args: ["run", "--auto", "--format", "json", ...args], cwd: sb.project, env: sb.env, afterSteps: 1 + Math.floor(rnd() * 5), delayMs: Math.floor(rnd() * 30) });
      if (k === 0) id = r.sessionId;
      else expect(r.sessionId).toBe(id);
    }
    const fin = await cli("run", "--auto", "--continue", "finish");
    expect(fin.code, fin.stderr).toBe(0);
    expect(fin.stdout).toContain("finished: finish");
    expect(fin.stderr).not.toMatch(/damaged transcript/);
    const sidecar = fs.readFileSync(path.join(data, "session-ledger", id!, "rows.jsonl"), "utf8");
    expect(sidecar.match(/"t":"resume"/g)).toHaveLength(KILLS);

    const committed = dbRows(id!);
    const atif = await cli("export", "--atif", id!);
    const md = await cli("export", "--md", id!);
    damage(dbFile, "middle");
    const r = await cli("storage", "repair");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`STORAGE_REPAIRED sessions=1 turns=\\d+ rows=${committed.length} `));
    expect(r.stdout).not.toMatch(/^ {4}- /m); // no gaps: every row came from rows.jsonl exactly
    expect(dbRows(id!)).toEqual(committed);
    expect((await cli("export", "--atif", id!)).stdout).toBe(atif.stdout);
    expect((await cli("export", "--md", id!)).stdout.replace(/^exported: .*$/m, "")).toBe(md.stdout.replace(/^exported: .*$/m, ""));
  }, 300_000);
});
