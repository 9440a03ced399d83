/** kernel/hooks.ts: stage ordering, named taps, fail-open vs fail-closed. */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SeriesHook, ParallelHook, WaterfallHook, BailHook, WrapHook, Stages, defineHooks, setHookErrorSink, describeHooks } from "../../kernel/hooks.js";
import { ErrorCodes } from "../../kernel/errors.js";

let failures: string[];
beforeEach(() => {
  failures = [];
  setHookErrorSink((hook, tap, e) => failures.push(`${hook}|${tap}|${(e as Error).message}`));
});
afterEach(() => setHookErrorSink(() => undefined));

describe("stages", () => {
  it("taps run in stage order; load order breaks ties", async () => {
    const h = new SeriesHook<string[]>("t.series", "series");
    h.tap({ name: "audit", stage: "STAGE_AUDIT" }, (a) => void a.push("audit"));
    h.tap({ name: "default-1" }, (a) => void a.push("default-1"));
    h.tap({ name: "policy", stage: "STAGE_POLICY" }, (a) => void a.push("policy"));
    h.tap({ name: "enrich", stage: "STAGE_ENRICH" }, (a) => void a.push("enrich"));
    h.tap({ name: "default-2", stage: "STAGE_DEFAULT" }, (a) => void a.push("default-2"));
    h.tap({ name: "floor", stage: "STAGE_FLOOR" }, (a) => void a.push("floor"));
    const out: string[] = [];
    await h.call(out);
    expect(out).toEqual(["floor", "policy", "default-1", "default-2", "enrich", "audit"]);
    expect(h.taps()).toEqual(out);
    expect(Stages.STAGE_FLOOR).toBeLessThan(Stages.STAGE_POLICY);
    expect(Stages.STAGE_AUDIT).toBeLessThan(Stages.STAGE_ASK);
  });

  it("refuses an unnamed tap and an unknown stage with OC_ERR_HOOK_STAGE", () => {
    const h = new SeriesHook<number>("t", "series");
    expect(() => h.tap({ name: "" }, () => undefined)).toThrow(expect.objectContaining({ code: ErrorCodes.HOOK_UNKNOWN_STAGE }));
    expect(() => h.tap({ name: "x", stage: "STAGE_NOPE" as never }, () => undefined)).toThrow(/unknown stage 'STAGE_NOPE' in tap 'x'/);
  });

  it("wrap: the lowest stage is outermost (sees the call first)", async () => {
    const h = new WrapHook<string, string>("t.wrap", "wrap");
    h.tap({ name: "audit", stage: "STAGE_AUDIT" }, (next) => async (a) => `audit(${await next(a + ">audit")})`);
    h.tap({ name: "policy", stage: "STAGE_POLICY" }, (next) => async (a) => `policy(${await next(a + ">policy")})`);
    expect(await h.call("in", async (a) => a)).toBe("policy(audit(in>policy>audit))");
  });

  it("waterfall: each tap gets the previous value; undefined keeps it", async () => {
    const h = new WaterfallHook<number, { k: number }>("t.wf", "waterfall");
    h.tap({ name: "late", stage: "STAGE_ENRICH" }, (v, c) => v * c.k);
    h.tap({ name: "early", stage: "STAGE_POLICY" }, (v) => v + 1);
    h.tap({ name: "noop" }, () => undefined as unknown as number);
    expect(await h.call(1, { k: 10 })).toBe(20);
  });
});

describe("fail-open taps", () => {
  it("series: a throwing tap is reported with hook and tap names; the others still run", async () => {
    const h = new SeriesHook<string[]>("t.series", "series");
    h.tap({ name: "ok-1" }, (a) => void a.push("ok-1"));
    h.tap({ name: "broken" }, () => {
      throw new Error("kaput");
    });
    h.tap({ name: "ok-2" }, async (a) => void a.push("ok-2"));
    const out: string[] = [];
    await expect(h.call(out)).resolves.toBeUndefined();
    expect(out).toEqual(["ok-1", "ok-2"]);
    expect(failures).toEqual(["t.series|broken|kaput"]);
  });

  it("parallel: a rejecting tap does not stop the others", async () => {
    const h = new ParallelHook<string[]>("t.par", "parallel");
    h.tap({ name: "slow" }, async (a) => {
      await new Promise((r) => setTimeout(r, 10));
      a.push("slow");
    });
    h.tap({ name: "broken" }, async () => {
      throw new Error("nope");
    });
    const out: string[] = [];
    await h.call(out);
    expect(out).toEqual(["slow"]);
    expect(failures).toEqual(["t.par|broken|nope"]);
  });

  it("waterfall: a throwing tap passes the value through unchanged", async () => {
    const h = new WaterfallHook<string>("t.wf", "waterfall");
    h.tap({ name: "a" }, (v) => `${v}a`);
    h.tap({ name: "broken" }, () => {
      throw new Error("x");
    });
    h.tap({ name: "b" }, (v) => `${v}b`);
    expect(await h.call("", undefined)).toBe("ab");
    expect(failures).toEqual(["t.wf|broken|x"]);
  });

  it("bail without onTapError: a throwing tap is skipped and the next answer wins", async () => {
    const h = new BailHook<number, string>("t.bail", "bail");
    h.tap({ name: "broken", stage: "STAGE_POLICY" }, () => {
      throw new Error("x");
    });
    h.tap({ name: "pass" }, () => undefined);
    h.tap({ name: "answer" }, (n) => `answer ${n}`);
    expect(await h.call(1)).toBe("answer 1");
    expect(h.failClosed).toBe(false);
  });
});

describe("fail-closed taps (security hooks)", () => {
  type Verdict = { allow: boolean; by: string };
  const mk = () =>
    new BailHook<string, Verdict>("t.authorize", "bail (fail-closed)", (tap, e) => ({ allow: false, by: `${tap}: ${(e as Error).message}` }));

  it("a throwing tap bails with the deny value naming the tap; later taps never run", async () => {
    const h = mk();
    const ran: string[] = [];
    h.tap({ name: "guard", stage: "STAGE_GUARD" }, () => {
      throw new Error("crashed");
    });
    h.tap({ name: "allow-all", stage: "STAGE_ASK" }, () => {
      ran.push("allow-all");
      return { allow: true, by: "allow-all" };
    });
    expect(h.failClosed).toBe(true);
    expect(await h.call("rm -rf /")).toEqual({ allow: false, by: "guard: crashed" });
    expect(ran).toEqual([]);
    expect(failures).toEqual(["t.authorize|guard|crashed"]);
  });

  it("the first answer in stage order wins: an earlier deny is never reopened by a later allow", async () => {
    const h = mk();
    h.tap({ name: "mode", stage: "STAGE_ASK" }, () => ({ allow: true, by: "mode" }));
    h.tap({ name: "floor", stage: "STAGE_FLOOR" }, (cmd) => (cmd.startsWith("rm") ? { allow: false, by: "floor" } : undefined));
    expect(await h.call("rm x")).toEqual({ allow: false, by: "floor" });
    expect(await h.call("ls")).toEqual({ allow: true, by: "mode" });
  });

  it("the kernel's trust hook is fail-closed", async () => {
    const { createKernelHooks } = await import("../../kernel/kernel-hooks.js");
    const hooks = createKernelHooks();
    hooks.trust.tap({ name: "broken" }, () => {
      throw new Error("x");
    });
    hooks.trust.tap({ name: "yes" }, () => true);
    const root = { tier: "repo" as const, ecosystem: "oceancode" as const, dir: "/x", project: "/x", trustedByDefault: false };
    expect(await hooks.trust.call({ root, kind: "extension" })).toBe(false);
  });
});

describe("hooks objects", () => {
  it("defineHooks freezes the object; describeHooks reports kind, doc, failClosed and taps", () => {
    const hooks = defineHooks({
      a: new SeriesHook<void>("x.a", "series: a"),
      b: new BailHook<void, boolean>("x.b", "bail: b", () => false),
    });
    expect(Object.isFrozen(hooks)).toBe(true);
    expect(() => {
      (hooks as Record<string, unknown>).c = 1;
    }).toThrow();
    hooks.a.tap({ name: "ext" }, () => undefined);
    expect(describeHooks(hooks)).toEqual([
      { name: "x.a", kind: "series", doc: "series: a", failClosed: false, taps: ["ext"] },
      { name: "x.b", kind: "bail", doc: "bail: b", failClosed: true, taps: [] },
    ]);
  });
});
