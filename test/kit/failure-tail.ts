/**
 * A vitest reporter that repeats, as the very last lines of the run, which tests failed and the first line of
 * each error. CI keeps only the tail of a long log: the default reporter's failure list scrolls out of it.
 */
import type { Reporter, TestModule } from "vitest/node";

type Module = TestModule;

export default class FailureTail implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<Module>, unhandled: ReadonlyArray<{ message?: string }>): void {
    const lines: string[] = [];
    for (const m of modules) {
      for (const t of m.children.allTests()) {
        const r = t.result();
        if (r.state !== "failed") continue;
        const first = (r.errors?.[0]?.message ?? "").split("\n")[0]!.slice(0, 300);
        lines.push(`FAILED ${m.moduleId.replace(process.cwd() + "/", "")} > ${t.fullName}: ${first}`);
      }
      for (const e of m.errors()) lines.push(`FAILED ${m.moduleId.replace(process.cwd() + "/", "")} (file): ${(e.message ?? "").split("\n")[0]!.slice(0, 300)}`);
    }
    for (const e of unhandled) lines.push(`UNHANDLED: ${(e.message ?? "").split("\n")[0]!.slice(0, 300)}`);
    if (lines.length) process.stdout.write(`\n${lines.join("\n")}\n`);
  }
}
