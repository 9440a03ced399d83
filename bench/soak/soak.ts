/**
 * bench/soak/soak: the marathon fixture for N steps (bench/ledger/marathon-fixture.ts), written as a turns file that
 * bench/soak/soak-metrics judges: one `{"type":"step"}` line per step (wall ms, engine overhead, RSS, heap,
 * window gauge) and a closing `{"type":"run"}` line (exit code, requests, summary calls, refusals, and the
 * session's assistant and tool rows counted in the database after the run).
 *
 *   node dist/bench/soak/soak.js [--steps 1000] [--kb 8] [--out turns.jsonl]     (or STEPS=, TURNS_OUT=)
 *   node dist/bench/soak/soak-metrics.js turns.jsonl                             → SOAK_OK / SOAK_RED
 */
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import { runMarathon } from "../ledger/marathon-fixture.js";
import type { SoakLine } from "./soak-judge.js";

export async function soak(steps: number, kb: number, out: string): Promise<void> {
  const r = await runMarathon({ steps, kb });
  const session = r.probe[0]?.session ?? "";
  let assistant = 0;
  let tool = 0;
  const dbFile = path.join(r.data, "oceancode.db");
  if (session && fs.existsSync(dbFile)) {
    const db = new Database(dbFile, { readonly: true, fileMustExist: true });
    try {
      const count = (role: string) => (db.prepare("SELECT count(*) AS n FROM rows WHERE session_id = ? AND role = ?").get(session, role) as { n: number }).n;
      assistant = count("assistant");
      tool = count("tool");
    } finally {
      db.close();
    }
  }
  const lines: SoakLine[] = r.probe.map((p) => ({ type: "step", step: p.step, ms: p.ms, overhead: p.overhead, rss: p.rss, heap: p.heap, gauge: p.gauge }));
  lines.push({ type: "run", steps, exit: r.code, requests: r.requests, summary_calls: r.summaryCalls, refusals: r.refusals, assistant_rows: assistant, tool_rows: tool, session });
  fs.mkdirSync(path.dirname(path.resolve(out)), { recursive: true });
  fs.writeFileSync(out, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  fs.rmSync(r.tmp, { recursive: true, force: true });
}

const invoked = process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname);
if (invoked) {
  const { values } = parseArgs({ options: { steps: { type: "string" }, kb: { type: "string", default: "8" }, out: { type: "string" } }, strict: true });
  const steps = Number(values.steps ?? process.env.STEPS ?? 1000);
  const out = values.out ?? process.env.TURNS_OUT ?? "soak-turns.jsonl";
  soak(steps, Number(values.kb), out).then(
    () => process.stdout.write(`soak: ${steps} steps → ${out} (judge: node dist/bench/soak/soak-metrics.js ${out})\n`),
    (e: unknown) => {
      process.stderr.write(`bench/soak/soak: ${String(e)}\n`);
      process.exitCode = 1;
    },
  );
}
