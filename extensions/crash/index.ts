/**
 * The crash extension: the process's last resort. An uncaught exception or unhandled rejection writes one
 * crash report to `<state dir>/crash/` (report.ts; everything through the shared redactor, oceancode/api/obs),
 * flushes the log, says where the report is on stderr and exits CRASH_EXIT_CODE. A failure while writing
 * the report, or a second crash meanwhile, still exits with that code.
 *
 * Not installed inside a test runner's own process (vitest's workers boot kernels in-process: a crash
 * handler there would end the runner), unless OC_CRASH_CAPTURE=1; OC_CRASH_CAPTURE=0 turns it off.
 */
import { oceancodeVersion, type ExtensionContext } from "../../kernel/api.js";
import { type ObsService } from "../obs/api.js";
import { redactorFor } from "../obs/kit.js";
import { CRASH_EXIT_CODE, type CrashContext, type CrashService } from "./api.js";
import { crashDir } from "./kit/shared.js";
import { buildReport, writeReport } from "./report.js";


let installed: { exception: (e: unknown) => void; rejection: (e: unknown) => void } | undefined;

function firstLine(text: string): string {
  return text.split("\n")[0]!.slice(0, 200);
}

export default {
  activate(ctx: ExtensionContext) {
    const dir = crashDir(ctx.paths.stateDir);
    const sources: CrashContext[] = [];
    const service: CrashService = { dir, addContext: (s) => void sources.push(s) };
    ctx.provide("crash", service);
    const setting = ctx.env.OC_CRASH_CAPTURE;
    if (setting === "0" || installed) return;
    if (process.env.VITEST && setting !== "1") return;

    let crashing = false;
    const die = (kind: string) => (error: unknown) => {
      if (crashing) {
        // a crash while the report was being written: out at once
        process.exit(CRASH_EXIT_CODE);
      }
      crashing = true;
      const obs = ctx.services.tryGet("obs");
      // the shared redactor as a plain function over this process's environment: it runs even when the
      // obs service is what broke
      const redact = redactorFor(ctx.env);
      let where: string;
      try {
        const sessions = new Set<string>();
        for (const s of sources) for (const id of s.sessions?.() ?? []) sessions.add(id);
        let logTail: string[] = [];
        try {
          logTail = obs?.recentLines(50) ?? [];
        } catch {
          logTail = [];
        }
        const report = buildReport({
          kind,
          error,
          version: oceancodeVersion(),
          argv: process.argv.slice(2),
          dirs: ctx.introspect().extensions.map((e) => ({ id: e.qualifiedId, dir: e.dir })),
          sessions: [...sessions],
          logTail,
          redact,
        });
        where = `crash report: ${writeReport(dir, report)}`;
      } catch (e) {
        where = `the crash report could not be written to ${dir} (${redact((e as Error)?.message ?? String(e))})`;
      }
      try {
        obs?.flush();
      } catch {
        // flushing is best effort
      }
      const msg = error instanceof Error ? error.message : String(error);
      try {
        process.stderr.write(`oceancode: crashed (${kind}): ${redact(firstLine(msg))}\noceancode: ${where}; oceancode doctor lists it\n`);
      } catch {
        // stderr is gone: the exit code still says it
      }
      process.exit(CRASH_EXIT_CODE);
    };
    installed = { exception: die("uncaughtException"), rejection: die("unhandledRejection") };
    process.on("uncaughtException", installed.exception);
    process.on("unhandledRejection", installed.rejection);
  },
  deactivate() {
    if (!installed) return;
    process.off("uncaughtException", installed.exception);
    process.off("unhandledRejection", installed.rejection);
    installed = undefined;
  },
};
