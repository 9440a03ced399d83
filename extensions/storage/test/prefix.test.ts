/**
 * The prefix property under kill -9: a child writes steps through the real store and is SIGKILLed at a
 * random moment; what is on disk must be rows 1..k of each session with no gap, every row's session
 * present, events 1..m with no gap, and no event ahead of the row it refers to.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import fs from "node:fs";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { checkPrefix, tempDir } from "./helpers.js";

const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures", "writer-child.mjs");
const tmp = tempDir("oc-prefix-");
afterAll(() => tmp.cleanup());

function runAndKill(file: string, killAfterMs: number): Promise<{ signal: NodeJS.Signals | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD, file], { stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.stdout.on("data", (d: Buffer) => {
      if (d.toString().includes("started")) setTimeout(() => child.kill("SIGKILL"), killAfterMs);
    });
    child.on("error", reject);
    child.on("close", (_code, signal) => resolve({ signal, stderr }));
  });
}

describe("kill -9 leaves an in-order prefix", () => {
  it("at 8 random moments", async () => {
    const seen: number[] = [];
    for (let i = 0; i < 8; i++) {
      const file = path.join(tmp.dir, `kill-${i}.db`);
      const r = await runAndKill(file, Math.floor(Math.random() * 150));
      expect(r.signal).toBe("SIGKILL"); // it really died mid-run, not at the end
      expect(r.stderr).toBe("");
      const { rows } = checkPrefix(file);
      expect(rows.get("A")).toBeGreaterThan(0);
      seen.push(rows.get("A")!);
    }
    // the kills landed at different points (random moments, not one fixed spot)
    expect(new Set(seen).size).toBeGreaterThan(1);
    process.stdout.write(`prefix drill: rows of session A on disk at each kill: ${seen.join(", ")}\n`);
  });

  it("the check itself catches a gap and an orphan (control)", () => {
    // the kills land at random moments: use a database and session with rows enough to open a gap in
    let picked: { file: string; session: string; seq: number } | undefined;
    for (const f of fs.readdirSync(tmp.dir).filter((n) => /^kill-\d+\.db$/.test(n))) {
      const db = new Database(path.join(tmp.dir, f), { readonly: true });
      const r = db.prepare("SELECT session_id AS s, COUNT(*) AS n, MIN(seq) AS lo FROM rows GROUP BY session_id ORDER BY n DESC LIMIT 1").get() as { s: string; n: number; lo: number } | undefined;
      db.close();
      if (r && r.n >= 3) {
        picked = { file: path.join(tmp.dir, f), session: r.s, seq: r.lo + 1 };
        break;
      }
    }
    expect(picked, "no kill left 3 rows of one session").toBeDefined();
    const copy = path.join(tmp.dir, "control.db");
    // after a kill -9 committed pages may live only in the WAL: copy it with the database
    fs.copyFileSync(picked!.file, copy);
    if (fs.existsSync(`${picked!.file}-wal`)) fs.copyFileSync(`${picked!.file}-wal`, `${copy}-wal`);
    const db = new Database(copy);
    db.pragma("foreign_keys = OFF");
    expect(db.prepare("DELETE FROM rows WHERE session_id = ? AND seq = ?").run(picked!.session, picked!.seq).changes).toBe(1);
    db.close();
    expect(() => checkPrefix(copy)).toThrow();
    const db2 = new Database(copy);
    db2.prepare("DELETE FROM rows WHERE session_id = ?").run(picked!.session);
    db2.pragma("foreign_keys = OFF");
    db2.prepare("INSERT INTO rows VALUES ('nobody', 1, 1, 0, 'user', '{}')").run();
    db2.close();
    expect(() => checkPrefix(copy)).toThrow();
  });
});
