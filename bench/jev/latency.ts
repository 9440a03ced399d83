/**
 * The Jev layer's cost on the critical path (docs/jev.md "Measure"), in process against the fake System
 * One on loopback: point 1's advisor (the real points/permission.ts behind a stand-in permissions service)
 * per residual ask, in shadow (must be ~0: the call runs in the background) and in act at 0 ms and 300 ms
 * endpoint latency; and the bytes of a state at the cap (a 200 KB output head/tail truncated).
 *   node dist/bench/jev/latency.js [--runs 30]
 */
import os from "node:os";
import fs from "node:fs";
import path from "node:path";
import { startFakeSystemOne } from "../../test/kit/fakes/systemone-server.js";
import { resolveJevConfig } from "../../extensions/jev/config.js";
import { createService } from "../../extensions/jev/service.js";
import { createLog } from "../../extensions/jev/log.js";
import { install } from "../../extensions/jev/points/permission.js";
import { fitState } from "../../extensions/jev/state.js";
import type { ConfigLayer } from "../../kernel/config.js";
import type { ExtensionContext } from "../../kernel/api.js";
import type { PermissionAdvisor } from "../../extensions/permissions/api.js";
import type { ToolCallContext } from "../../extensions/engine/api.js";

const runs = Number(process.argv[process.argv.indexOf("--runs") + 1]) || 30;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p90 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)]!;

async function advisorFor(mode: "shadow" | "act", url: string, dir: string): Promise<PermissionAdvisor> {
  const layers: ConfigLayer[] = [
    { name: "global", value: { jev: { enabled: true } } },
    { name: "project", value: { jev: { enabled: true, permissions: mode } } },
  ];
  const cfg = resolveJevConfig(layers, { OC_JEV_ENDPOINT: url });
  const jev = createService(cfg, createLog((s) => path.join(dir, s), () => undefined));
  let advisor: PermissionAdvisor | undefined;
  const ctx = {
    paths: { project: dir, home: os.homedir() },
    services: {
      tryGet: (n: string) =>
        n === "permissions" ? { addAdvisor: (a: PermissionAdvisor) => (advisor = a) } : n === "engine" ? { hooks: { permissionAnswered: { tap: () => undefined } } } : undefined,
    },
  } as unknown as ExtensionContext;
  install(ctx, jev);
  return advisor!;
}

function call(i: number, dir: string): ToolCallContext {
  return {
    call: { id: `c${i}`, name: "bash", input: { command: `echo ${i} > out-${i}.txt` } },
    cwd: dir,
    signal: new AbortController().signal,
    session: { info: { id: "bench", cwd: dir, overrides: {} }, rows: [{ role: "user", text: "write the files" }], ext: new Map() },
  } as unknown as ToolCallContext;
}

const decision = { action: "ask" as const, reason: "bash * ask", rule: "bash * ask", layer: "project", residual: true };

async function main(): Promise<void> {
  const fake = await startFakeSystemOne();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "oc-jev-bench-"));
  const safe = { destructive: { type: "noul", noul: 0.02 }, egress: { type: "noul", noul: 0.01 }, reversible: { type: "score", score: 1.9 }, blast_radius: { type: "choice", choice: "project" } };
  console.log(`node ${process.version}, ${os.cpus().length} CPUs, load ${os.loadavg()[0]!.toFixed(2)}; ${runs} asks per case`);
  for (const [mode, latency] of [["shadow", 0], ["shadow", 300], ["act", 0], ["act", 300]] as const) {
    fake.respond(() => ({ answers: safe as never, latencyMs: latency }));
    const advise = await advisorFor(mode, fake.url, dir);
    const times: number[] = [];
    let allowed = 0;
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      const a = await advise(call(i, dir), decision);
      times.push(performance.now() - t0);
      if (a?.action === "allow") allowed += 1;
      if (mode === "shadow") await new Promise((r) => setTimeout(r, latency + 20));
    }
    console.log(`point 1 ${mode.padEnd(6)} endpoint ${String(latency).padStart(3)} ms: added per ask median ${median(times).toFixed(2)} ms, p90 ${p90(times).toFixed(2)} ms (allowed without the prompt: ${allowed}/${runs})`);
  }
  for (const kb of [10, 48, 200, 1000]) {
    const state = { command: "npm test", exit_code: 1, output: "x".repeat(kb * 1024) };
    const f = fitState(state);
    console.log(`state with ${kb} KB output: ${f.bytes} bytes sent${f.truncated ? " (head/tail truncated)" : ""}`);
  }
  await fake.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
void main();
