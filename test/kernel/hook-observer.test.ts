/** kernel/hooks.ts: the hook-call observer (telemetry's hook spans): what it is told, and that it can break nothing. */
import { afterEach, describe, expect, it } from "vitest";
import { BailHook, ParallelHook, SeriesHook, WaterfallHook, WrapHook, observeHookCalls, setHookErrorSink, type HookCallObserver } from "../../kernel/hooks.js";

let remove: (() => void) | undefined;
afterEach(() => {
  remove?.();
  remove = undefined;
  setHookErrorSink(() => undefined);
});

/** An observer that records each call's start and end (with the error, if the call threw). */
function recorder(): { seen: string[]; observer: HookCallObserver } {
  const seen: string[] = [];
  return {
    seen,
    observer: ({ hook, kind, taps, args }) => {
      seen.push(`start ${hook} ${kind} taps=${taps} args=${JSON.stringify(args)}`);
      return (e) => void seen.push(`end ${hook}${e === undefined ? "" : ` error=${(e as Error).message}`}`);
    },
  };
}

describe("hook-call observer", () => {
  it("is told every kind of call, with its tap count and arguments, and when it settles", async () => {
    const rec = recorder();
    remove = observeHookCalls(rec.observer);
    const s = new SeriesHook<number>("t.series", "");
    s.tap({ name: "a" }, () => undefined);
    const p = new ParallelHook<number>("t.parallel", "");
    const w = new WaterfallHook<number, string>("t.waterfall", "");
    w.tap({ name: "a" }, (v) => v + 1);
    w.tap({ name: "b" }, (v) => v * 10);
    const b = new BailHook<number, string>("t.bail", "");
    b.tap({ name: "a" }, (n) => (n > 0 ? "yes" : undefined));
    const wr = new WrapHook<number, number>("t.wrap", "");
    await s.call(1);
    await p.call(2);
    expect(await w.call(1, "ctx")).toBe(20);
    expect(await b.call(3)).toBe("yes");
    expect(await wr.call(4, async (x) => x * 2)).toBe(8);
    expect(rec.seen).toEqual([
      "start t.series series taps=1 args=[1]",
      "end t.series",
      "start t.parallel parallel taps=0 args=[2]",
      "end t.parallel",
      'start t.waterfall waterfall taps=2 args=[1,"ctx"]',
      "end t.waterfall",
      "start t.bail bail taps=1 args=[3]",
      "end t.bail",
      "start t.wrap wrap taps=0 args=[4]",
      "end t.wrap",
    ]);
  });

  it("hears a call that throws (the error passes on unchanged); a tap's fail-open error is no call error", async () => {
    const rec = recorder();
    remove = observeHookCalls(rec.observer);
    const wr = new WrapHook<number, number>("t.wrap", "");
    await expect(wr.call(1, async () => Promise.reject(new Error("tool broke")))).rejects.toThrow("tool broke");
    const s = new SeriesHook<number>("t.series", "");
    s.tap({ name: "bad" }, () => {
      throw new Error("tap broke");
    });
    await s.call(1);
    expect(rec.seen).toEqual(["start t.wrap wrap taps=0 args=[1]", "end t.wrap error=tool broke", "start t.series series taps=1 args=[1]", "end t.series"]);
  });

  it("a throwing observer (or end) changes no call; one that answers undefined is not called back; removal stops it", async () => {
    const h = new WaterfallHook<number, undefined>("t.w", "");
    h.tap({ name: "a" }, (v) => v + 1);
    remove = observeHookCalls(() => {
      throw new Error("observer broke");
    });
    expect(await h.call(1, undefined)).toBe(2);
    remove();
    remove = observeHookCalls(() => () => {
      throw new Error("end broke");
    });
    expect(await h.call(1, undefined)).toBe(2);
    remove();
    let calls = 0;
    remove = observeHookCalls(() => {
      calls += 1;
      return undefined;
    });
    expect(await h.call(5, undefined)).toBe(6);
    expect(calls).toBe(1);
    remove();
    remove = undefined;
    expect(await h.call(7, undefined)).toBe(8);
    expect(calls).toBe(1);
  });
});
