/**
 * Test-only support for the jev points (2, 3, 5, 6) while the layer's core lives in another branch:
 *   - testJev(): a minimal JevService over the real HTTP contract (POST {model, state, questions} to the
 *     fake System One server), with modes and thresholds given by the test and decision rows kept in
 *     memory. After the core merges, these tests should use the real service instead.
 *   - bootPoints(): a real kernel in process (compiled bundled extensions, the scripted model, the real
 *     tools, the ledger and the tideline), a stand-in ExtensionContext for "jev" over the kernel's
 *     services, and every model request recorded as sent (after every other modelRequest tap).
 */
import crypto from "node:crypto";
import path from "node:path";
import { makeSandbox, REPO_ROOT, type Sandbox } from "../helpers/cli.js";
import type { EngineService, ModelRequest, Row } from "../../extensions/engine/api.js";
import { JEV_POINTS, type JevAnswer, type JevDecisionRow, type JevMode, type JevPoint, type JevResult, type JevService } from "../../extensions/jev/api.js";
import type { ExtensionContext } from "../../kernel/api.js";

export interface TestJev extends JevService {
  rows: JevDecisionRow[];
  /** every ask, even one that failed */
  asks: number;
  /** wait until the background (shadow) asks have settled and at least `rows` rows are written (5 s at most) */
  idle(rows?: number): Promise<void>;
  modes: Partial<Record<JevPoint, JevMode>>;
}

export function testJev(opts: { url: string; modes?: Partial<Record<JevPoint, JevMode>>; thresholds?: Record<string, number>; model?: string; timeoutMs?: number }): TestJev {
  const model = opts.model ?? "jev-1.13.0";
  const pending = new Set<Promise<unknown>>();
  const svc: TestJev = {
    rows: [],
    asks: 0,
    modes: { ...(opts.modes ?? {}) },
    status() {
      return { enabled: true, endpoint: new URL(opts.url).host, model, points: JEV_POINTS.map((p) => ({ point: p, mode: svc.mode(p), why: "test" })) };
    },
    mode: (p) => svc.modes[p] ?? "off",
    threshold: (name, fallback) => opts.thresholds?.[name] ?? fallback,
    ask(req) {
      svc.asks++;
      const p = (async (): Promise<JevResult> => {
        const t0 = Date.now();
        const stateHash = crypto.createHash("sha256").update(JSON.stringify(req.state)).digest("hex").slice(0, 16);
        const base = { stateHash, truncated: false, state: req.state };
        try {
          const signal = AbortSignal.any([AbortSignal.timeout(req.deadlineMs ?? opts.timeoutMs ?? 5_000), ...(req.signal ? [req.signal] : [])]);
          const res = await fetch(opts.url, { method: "POST", headers: { "content-type": "application/json", "x-jev-point": req.point }, body: JSON.stringify({ model, state: req.state, questions: req.questions }), redirect: "manual", signal });
          if (res.status !== 200) return { ok: false, outcome: "unavailable", reason: `HTTP ${res.status}`, latencyMs: Date.now() - t0, ...base };
          const body = (await res.json()) as { model?: string; answers?: Record<string, JevAnswer>; usage?: { input_tokens?: number } };
          const answers = body.answers ?? {};
          for (const id of Object.keys(req.questions)) if (!answers[id] || answers[id]!.type !== req.questions[id]!.type) return { ok: false, outcome: "invalid", reason: `no ${req.questions[id]!.type} answer for ${id}`, latencyMs: Date.now() - t0, ...base };
          return { ok: true, answers, latencyMs: Date.now() - t0, model: body.model ?? model, ...(body.usage?.input_tokens !== undefined ? { inputTokens: body.usage.input_tokens } : {}), ...base };
        } catch (e) {
          return { ok: false, outcome: "unavailable", reason: e instanceof Error ? e.message : String(e), latencyMs: Date.now() - t0, ...base };
        }
      })();
      pending.add(p);
      void p.finally(() => pending.delete(p));
      return p;
    },
    record(row) {
      svc.rows.push({ type: "decision", at: Date.now(), ...row });
    },
    label() {},
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

export interface KernelLike {
  activate(e: string): Promise<void>;
  service<T>(name: string): Promise<T>;
  shutdown(): Promise<void>;
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
  const sb = makeSandbox("oc-jevpoints-");
  sb.write(".oceancode/oceancode.json", JSON.stringify({ permission_mode: "bypassPermissions", ...(opts.config ?? {}) }));
  sb.write("script.json", JSON.stringify({ steps, after: { text: "(script finished)" } }));
  for (const [f, c] of Object.entries(opts.files ?? {})) sb.write(f, c);
  const { bootKernel } = (await import(path.join(REPO_ROOT, "dist", "hosts", "boot.js"))) as { bootKernel(f: object, env: NodeJS.ProcessEnv): Promise<KernelLike> };
  const kernel = await bootKernel({ project: sb.project, home: sb.home, verbose: false }, { ...sb.env, ...(opts.env ?? {}) });
  await kernel.activate("onSession");
  const engine = await kernel.service<EngineService>("engine");
  const services = new Map<string, unknown>([["engine", engine]]);
  for (const name of ["skills", "ledger", "tideline"]) services.set(name, await kernel.service(name).catch(() => undefined));
  const requests: SentRequest[] = [];
  engine.hooks.modelRequest.tap({ name: "test", stage: 20_000 }, (req: ModelRequest) => {
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
export function comparable(reqs: readonly SentRequest[], sb: Sandbox): string {
  return JSON.stringify(reqs.map((r) => ({ ...r, rows: r.rows.map((x) => ({ ...x, at: 0 })) })))
    .replaceAll(sb.project, "<project>")
    .replaceAll(sb.home, "<home>")
    .replace(/ses_[A-Za-z0-9_-]+/g, "<ses>")
    .replace(/"usage":\{[^}]*\}/g, '"usage":{}');
}
