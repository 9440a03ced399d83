/**
 * The shell guard's corpus figures and speed:
 *   node dist/bench/shell-guard/guard-bench.js [--module <classify.js>] [--floor <file>] [--guard <file>] [--rounds 5]
 * Prints the floor corpus (lines, wrapped variants, denies), the guard corpus (lines, asks), the
 * near-misses (lines, asks: should be 0) and the mean time per classify over every command of the
 * corpora. --module measures another build of classify.js (e.g. an older one) on the same corpora.
 */
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { readLines, readGuardCorpus, wrapVariants } from "./corpus.js";
import type { Classification, ClassifyOptions } from "../../extensions/shell-guard/api.js";

type ClassifyFn = (command: string, opts: ClassifyOptions) => Promise<Classification>;

const here = path.dirname(fileURLToPath(import.meta.url));
// dist/bench/shell-guard -> the repo root
const root = path.resolve(here, "..", "..", "..");
const opts: ClassifyOptions = { home: "/home/u", project: "/work/p", cwd: "/work/p" };

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<void> {
  const modPath = path.resolve(arg("--module") ?? path.join(here, "..", "..", "extensions", "shell-guard", "classify.js"));
  const rounds = Number(arg("--rounds") ?? 5);
  const mod = (await import(pathToFileURL(modPath).href)) as { classifyCommand: ClassifyFn };
  const classify = mod.classifyCommand;
  const floor = readLines(path.resolve(arg("--floor") ?? path.join(root, "test", "fixtures", "floor-corpus.txt")));
  const wrapped = floor.flatMap((l) => wrapVariants(l).map((v) => v.command));
  const guard = readGuardCorpus(path.resolve(arg("--guard") ?? path.join(root, "test", "fixtures", "guard-corpus.txt")));
  const count = async (cmds: string[], what: "deny" | "ask"): Promise<number> => {
    let n = 0;
    for (const c of cmds) {
      const r = await classify(c, opts);
      // "ask" here is the guard's own ask (a guard segment), not a plain segment's "the rules decide"
      if (what === "deny" ? r.verdict === "deny" : r.verdict !== "deny" && r.segments.some((s) => s.kind === "guard")) n++;
    }
    return n;
  };
  const asks = guard.ask.map((a) => a.command);
  const all = [...floor, ...wrapped, ...asks, ...guard.noAsk];
  await classify("true", opts); // load the grammar outside the timing
  for (const c of all) await classify(c, opts); // warm up
  const t0 = process.hrtime.bigint();
  const cpu0 = process.cpuUsage();
  let best = Infinity;
  for (let r = 0; r < rounds; r++) {
    const c0 = process.cpuUsage();
    for (const c of all) await classify(c, opts);
    const c1 = process.cpuUsage(c0);
    best = Math.min(best, (c1.user + c1.system) / all.length);
  }
  const us = Number(process.hrtime.bigint() - t0) / 1000 / (rounds * all.length);
  // CPU time too, and the best round's: on a shared machine the wall clock also counts other processes' turns
  const cpu = process.cpuUsage(cpu0);
  const cpuUs = (cpu.user + cpu.system) / (rounds * all.length);
  console.log(`module: ${path.relative(root, modPath)}`);
  console.log(`floor corpus: ${floor.length} lines, ${await count(floor, "deny")} deny`);
  console.log(`floor wrapped: ${wrapped.length} variants, ${await count(wrapped, "deny")} deny`);
  console.log(`guard corpus: ${asks.length} lines, ${await count(asks, "ask")} ask, ${await count(asks, "deny")} deny`);
  console.log(`near-misses: ${guard.noAsk.length} lines, ${await count(guard.noAsk, "ask")} ask, ${await count(guard.noAsk, "deny")} deny`);
  console.log(`classify: ${all.length} commands x ${rounds} rounds, mean ${us.toFixed(1)} us wall, ${cpuUs.toFixed(1)} us CPU per command (best round ${best.toFixed(1)} us CPU)`);
}

await main();
