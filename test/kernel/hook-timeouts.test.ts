/** kernel/hooks.ts: per-tap timeouts by hook kind, and the kernel-owned hook error sink (HookErrorLog). */
import { describe, expect, it } from "vitest";
import { SeriesHook, ParallelHook, WaterfallHook, BailHook, HookErrorLog, bindHooks, defineHooks, type HookRuntime } from "../../kernel/hooks.js";
import { ErrorCodes } from "../../kernel/errors.js";

const never = () => new Promise<never>(() => undefined);

function runtime(ms = 50): { rt: HookRuntime; shown: string[]; log: HookErrorLog } {
  const shown: string[] = [];
  const log = new HookErrorLog((l) => shown.push(l));
  return { rt: { sink: log.sink, tapTimeoutMs: ms }, shown, log };
}

describe("tap timeouts", () => {
  it("series and parallel skip a tap that never settles and run the others", async () => {
    const { rt, log } = runtime();
    const seen: string[] = [];
    const s = new SeriesHook<string[]>("t.series", "series");
    const p = new ParallelHook<string[]>("t.parallel", "parallel");
    bindHooks(defineHooks({ s, p }), rt);
    for (const h of [s, p]) {
      h.tap({ name: "hang" }, never);
      h.tap({ name: "ok" }, (a) => void a.push(h.name));
    }
    await s.call(seen);
    await p.call(seen);
    expect(seen).toEqual(["t.series", "t.parallel"]);
    expect(log.list().map((f) => `${f.hook}|${f.tap}|${f.code}`)).toEqual([`t.series|hang|${ErrorCodes.TAP_TIMEOUT}`, `t.parallel|hang|${ErrorCodes.TAP_TIMEOUT}`]);
  });

  it("a waterfall keeps the value a timed-out tap was given", async () => {
    const { rt } = runtime();
    const w = new WaterfallHook<number>("t.w", "waterfall");
    w.bind(rt);
    w.tap({ name: "double" }, (n) => n * 2);
    w.tap({ name: "hang" }, never);
    w.tap({ name: "inc" }, (n) => n + 1);
    expect(await w.call(5, undefined)).toBe(11);
  });

  it("a bail hook moves on; a fail-closed one answers its onTapError value", async () => {
    const { rt, log } = runtime();
    const open = new BailHook<number, string>("t.open", "bail");
    const closed = new BailHook<number, string>("t.closed", "bail (fail-closed)", (tap, e) => `deny by ${tap}: ${(e as { code?: string }).code}`);
    bindHooks({ open, closed }, rt);
    for (const h of [open, closed]) {
      h.tap({ name: "hang" }, never);
      h.tap({ name: "later" }, () => "later");
    }
    expect(await open.call(1)).toBe("later");
    expect(await closed.call(1)).toBe(`deny by hang: ${ErrorCodes.TAP_TIMEOUT}`);
    expect(log.list()).toHaveLength(2);
  });

  it("a tap's own timeoutMs replaces the kernel's bound, read at each call", async () => {
    const { rt, log } = runtime(30);
    const closed = new BailHook<number, string>("t.own", "bail (fail-closed)", (tap) => `deny by ${tap}`);
    closed.bind(rt);
    let bound = 400;
    // settles after 120 ms: past the kernel's 30 ms, inside its own 400 ms
    closed.tap({ name: "slow", timeoutMs: () => bound }, () => new Promise<string>((r) => setTimeout(() => r("slow answered"), 120)));
    expect(await closed.call(1)).toBe("slow answered");
    expect(log.list()).toEqual([]);
    bound = 20;
    expect(await closed.call(1)).toBe("deny by slow");
    expect(log.list().map((f) => f.code)).toEqual([ErrorCodes.TAP_TIMEOUT]);
    const w = new WaterfallHook<number>("t.ownw", "waterfall");
    w.bind(rt);
    w.tap({ name: "slow", timeoutMs: 400 }, (n) => new Promise<number>((r) => setTimeout(() => r(n + 1), 120)));
    expect(await w.call(1, undefined)).toBe(2);
  });

  it("sync taps and fast async taps are not affected; a throwing tap is reported as OC_ERR_TAP_FAILED", async () => {
    const { rt, log, shown } = runtime(1_000);
    const s = new SeriesHook<void>("t.s", "series");
    s.bind(rt);
    let n = 0;
    s.tap({ name: "sync" }, () => void n++);
    s.tap({ name: "async" }, async () => void n++);
    s.tap({ name: "boom" }, () => {
      throw new Error("kaput");
    });
    await s.call();
    await s.call();
    expect(n).toBe(4);
    // shown once per (hook, tap, code), counted every time
    expect(shown).toEqual([`${ErrorCodes.TAP_FAILED}: extension 'boom' failed in hook 't.s': kaput`]);
    expect(log.list()).toEqual([{ hook: "t.s", tap: "boom", code: ErrorCodes.TAP_FAILED, message: "kaput", count: 2 }]);
  });
});

describe("the kernel's hook error sink in introspect(), doctor and inspect", () => {
  it("a kernel lists its tap failures; doctor shows one warn line per (hook, tap, code)", async () => {
    const { makeEnv, baseManifest } = await import("./env.js");
    const { extensionChecks } = await import("../../extensions/doctor/checks.js");
    const { inspectRows } = await import("../../extensions/inspect/index.js");
    const t = makeEnv();
    try {
      t.env.OC_TAP_TIMEOUT_MS = "50";
      t.addExt({
        id: "flaky",
        manifest: baseManifest("flaky", { activation: ["onStartup"] }),
        code: `export default { activate(ctx) {
          ctx.kernelHooks.boot.tap({ name: "flaky" }, () => { throw new Error("boom"); });
          ctx.kernelHooks.configResolved.tap({ name: "flaky" }, () => new Promise(() => {}));
        } };`,
      });
      const k = await t.discover();
      await k.start();
      const errs = k.introspect().hookErrors!;
      expect(errs.map((e) => `${e.hook}|${e.tap}|${e.code}`)).toEqual([`kernel.boot|flaky|${ErrorCodes.TAP_FAILED}`, `kernel.configResolved|flaky|${ErrorCodes.TAP_TIMEOUT}`]);
      expect(t.logs).toEqual([
        `error: ${ErrorCodes.TAP_FAILED}: extension 'flaky' failed in hook 'kernel.boot': boom`,
        `error: ${ErrorCodes.TAP_TIMEOUT}: extension 'flaky' failed in hook 'kernel.configResolved': its tap did not settle within 50 ms and was skipped`,
      ]);
      const lines = extensionChecks(k.introspect()).filter((l) => l.check.startsWith("hook "));
      expect(lines.map((l) => [l.status, l.check])).toEqual([
        ["warn", "hook kernel.boot tap flaky"],
        ["warn", "hook kernel.configResolved tap flaky"],
      ]);
      const rows = inspectRows(k.introspect()).filter((r) => r.kind === "hook-error");
      expect(rows.map((r) => [r.id, r.state, r.layer])).toEqual([
        ["kernel.boot:flaky", ErrorCodes.TAP_FAILED, "bundled"],
        ["kernel.configResolved:flaky", ErrorCodes.TAP_TIMEOUT, "bundled"],
      ]);
    } finally {
      t.cleanup();
    }
  });
});
