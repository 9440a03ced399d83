/**
 * Support for the per-point tests of points 2, 3, 5 and 6:
 *   - testJev(): the layer's real JevService (createService over a resolved config: its HTTP client to the
 *     fake System One server, the wire adapter, the guard, the decision log in a temp folder), with each
 *     point's mode set by the test and the rows it records also kept in memory for assertions.
 *   - bootPoints(): a real kernel in process (compiled bundled extensions, the scripted model, the real
 *     tools, the ledger and the tideline), a stand-in ExtensionContext for "jev" over the kernel's
 *     services, and every model request recorded as sent (after every other modelRequest tap).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Sandbox } from "../../../test/kit/cli.js";
import { afterEachTest } from "../../../test/kit/file-fixtures.js";
import { startFakeSystemOne, type FakeSystemOne } from "../../../test/kit/fakes/systemone-server.js";
import { jevSandbox } from "./helpers.js";
import type { EngineService, ModelRequest, Row } from "../../engine/api.js";
import type { JevDecisionRow, JevMode, JevPoint, JevService } from "../api.js";
import { resolveJevConfig } from "../config.js";
import { createLog } from "../log.js";
import { createService } from "../service.js";
import type { ExtensionContext } from "../../../kernel/api.js";
import { bootCompiled, scriptedSandbox, type KernelLike } from "../../../test/kit/kernel-boot.js";

export interface TestJev extends JevService {
  rows: JevDecisionRow[];
  /** every ask, even one that failed */
  asks: number;
  /** wait until the background (shadow) asks have settled and at least `rows` rows are written (5 s at most) */
  idle(rows?: number): Promise<void>;
  modes: Partial<Record<JevPoint, JevMode>>;
}

export function testJev(opts: { url: string; modes?: Partial<Record<JevPoint, JevMode>>; thresholds?: Record<string, number>; model?: string; timeoutMs?: number }): TestJev {
  // the layer's own service (its HTTP client, wire adapter, state cap, injection guard and decision log)
  // over a resolved config: consent in both layers, the fake endpoint on loopback, the test's thresholds
  const cfg = resolveJevConfig(
    [
      { name: "user", value: { jev: { enabled: true, ...(opts.model ? { model: opts.model } : {}), ...(opts.thresholds ? { thresholds: opts.thresholds } : {}) } } },
      { name: "project", value: { jev: { enabled: true } } },
    ] as unknown as Parameters<typeof resolveJevConfig>[0],
    { OC_JEV_ENDPOINT: opts.url },
  );
  const logRoot = fs.mkdtempSync(path.join(os.tmpdir(), "oc-jevlog-"));
  const log = createLog((sid) => path.join(logRoot, sid), () => undefined);
  const real = createService(cfg, log);
  const pending = new Set<Promise<unknown>>();
  const svc: TestJev = {
    ...real,
    rows: [],
    asks: 0,
    modes: { ...(opts.modes ?? {}) },
    // the only thing the test sets by hand: each point's mode, as a config file would
    mode: (p) => svc.modes[p] ?? "off",
    ask(req) {
      svc.asks++;
      const p = real.ask(req);
      pending.add(p);
      void p.finally(() => pending.delete(p));
      return p;
    },
    record(row) {
      real.record(row);
      svc.rows.push({ type: "decision", at: Date.now(), ...row });
    },
    async idle(rows = 0) {
      const until = Date.now() + 5_000;
      do {
        while (pending.size) await Promise.all([...pending]);
        await new Promise((r) => setTimeout(r, 20));
      } while ((svc.rows.length < rows || pending.size) && Date.now() < until);
    },
  };
  return svc;
}


export type Step = { text?: string; tool_calls?: Array<{ name: string; input: Record<string, unknown> }>; usage?: { input?: number; output?: number } };

/** A model request as sent (after every other tap). */
export interface SentRequest {
  sessionStep: number;
  tools: string[];
  system: string[];
  rows: Row[];
}

export interface Booted {
  sb: Sandbox;
  kernel: KernelLike;
  engine: EngineService;
  requests: SentRequest[];
  /** a stand-in for the jev extension's context (id "jev"; the kernel's engine, skills, ledger, tideline) */
  ctx: ExtensionContext;
}

export async function bootPoints(steps: Step[], opts: { files?: Record<string, string>; config?: Record<string, unknown>; env?: NodeJS.ProcessEnv } = {}): Promise<Booted> {
  const sb = scriptedSandbox("oc-jevpoints-", steps, opts);
  const kernel = await bootCompiled(sb, { ...sb.env, ...(opts.env ?? {}) });
  await kernel.activate("onSession");
  const engine = await kernel.service("engine");
  const services = new Map<string, unknown>([["engine", engine]]);
  for (const name of ["skills", "ledger", "tideline"]) services.set(name, await kernel.service(name).catch(() => undefined));
  const requests: SentRequest[] = [];
  engine.hooks.modelRequest.tap({ name: "test", stage: "sent" }, (req: ModelRequest) => {
    requests.push({ sessionStep: req.sessionStep, tools: req.tools.map((t) => t.name), system: [...req.system], rows: req.rows.map((r) => structuredClone(r)) });
    return req;
  });
  const ctx = {
    id: "jev",
    paths: { project: sb.project, home: sb.home },
    env: sb.env,
    log: { info() {}, warn() {}, debug() {}, error() {} },
    services: {
      get<T>(name: string): T {
        const s = services.get(name);
        if (s === undefined) throw new Error(`service ${name} not available`);
        return s as T;
      },
      tryGet<T>(name: string): T | undefined {
        return services.get(name) as T | undefined;
      },
    },
  } as unknown as ExtensionContext;
  return { sb, kernel, engine, requests, ctx };
}

/** The requests without what differs run to run (times), for an identical-to-off comparison. */
/**
 * A jev test file's teardown: `bootPoints`, `jevSandbox` (helpers.ts) and `startFakeSystemOne` remembered,
 * so after each test the kernels are shut down and their sandboxes removed, the fake servers closed, then
 * removes the run sandboxes.
 */
export function jevTests(): { bootPoints: typeof bootPoints; jevSandbox: typeof jevSandbox; startFakeSystemOne: typeof startFakeSystemOne } {
  // asked for in the reverse of the teardown order
  const box = afterEachTest<Sandbox>((s) => s.cleanup());
  const fake = afterEachTest<FakeSystemOne>((f) => f.close());
  const booted = afterEachTest<Booted>(async (b) => {
    await b.kernel.shutdown();
    b.sb.cleanup();
  });
  return {
    bootPoints: async (...a) => booted(await bootPoints(...a)),
    jevSandbox: (endpoint) => box(jevSandbox(endpoint)),
    startFakeSystemOne: async (opts) => fake(await startFakeSystemOne(opts)),
  };
}

/**
 * A fake System One answer that ranks `question`'s options by a per-prompt preference list (`top` for the
 * first, `step` less for each next, 0.01 for the rest), choosing the best, with the gate `gate` at `noul`.
 */
export function rankedAnswer(o: { gate: string; question: string; prefer: (prompt: string) => string[]; top: number; step: number; noul: number }) {
  return (req: { body: { state?: unknown; questions?: Record<string, { options?: string[] }> } }) => {
    const prefer = o.prefer((req.body.state as { prompt: string }).prompt);
    const opts = req.body.questions![o.question]!.options!;
    const probabilities: Record<string, number> = {};
    for (const x of opts) {
      const i = prefer.indexOf(x.slice(0, x.indexOf(":")));
      probabilities[x] = i >= 0 ? o.top - i * o.step : 0.01;
    }
    const choice = Object.entries(probabilities).sort((x, y) => y[1] - x[1])[0]![0];
    return { [o.gate]: { type: "noul" as const, noul: o.noul }, [o.question]: { type: "choice" as const, choice, probabilities } };
  };
}

export function comparable(reqs: readonly SentRequest[], sb: Sandbox): string {
  return JSON.stringify(reqs.map((r) => ({ ...r, rows: r.rows.map((x) => ({ ...x, at: 0 })) })))
    .replaceAll(sb.project, "<project>")
    .replaceAll(sb.home, "<home>")
    .replace(/ses_[A-Za-z0-9_-]+/g, "<ses>")
    .replace(/"usage":\{[^}]*\}/g, '"usage":{}');
}
