/**
 * A reader that goes away (`| head -1`, `| true`) ends a command quietly: exit 141 (128 + SIGPIPE, as a POSIX
 * tool the pipe stopped), nothing on stderr about EPIPE, and for `run` the session stored whole (the ledger's
 * SESSION.md, transcript and index, the database's rows) and continuable. The compiled CLI behind a real
 * shell pipe; the pipeline's own status is read from bash's PIPESTATUS.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, makeSandbox, runCliAsync, type Sandbox } from "../kit/cli.js";
import { ledgerRoot, readIndex, readTurn } from "../kit/stored.js";
import { storedRows } from "./helpers.js";

let sb: Sandbox;
beforeAll(() => {
  sb = makeSandbox("oc-epipe-");
  // the model's first step waits (a bash loop) until the reader has gone, so the writes after it meet a closed
  // pipe; the next answer comes after a pause, which the EPIPE's abort cuts short
  sb.write(".oceancode/oceancode.json", JSON.stringify({ permission_mode: "bypassPermissions" }));
  const wait = { name: "bash", input: { command: "for i in $(seq 400); do [ -e reader-gone ] && exit 0; sleep 0.05; done; exit 1", timeout: 30_000 } };
  sb.write("s.json", JSON.stringify({ steps: [{ tool_calls: [wait] }, { text: "an answer the reader never sees", delay_ms: 2000 }], after: { text: "second answer" } }));
});
afterAll(() => sb.cleanup());

/** `<oceancode args> | <reader>` in bash: the CLI's exit status, its stderr, and what the reader printed. */
function piped(args: string[], reader: string): { status: number; stderr: string; out: string } {
  const quoted = args.map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(" ");
  const errFile = path.join(sb.project, `stderr-${Date.now()}.txt`);
  const r = spawnSync("bash", ["-c", `'${process.execPath}' '${CLI}' ${quoted} </dev/null 2>'${errFile}' | ${reader}; exit \${PIPESTATUS[0]}`], { cwd: sb.project, env: sb.env, encoding: "utf8", timeout: 60_000 });
  const stderr = fs.readFileSync(errFile, "utf8");
  fs.rmSync(errFile);
  return { status: r.status ?? -1, stderr, out: r.stdout };
}

const noCrash = (stderr: string) => {
  expect(stderr).not.toMatch(/EPIPE|Unhandled|internal error|\n\s+at /);
};

describe("EPIPE on stdout ends the command quietly", () => {
  it("run --format json | head -1: exit 141, the turn stopped and the session stored whole", async () => {
    const r = piped(["run", "--format", "json", "--model", "scripted/s.json", "explain the repo"], "{ head -1; touch reader-gone; }");
    expect(r.status, r.stderr).toBe(141);
    noCrash(r.stderr);
    const first = JSON.parse(r.out.trim()) as { type: string; sessionId: string };
    expect(first.type).toBe("session");
    const id = first.sessionId;
    expect(r.stderr).toContain(`session: ${id}`);

    // the ledger: SESSION.md, the turn's transcript with the prompt and the stop marker, the index
    const dir = path.join(ledgerRoot(sb), id);
    expect(fs.existsSync(path.join(dir, "SESSION.md"))).toBe(true);
    const turn = readTurn(sb, id, 1);
    expect(turn).toContain("explain the repo");
    expect(turn).toContain("· interrupted");
    expect(turn).not.toContain("an answer the reader never sees");
    expect(readIndex(sb, id).json[0]).toMatchObject({ turn: 1, reason: "aborted", interrupted: "user" });
    // the database holds the same rows
    const rows = storedRows(sb, id);
    expect(rows[0]).toMatchObject({ role: "user" });
    expect(JSON.stringify(rows[0]!.row)).toContain("explain the repo");
    expect(rows.some((x) => x.role === "note")).toBe(true);

    // and it continues like any session
    const next = await runCliAsync(["run", "--continue", "go on"], { cwd: sb.project, env: sb.env });
    expect(next.code, next.stderr).toBe(0);
    expect(next.stdout.trim().length).toBeGreaterThan(0);
    expect(readIndex(sb, id).json).toHaveLength(2);
  });

  it("sessions | true and jev status | true: exit 141, nothing on stderr", () => {
    for (const args of [["sessions"], ["jev", "status"]]) {
      const r = piped(args, "true");
      expect(r.status, `${args.join(" ")}: ${r.stderr}`).toBe(141);
      expect(r.stderr).toBe("");
    }
    // the same commands with a reader that stays: exit 0 and their output
    const ok = piped(["sessions"], "cat");
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.out).toContain("explain the repo");
  });
});
