/**
 * describeEngineContract: the engine's hooks behave per their declared kind, so an extension that taps
 * them (a guard, a recorder, a storage) can rely on it: named taps only, stage order, a waterfall
 * threads its value, a bail stops at the first answer, authorizeToolCall fails closed, taps that throw
 * elsewhere fail open.
 */
import { describe, expect, it } from "vitest";
import type { EngineHooks, ModelRequest, StepContext, ToolCallContext, StopContext, AuthorizeResult } from "../api.js";

export interface EngineFixture {
  hooks: EngineHooks;
}

const KINDS: Record<keyof EngineHooks, string> = {
  sessionStart: "series",
  sessionEnd: "series",
  userPrompt: "waterfall",
  contextBuild: "waterfall",
  modelRequest: "waterfall",
  promptTooLong: "series",
  authorizeToolCall: "bail",
  permissionDenied: "series",
  permissionAnswered: "series",
  executeTool: "wrap",
  childProcess: "waterfall",
  reviewDecision: "bail",
  toolResult: "waterfall",
  gauge: "waterfall",
  checkpoint: "parallel",
  permissionDecided: "parallel",
  afterModelCall: "parallel",
  afterStep: "parallel",
  stop: "bail",
  bound: "bail",
  afterTurn: "parallel",
  forkRows: "waterfall",
  sessionForked: "parallel",
  loadSession: "bail",
  latestSession: "bail",
  claimSession: "bail",
};

const ctx = {} as StepContext;

export function describeEngineContract(name: string, make: () => EngineFixture | Promise<EngineFixture>): void {
  describe(`engine contract: ${name}`, () => {
    it("publishes every documented hook, frozen, each with tap() and call()", async () => {
      const { hooks } = await make();
      expect(Object.isFrozen(hooks)).toBe(true);
      for (const k of Object.keys(KINDS) as Array<keyof EngineHooks>) {
        const h = hooks[k] as unknown as { tap?: unknown; call?: unknown };
        expect(typeof h?.tap, k).toBe("function");
        expect(typeof h?.call, k).toBe("function");
      }
    });

    it("refuses a tap without a name, and an unknown stage", async () => {
      const { hooks } = await make();
      expect(() => hooks.afterStep.tap({ name: "" } as never, () => undefined)).toThrow();
      expect(() => hooks.afterStep.tap({ name: "x", stage: "STAGE_NOPE" } as never, () => undefined)).toThrow();
      // order is the hook's: a bare number is refused, naming the hook and the stages it may name
      expect(() => hooks.authorizeToolCall.tap({ name: "x", stage: -300 } as never, () => undefined)).toThrow(/hook 'engine.authorizeToolCall'.*a bare number.*mode, hooks, floor/);
    });

    it("waterfall (modelRequest): each tap gets the previous value, in stage order; a throwing tap keeps the value", async () => {
      const { hooks } = await make();
      const seen: string[] = [];
      const add = (tag: string) => (r: ModelRequest) => {
        seen.push(tag);
        return { ...r, system: [...r.system, tag] };
      };
      hooks.modelRequest.tap({ name: "late", stage: "observe" }, add("late"));
      hooks.modelRequest.tap({ name: "early", stage: "policy" }, add("early"));
      hooks.modelRequest.tap({ name: "broken", stage: "default" }, () => {
        throw new Error("boom");
      });
      const out = await hooks.modelRequest.call({ system: [] } as unknown as ModelRequest, ctx);
      expect(seen).toEqual(["early", "late"]);
      expect(out.system).toEqual(["early", "late"]);
    });

    it("bail (authorizeToolCall): the first answer in stage order wins and later taps do not run", async () => {
      const { hooks } = await make();
      const ran: string[] = [];
      hooks.authorizeToolCall.tap({ name: "audit", stage: "asks" }, () => {
        ran.push("audit");
        return { action: "allow", by: "audit" };
      });
      hooks.authorizeToolCall.tap({ name: "policy", stage: "rules" }, () => {
        ran.push("policy");
        return { action: "deny", by: "policy", reason: "no" };
      });
      hooks.authorizeToolCall.tap({ name: "quiet", stage: "floor" }, () => {
        ran.push("quiet");
        return undefined;
      });
      const d = (await hooks.authorizeToolCall.call({} as ToolCallContext)) as AuthorizeResult;
      expect(d).toMatchObject({ action: "deny", by: "policy" });
      expect(ran).toEqual(["quiet", "policy"]);
    });

    it("authorizeToolCall fails closed: a throwing tap is a deny naming it, and nothing after it can allow", async () => {
      const { hooks } = await make();
      hooks.authorizeToolCall.tap({ name: "crashy-guard", stage: "guard" }, () => {
        throw new Error("guard crashed");
      });
      hooks.authorizeToolCall.tap({ name: "lenient", stage: "asks" }, () => ({ action: "allow", by: "lenient" }));
      const d = (await hooks.authorizeToolCall.call({} as ToolCallContext)) as AuthorizeResult;
      expect(d.action).toBe("deny");
      expect(d.by).toBe("crashy-guard");
    });

    it("bail (stop): no answer means undefined; the first continue wins", async () => {
      const { hooks } = await make();
      expect(await hooks.stop.call({} as StopContext)).toBeUndefined();
      hooks.stop.tap({ name: "todo" }, () => ({ continue: true, reason: "work left", by: "todo" }));
      hooks.stop.tap({ name: "other" }, () => ({ continue: false, by: "other" }));
      expect(await hooks.stop.call({} as StopContext)).toMatchObject({ continue: true, by: "todo" });
    });

    it("series and parallel: every tap runs (series in stage order); a throwing tap fails open", async () => {
      const { hooks } = await make();
      const ran: string[] = [];
      hooks.promptTooLong.tap({ name: "b", stage: "STAGE_ENRICH" }, () => void ran.push("b"));
      hooks.promptTooLong.tap({ name: "a", stage: "STAGE_POLICY" }, () => void ran.push("a"));
      hooks.promptTooLong.tap({ name: "bad", stage: "STAGE_DEFAULT" }, () => {
        throw new Error("x");
      });
      await hooks.promptTooLong.call(ctx);
      expect(ran).toEqual(["a", "b"]);
      const par: string[] = [];
      hooks.afterStep.tap({ name: "p1" }, async () => void par.push("p1"));
      hooks.afterStep.tap({ name: "p2" }, async () => void par.push("p2"));
      await hooks.afterStep.call({} as never);
      expect(par.sort()).toEqual(["p1", "p2"]);
    });

    it("wrap (executeTool): the lowest stage is outermost, the inner executor runs once", async () => {
      const { hooks } = await make();
      const trail: string[] = [];
      const wrap = (tag: string) => (next: (a: ToolCallContext) => Promise<{ content: string }>) => async (a: ToolCallContext) => {
        trail.push(`${tag}>`);
        const r = await next(a);
        trail.push(`<${tag}`);
        return { content: `${tag}(${r.content})` };
      };
      hooks.executeTool.tap({ name: "inner", stage: "snapshot" }, wrap("inner"));
      hooks.executeTool.tap({ name: "outer", stage: "confine" }, wrap("outer"));
      let runs = 0;
      const out = await hooks.executeTool.call({} as ToolCallContext, async () => {
        runs++;
        return { content: "run" };
      });
      expect(runs).toBe(1);
      expect(out.content).toBe("outer(inner(run))");
      expect(trail).toEqual(["outer>", "inner>", "<inner", "<outer"]);
    });

    it("declares each hook's kind as documented; only the security hooks fail closed", async () => {
      const { hooks } = await make();
      for (const [k, kind] of Object.entries(KINDS)) {
        const h = hooks[k as keyof EngineHooks] as unknown as { kind?: string; failClosed?: boolean };
        expect(h.kind, k).toBe(kind);
        expect(h.failClosed === true, k).toBe(k === "authorizeToolCall" || k === "claimSession" || k === "reviewDecision");
      }
    });
  });
}
