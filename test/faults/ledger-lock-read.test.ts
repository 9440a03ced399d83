/**
 * Issue 28: another process holds oceancode.db so that nobody else can read it (SQLITE_BUSY past the
 * busy timeout). Each command says the database is locked by that process (its pid) and what to do —
 * never "no earlier session", "no session" or "fix its permissions" — and changes nothing: repair moves
 * no file aside. Once the holder lets go, the same run -c continues the session.
 */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { makeSandbox, runCliAsync } from "../kit/cli.js";
import { holdDb } from "./db-holder.js";

const sb = makeSandbox("oc-lock-read-");
afterAll(() => sb.cleanup());
const data = path.join(sb.home, ".local", "share", "oceancode");
const dbFile = path.join(data, "oceancode.db");
const cli = (...args: string[]) => runCliAsync(args, { cwd: sb.project, env: sb.env, timeoutMs: 60_000 });

describe("a database locked by another process", () => {
  it("run -c, run --session, doctor and storage repair name the holder; nothing changes; after it lets go, run -c goes on", async () => {
    const first = await cli("run", "--model", "scripted/echo", "first");
    expect(first.code, first.stderr).toBe(0);
    const id = /session: (ses_\w+)/.exec(first.stderr)![1]!;
    const holder = await holdDb(dbFile, "all");
    let results;
    try {
      results = await Promise.all([cli("run", "-c", "second"), cli("run", "--session", id, "second"), cli("doctor", "--storage"), cli("storage", "repair")]);
    } finally {
      await holder.stop();
    }
    const [cont, bySession, doctor, repair] = results;
    const locked = `${dbFile} is locked by process pid ${holder.pid}`;
    for (const r of [cont, bySession]) {
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(locked);
      expect(r.stderr).toContain("wait for it to finish or stop it");
      expect(r.stderr).not.toMatch(/no earlier session|no session '/);
    }
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toMatch(new RegExp(`FAIL storage ${dbFile}: .*cannot be checked: ${locked.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
    expect(doctor.stdout).not.toContain("fix its permissions");
    expect(repair.code).toBe(1);
    expect(repair.stderr).toContain(locked);
    expect(fs.readdirSync(data).filter((f) => f.includes(".damaged-") || f.includes(".repair-"))).toEqual([]);

    const after = await cli("run", "-c", "third");
    expect(after.code, after.stderr).toBe(0);
    expect(after.stderr).toContain(`session: ${id}`);
    const db = new Database(dbFile, { readonly: true });
    const prompts = (db.prepare("SELECT json FROM rows WHERE session_id = ? AND role = 'user' ORDER BY seq").all(id) as Array<{ json: string }>).map((r) => (JSON.parse(r.json) as { text: string }).text);
    db.close();
    expect(prompts).toEqual(["first", "third"]); // the locked attempts stored nothing, lost nothing
  }, 90_000);
});
