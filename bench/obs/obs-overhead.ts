/**
 * bench/obs/obs-overhead: what operations cost per step on the 200-step marathon (bench/ledger/marathon-fixture.ts):
 * the run with nothing on, with metrics on (`--metrics-out`), with OpenTelemetry on (OC_ENABLE_TELEMETRY=1,
 * batching exporter to a local OTLP/HTTP stand-in that answers 200), and with the log file at info and at
 * debug. The cases run round-robin (`--repeats` rounds) so a load spike lands on all alike; each case's
 * figure is the median over rounds of its mean engine overhead and mean step time per step.
 *
 *   npm run build && node dist/bench/obs/obs-overhead.js [--steps 200] [--kb 8] [--repeats 3]
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { runMarathon, type MarathonOptions } from "../ledger/marathon-fixture.js";

interface Case {
  name: string;
  opts: (dir: string) => Partial<MarathonOptions>;
}

async function collector(): Promise<{ url: string; bodies: () => number; close: () => Promise<void> }> {
  let n = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      n++;
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, bodies: () => n, close: () => new Promise((r) => server.close(() => r())) };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { steps: { type: "string", default: "200" }, kb: { type: "string", default: "8" }, repeats: { type: "string", default: "3" } }, strict: true });
  const steps = Number(values.steps);
  const kb = Number(values.kb);
  const otlp = await collector();
  const cases: Case[] = [
    { name: "off", opts: () => ({}) },
    { name: "metrics on", opts: (d) => ({ args: ["--metrics-out", path.join(d, "metrics.prom")] }) },
    { name: "otel on", opts: () => ({ env: { OC_ENABLE_TELEMETRY: "1", OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, OTEL_METRIC_EXPORT_INTERVAL: "1000" } }) },
    { name: "log file info", opts: (d) => ({ userConfig: { obs: { log_level: "info", log_file: path.join(d, "oc.log") } } }) },
    { name: "log file debug", opts: (d) => ({ userConfig: { obs: { log_level: "debug", log_file: path.join(d, "oc.log") } } }) },
  ];
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] ?? 0;
  const got = new Map<string, { overhead: number[]; step: number[]; exit: Set<number | null>; extra: string[] }>();
  for (let round = 0; round < Number(values.repeats); round++) {
    for (const c of cases) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "oc-obs-bench-"));
      const r = await runMarathon({ steps, kb, ...c.opts(dir) });
      const rows = r.probe.slice(1);
      const g = got.get(c.name) ?? { overhead: [], step: [], exit: new Set(), extra: [] };
      g.overhead.push(mean(rows.map((x) => x.overhead)));
      g.step.push(mean(rows.map((x) => x.ms)));
      g.exit.add(r.code);
      if (round === 0) {
        const log = path.join(dir, "oc.log");
        if (fs.existsSync(log)) g.extra.push(`log ${(fs.statSync(log).size / 1024).toFixed(0)} KB`);
        const prom = path.join(dir, "metrics.prom");
        if (fs.existsSync(prom)) g.extra.push(`metrics file ${fs.readFileSync(prom, "utf8").split("\n").filter((l) => l && !l.startsWith("#")).length} samples`);
      }
      got.set(c.name, g);
      fs.rmSync(r.tmp, { recursive: true, force: true });
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  const base = got.get("off")!;
  const b0 = median(base.overhead);
  const s0 = median(base.step);
  const out = [`obs-overhead: ${steps} steps x ${kb} KB, ${values.repeats} rounds round-robin, node ${process.version}, load ${os.loadavg()[0]!.toFixed(2)} on ${os.cpus().length} CPUs`];
  for (const c of cases) {
    const g = got.get(c.name)!;
    const o = median(g.overhead);
    const s = median(g.step);
    out.push(`${c.name.padEnd(15)} overhead/step ${o.toFixed(2)} ms (${(o - b0 >= 0 ? "+" : "")}${(o - b0).toFixed(2)}, x${(o / b0).toFixed(3)})  step ${s.toFixed(2)} ms (x${(s / s0).toFixed(3)})  exit ${[...g.exit].join(",")}${g.extra.length ? "  " + g.extra.join(", ") : ""}`);
  }
  out.push(`otlp stand-in received ${otlp.bodies()} requests`);
  await otlp.close();
  process.stdout.write(out.join("\n") + "\n");
}

main().catch((e: unknown) => {
  process.stderr.write(`bench/obs/obs-overhead: ${String(e)}\n`);
  process.exitCode = 1;
});
