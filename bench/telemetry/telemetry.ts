/**
 * bench/telemetry/telemetry: the per-step cost of OpenTelemetry export. `oceancode run` on the scripted model, N
 * steps with one `read` tool call each, telemetry off and on (OC_ENABLE_TELEMETRY=1, batching exporter to
 * the OTLP/HTTP collector stand-in of test/kit/fakes in this process), alternated so a load spike lands on both.
 *
 *   npm run build && node dist/bench/telemetry/telemetry.js [--steps 200] [--runs 5]
 *
 * Per step = (wall time of the N-step run - wall time of a 1-step run) / (N - 1), median over runs, so the
 * process start is left out. Prints off, on, the difference per step, spans and bytes the collector got.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { homeEnv } from "../../test/kit/fakes/home-env.js";
import { startOtlpCollector } from "../../test/kit/fakes/otlp-collector.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const CLI = path.join(ROOT, "dist", "hosts", "cli", "main.js");
const { values } = parseArgs({ options: { steps: { type: "string", default: "200" }, runs: { type: "string", default: "5" } } });
const STEPS = Math.max(2, Number(values.steps));
const RUNS = Math.max(1, Number(values.runs));

const root = fs.mkdtempSync(path.join(os.tmpdir(), "oc-bench-otel-"));
const home = path.join(root, "home");
const project = path.join(root, "project");
fs.mkdirSync(home, { recursive: true });
fs.mkdirSync(project, { recursive: true });
fs.writeFileSync(path.join(project, "a.txt"), "x".repeat(2000));
const script = (n: number) => JSON.stringify({ steps: [{ repeat: n - 1, text: "step {{n}}", tool_calls: [{ name: "read", input: { file_path: "a.txt" } }] }, { text: "done" }] });
fs.writeFileSync(path.join(project, "long.json"), script(STEPS));
fs.writeFileSync(path.join(project, "one.json"), JSON.stringify({ steps: [{ text: "done" }] }));

const col = await startOtlpCollector({ keep: 500 });
let bytes = 0;

function run(file: string, on: boolean): Promise<number> {
  const env = { ...homeEnv(home, path.join(root, "managed.json")), OC_MAX_STEPS: String(STEPS + 10), ...(on ? { OC_ENABLE_TELEMETRY: "1", OTEL_EXPORTER_OTLP_ENDPOINT: col.url } : {}) };
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, "--dir", project, "run", "--auto", "--model", `scripted/${file}`, "go"], { cwd: project, env, stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve(performance.now() - t0) : reject(new Error(`run exited ${code}: ${err}`))));
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const per: Record<"off" | "on", number[]> = { off: [], on: [] };
let spans = 0;
await run("one.json", false); // warm-up: the session database exists from here on
for (let i = 0; i < RUNS; i++) {
  for (const mode of i % 2 === 0 ? (["off", "on"] as const) : (["on", "off"] as const)) {
    const on = mode === "on";
    const before = col.count;
    const one = await run("one.json", on);
    const long = await run("long.json", on);
    per[mode].push((long - one) / (STEPS - 1));
    if (on) {
      const got = col.requests.filter((r) => r.index >= before);
      bytes += got.reduce((n, r) => n + r.raw.length, 0);
      spans += got.flatMap((r) => ((r.body.resourceSpans as Array<{ scopeSpans: Array<{ spans: unknown[] }> }> | undefined) ?? []).flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans))).length;
    }
  }
}
await col.close();
fs.rmSync(root, { recursive: true, force: true });

const off = median(per.off);
const on = median(per.on);
process.stdout.write(`node ${process.version}, ${os.cpus()[0]?.model ?? "cpu"} x${os.cpus().length}, load ${os.loadavg()[0]!.toFixed(2)}\n`);
process.stdout.write(`steps per run ${STEPS}, runs ${RUNS} (median)\n`);
process.stdout.write(`per step, telemetry off: ${off.toFixed(3)} ms\n`);
process.stdout.write(`per step, telemetry on:  ${on.toFixed(3)} ms\n`);
process.stdout.write(`overhead per step: ${(on - off).toFixed(3)} ms (${((on / off - 1) * 100).toFixed(1)}%)\n`);
process.stdout.write(`collector: ${spans} spans, ${(bytes / 1024).toFixed(0)} KB over ${RUNS} on-runs (~${Math.round(spans / RUNS / STEPS)} spans per step)\n`);
