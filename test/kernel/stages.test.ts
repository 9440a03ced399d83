/** kernel stage tables: a hook's owner publishes its stages; taps name one; bare numbers are refused; held answers land in their stage. */
import { describe, expect, it } from "vitest";
import { BailHook, SeriesHook, WrapHook, createHooks, holdUntil, hookOrder } from "../../kernel/hooks.js";
import { declareHooks, defineStages, hook, staged, STANDARD_STAGES } from "../../kernel/hook-decl.js";
import { ErrorCodes } from "../../kernel/errors.js";

const PHASES = defineStages({ floor: "hard denies", rules: "rules", asks: "held asks land here", last: "last resort" }, { default: "last" });
type D = { action: "allow" | "ask" | "deny"; by: string };

describe("stage tables", () => {
  it("a declared table orders the taps; a tap without a stage goes to the table's default", async () => {
    const table = declareHooks("t", { run: staged(PHASES, hook.series<string[]>("run")) });
    const h = createHooks(table).run;
    h.tap({ name: "late" }, (a) => void a.push("late"));
    h.tap({ name: "rules", stage: "rules" }, (a) => void a.push("rules"));
    h.tap({ name: "floor", stage: "floor" }, (a) => void a.push("floor"));
    const out: string[] = [];
    await h.call(out);
    expect(out).toEqual(["floor", "rules", "late"]);
    expect(h.stagedTaps()).toEqual([
      { name: "floor", stage: "floor" },
      { name: "rules", stage: "rules" },
      { name: "late", stage: "last" },
    ]);
    const [d] = hookOrder({ run: h });
    expect(d!.stages.map((s) => s.name)).toEqual(["floor", "rules", "asks", "last"]);
    expect(d!.stages.find((s) => s.default)?.name).toBe("last");
  });

  it("a bare number is refused at registration with OC_ERR_HOOK_STAGE naming the hook, the tap and its stages", () => {
    const h = createHooks(declareHooks("t", { run: staged(PHASES, hook.series<number>("run")) })).run;
    let err: unknown;
    try {
      h.tap({ name: "my-ext", stage: 50 as never }, () => undefined);
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({ code: ErrorCodes.HOOK_UNKNOWN_STAGE });
    const msg = (err as Error).message;
    expect(msg).toContain("hook 't.run'");
    expect(msg).toContain("tap 'my-ext'");
    expect(msg).toContain("a bare number");
    expect(msg).toContain("floor, rules, asks, last");
    expect(h.taps()).toEqual([]);
    // a standard-stage hook refuses numbers too, and a stage name from another table
    const s = new SeriesHook<number>("t.std", "std");
    expect(() => s.tap({ name: "x", stage: -100 as never }, () => undefined)).toThrow(/tap 'x' on hook 't.std' names stage -100, a bare number; name one of its stages: STAGE_FLOOR, STAGE_POLICY/);
    expect(() => h.tap({ name: "x", stage: "STAGE_FLOOR" as never }, () => undefined)).toThrow(/unknown stage 'STAGE_FLOOR' in tap 'x' on hook 't.run'; its stages: floor, rules, asks, last/);
  });

  it("a table without a default makes every tap name its stage; the standard table keeps its order", () => {
    const strict = defineStages({ a: "first", b: "second" });
    const h = createHooks(declareHooks("t", { run: staged(strict, hook.series<number>("run")) })).run;
    expect(() => h.tap({ name: "x" }, () => undefined)).toThrow(/tap 'x' on hook 't.run' names no stage/);
    expect(STANDARD_STAGES.names).toEqual(["STAGE_FLOOR", "STAGE_POLICY", "STAGE_GUARD", "STAGE_DEFAULT", "STAGE_ENRICH", "STAGE_AUDIT", "STAGE_ASK"]);
    expect(Object.isFrozen(STANDARD_STAGES.names)).toBe(true);
    expect(() => defineStages({ a: "x" }, { default: "b" as never })).toThrow(/default stage 'b'/);
  });

  it("before: a tap runs ahead of a named tap within its stage", async () => {
    const h = new WrapHook<string, string>("t.wrap", "wrap");
    h.tap({ name: "second", stage: "STAGE_AUDIT" }, (next) => async (a) => `second(${await next(a)})`);
    h.tap({ name: "first", stage: "STAGE_AUDIT", before: "second" }, (next) => async (a) => `first(${await next(a)})`);
    expect(await h.call("x", async (a) => a)).toBe("first(second(x))");
  });
});

describe("held answers (holdUntil)", () => {
  const make = () => new BailHook<string, D, "floor" | "rules" | "asks" | "last">("t.auth", "auth", (tap) => ({ action: "deny", by: tap }), PHASES);

  it("a held ask lands at its stage when nothing before it answers", async () => {
    const h = make();
    const ran: string[] = [];
    h.tap({ name: "hooks", stage: "floor" }, () => holdUntil("asks", { action: "ask", by: "hooks" }));
    h.tap({ name: "rules", stage: "rules" }, () => void ran.push("rules"));
    h.tap({ name: "late", stage: "last" }, () => {
      ran.push("late");
      return { action: "allow", by: "late" };
    });
    expect(await h.call("ls")).toEqual({ action: "ask", by: "hooks" });
    expect(ran).toEqual(["rules"]);
  });

  it("a tap between the hold and its stage answers first: a deny is never reopened", async () => {
    const h = make();
    h.tap({ name: "hooks", stage: "floor" }, () => holdUntil("last", { action: "allow", by: "hooks" }));
    h.tap({ name: "rules", stage: "rules" }, () => ({ action: "deny", by: "rules" }));
    expect(await h.call("rm")).toEqual({ action: "deny", by: "rules" });
  });

  it("with no tap at or after its stage the held answer is the result; an unknown stage fails closed", async () => {
    const h = make();
    h.tap({ name: "hooks", stage: "floor" }, () => holdUntil("last", { action: "allow", by: "hooks" }));
    expect(await h.call("ls")).toEqual({ action: "allow", by: "hooks" });
    const bad = make();
    bad.tap({ name: "typo", stage: "floor" }, () => holdUntil("nowhere" as never, { action: "allow", by: "typo" }));
    expect(await bad.call("ls")).toEqual({ action: "deny", by: "typo" });
    // each call starts with no held answers
    const calls = make();
    let n = 0;
    calls.tap({ name: "once", stage: "floor" }, () => (n++ === 0 ? holdUntil("last", { action: "ask", by: "once" }) : undefined));
    expect(await calls.call("a")).toEqual({ action: "ask", by: "once" });
    expect(await calls.call("b")).toBeUndefined();
  });
});
