/**
 * Crash capture through the compiled CLI in a throwaway HOME: a user-tier extension whose activate
 * schedules a throw (and one an unhandled rejection) in the middle of a session's turn. The process exits
 * 70, leaves one redacted report naming the extension and the open session, keeps only the newest 20,
 * and `oceancode doctor` lists the report (and the turn the crash left running). A crash whose report
 * cannot be written still exits 70.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeSandbox, runCli, runCliAsync } from "../../../test/kit/cli.js";
import { CRASH_EXIT_CODE, CRASH_KEEP, type CrashReport } from "../api.js";
import { readCrashReports } from "../kit.js";

const CANARY = "canary-7f3a9c1e55d2b4";
const URL_CANARY = "pw-canary-91b2";
const sb = makeSandbox("oc-crash-");
afterAll(() => sb.cleanup());
const crashDir = path.join(sb.home, ".local", "state", "oceancode", "crash");

// crashes only when BOOM is set, a little after the session starts (its turn is waiting on the model then)
sb.write(".oceancode/extensions/boom/manifest.json", JSON.stringify({ id: "boom", version: "1.0.0", kernel: "^0.1.0", main: "index.js", requires: ["engine"], activation: ["onSession"] }), "home");
sb.write(
  ".oceancode/extensions/boom/index.js",
  `export default {
    activate(ctx) {
      const how = ctx.env.BOOM;
      if (!how) return;
      ctx.services.get("engine").hooks.sessionStart.tap({ name: "boom" }, () => {
        setTimeout(function boomTimer() {
          const e = new Error("boom: key " + ctx.env.OC_TEST_API_KEY + " at postgres://me:${URL_CANARY}@db.example/x");
          if (how === "reject") Promise.reject(e);
          else throw e;
        }, 200);
      });
    },
  };`,
  "home",
);
sb.write("slow.json", JSON.stringify({ steps: [{ text: "slow answer", delay_ms: 20_000 }] }));

const env = (extra: NodeJS.ProcessEnv = {}) => ({ ...sb.env, OC_TEST_API_KEY: CANARY, ...extra });
const crashRun = (how: string, extra: NodeJS.ProcessEnv = {}) =>
  runCliAsync(["--dir", sb.project, "run", "--format", "json", "--model", "scripted/slow.json", `crash by ${how} with ${CANARY}`], { cwd: sb.project, env: env({ BOOM: how, ...extra }), timeoutMs: 30_000 });

function noCanary(text: string): void {
  expect(text).not.toContain(CANARY);
  expect(text).not.toContain(URL_CANARY);
}

describe("crash capture", () => {
  it("an uncaught exception: exit 70, one redacted report (extension, session, version), the newest 20 kept, doctor lists it", async () => {
    // 20 older reports already there: the new one pushes the oldest out
    fs.mkdirSync(crashDir, { recursive: true });
    const old: CrashReport = { time: "2020-01-01T00:00:00.000Z", kind: "uncaughtException", oceancodeVersion: "0.0.1", nodeVersion: "v20", platform: "x", pid: 1, argv: [], error: { name: "Error", message: "old", stack: "" }, sessions: [], logTail: [] };
    for (let i = 0; i < CRASH_KEEP; i++) fs.writeFileSync(path.join(crashDir, `crash-2020-01-01T00-00-${String(i).padStart(2, "0")}-000Z-1.json`), JSON.stringify({ ...old, time: `2020-01-01T00:00:${String(i).padStart(2, "0")}.000Z` }));

    const r = await crashRun("throw");
    expect(r.code, r.stderr).toBe(CRASH_EXIT_CODE);
    const sessionId = (r.stdout.split("\n").map((l) => { try { return JSON.parse(l) as { type?: string; sessionId?: string }; } catch { return {}; } }).find((e) => e.type === "session") ?? {}).sessionId;
    expect(sessionId).toMatch(/^ses_/);
    const files = fs.readdirSync(crashDir).filter((n) => n.endsWith(".json"));
    expect(files).toHaveLength(CRASH_KEEP);
    expect(files).not.toContain("crash-2020-01-01T00-00-00-000Z-1.json"); // the oldest went
    const [newest] = readCrashReports(crashDir);
    expect(r.stderr).toContain(`oceancode: crash report: ${newest!.file}`);
    const raw = fs.readFileSync(newest!.file, "utf8");
    noCanary(raw);
    noCanary(r.stderr);
    const rep = newest!.report;
    expect(rep.kind).toBe("uncaughtException");
    expect(rep.extension).toBe("boom");
    expect(rep.sessions).toEqual([sessionId]);
    expect(rep.oceancodeVersion).toBe((JSON.parse(fs.readFileSync(path.resolve("package.json"), "utf8")) as { version: string }).version);
    expect(rep.nodeVersion).toBe(process.version);
    expect(rep.platform).toBe(`${process.platform}-${process.arch}`);
    expect(rep.error.message).toBe("boom: key *** at postgres://me:***@db.example/x");
    expect(rep.error.stack).toContain("boomTimer");
    expect(rep.argv).toEqual(["--dir", sb.project, "run", "--format", "json", "--model", "scripted/slow.json", "crash by throw with ***"]);
    expect(Array.isArray(rep.logTail)).toBe(true);
    expect((fs.statSync(newest!.file).mode & 0o777).toString(8)).toBe("600");

    const d = runCli(["--dir", sb.project, "doctor"], { env: env(), cwd: sb.project });
    const lines = d.stdout.split("\n");
    expect(lines).toContain(`warn crash ${rep.time}: extension boom: boom: key *** at postgres://me:***@db.example/x (${newest!.file})`);
    expect(lines.some((l) => l.startsWith(`info crash reports: ${CRASH_KEEP} report(s) in ${crashDir}`))).toBe(true);
    // the crash left the turn running: doctor names the session and how to resume it
    expect(lines.some((l) => l.startsWith(`warn orphaned session ${sessionId}: turn 1 was left running by a process that is gone`) && l.includes(`oceancode run --resume ${sessionId} <message>`))).toBe(true);
    noCanary(d.stdout);
    expect(d.code).toBe(0); // a past crash is a warning, not a failing check
  });

  it("an unhandled rejection: exit 70 and a report of its own kind", async () => {
    const before = readCrashReports(crashDir).length;
    const r = await crashRun("reject");
    expect(r.code, r.stderr).toBe(CRASH_EXIT_CODE);
    const [newest] = readCrashReports(crashDir);
    expect(newest!.report.kind).toBe("unhandledRejection");
    expect(newest!.report.extension).toBe("boom");
    expect(readCrashReports(crashDir).length).toBe(Math.min(CRASH_KEEP, before + 1));
    noCanary(fs.readFileSync(newest!.file, "utf8"));
  });

  it("a report that cannot be written: still exit 70, and stderr says where it failed", async () => {
    const state = path.join(sb.home, "state-is-a-file");
    fs.writeFileSync(state, "x");
    const r = await crashRun("throw", { XDG_STATE_HOME: state });
    expect(r.code).toBe(CRASH_EXIT_CODE);
    expect(r.stderr).toContain(`oceancode: the crash report could not be written to ${path.join(state, "oceancode", "crash")}`);
    noCanary(r.stderr);
  });
});
