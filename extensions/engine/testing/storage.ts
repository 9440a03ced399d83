/**
 * describeStorageContract: what a storage provider (the "storage" service plus its taps on the
 * engine's session hooks) owes the engine, `oceancode sessions`, `run --continue` and `export`. The suite
 * drives the store exactly as the engine does: sessionStart, rows appended to the in-memory session,
 * afterStep / afterTurn, sessionEnd; then reads back through the hooks (loadSession, latestSession,
 * claimSession) and the service (listSessions, loadSession, events, health, doctorChecks).
 */
import { describe, expect, it, afterEach } from "vitest";
import type { EngineService, Row, Session, SessionInfo, StepRecord, TurnRecord } from "../api.js";
import { createEngineHooks } from "../hooks.js";
import type { StorageService } from "../../storage/api.js";
import { tempDir } from "./common.js";

export interface StorageHarness {
  /** an engine stand-in: the real engine hooks object (tap it as you would the engine's) */
  engine: EngineService;
  /** a fresh, empty directory for this test's files */
  dir: string;
}

export interface StorageFixture {
  storage: StorageService;
  close?(): void | Promise<void>;
}

const MODEL = "scripted/conformance";
const usage = { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 };

/** The engine stand-in: only `hooks` is real; the suite never calls anything else. */
function engineStandIn(): EngineService {
  const hooks = createEngineHooks();
  return new Proxy({ hooks } as unknown as EngineService, {
    get(t, k) {
      if (k === "hooks") return hooks;
      if (k === "then") return undefined;
      throw new Error(`storage conformance: the engine stand-in has only hooks (asked for ${String(k)})`);
    },
  });
}

/** One session in memory, shaped as the engine keeps it. */
class Driver {
  constructor(readonly engine: EngineService) {}
  session(cwd: string, id = `sess-${Math.random().toString(36).slice(2, 10)}`, from?: { info: SessionInfo; rows: Row[]; turns: number; steps: number }): Session {
    const rows = from ? [...from.rows] : [];
    return {
      info: from?.info ?? { id, cwd, model: MODEL, createdAt: Date.now(), overrides: {} },
      rows,
      totals: { usage: { ...usage, inputTokens: 0, outputTokens: 0 }, costUsd: 0, turns: from?.turns ?? 0, steps: from?.steps ?? 0 },
      nextSeq: rows.length ? rows.at(-1)!.seq + 1 : 1,
      lastActive: Date.now(),
      ext: new Map(),
    };
  }
  async start(s: Session, source: "startup" | "resume" = "startup"): Promise<void> {
    await this.engine.hooks.sessionStart.call({ session: s, source });
  }
  /** One turn of one step: the user's text, the assistant's answer. */
  async turn(s: Session, user: string, answer: string): Promise<void> {
    const turn = s.totals.turns + 1;
    const at = Date.now();
    const u: Row = { role: "user", text: user, seq: s.nextSeq++, turn, step: 0, at };
    const a: Row = { role: "assistant", text: answer, toolCalls: [], usage, model: MODEL, seq: s.nextSeq++, turn, step: 1, at };
    s.rows.push(u, a);
    s.totals.turns = turn;
    s.totals.steps += 1;
    s.totals.usage.inputTokens += usage.inputTokens;
    s.totals.usage.outputTokens += usage.outputTokens;
    s.lastActive = at;
    const ctx = { session: s, turn, signal: new AbortController().signal, step: 1, sessionStep: s.totals.steps, model: { id: MODEL } as never };
    const step: StepRecord = { ctx, assistant: a as never, usage, gaugeTokens: 15, durationMs: 1 };
    await this.engine.hooks.afterStep.call(step);
    const rec: TurnRecord = { session: s, turn, reason: "end_turn", rows: [u, a] };
    await this.engine.hooks.afterTurn.call(rec);
  }
  async end(s: Session): Promise<void> {
    await this.engine.hooks.sessionEnd.call({ session: s, reason: "exit" });
  }
}

const texts = (rows: Row[]) => rows.map((r) => `${r.seq}:${r.role}:${"text" in r ? r.text : ""}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function describeStorageContract(name: string, make: (h: StorageHarness) => StorageFixture | Promise<StorageFixture>): void {
  describe(`storage contract: ${name}`, () => {
    let open: StorageFixture | undefined;
    afterEach(async () => {
      await open?.close?.();
      open = undefined;
    });
    async function setup() {
      const engine = engineStandIn();
      open = await make({ engine, dir: tempDir("oc-storage-conformance-") });
      return { engine, storage: open.storage, d: new Driver(engine) };
    }

    it("stores a session's rows, info and totals; loadSession gives them back in seq order", async () => {
      const { storage, d, engine } = await setup();
      const s = d.session("/work/p1");
      await d.start(s);
      await d.turn(s, "first question", "first answer");
      await d.turn(s, "second question", "second answer");
      await d.end(s);
      await storage.settle();
      const back = await storage.loadSession(s.info.id);
      expect(back).toBeDefined();
      expect(back!.info).toMatchObject({ id: s.info.id, cwd: "/work/p1", model: MODEL });
      expect(texts(back!.rows)).toEqual(texts(s.rows));
      expect(back!.totals.turns).toBe(2);
      expect(back!.totals.steps).toBe(2);
      // the engine reopens sessions through its loadSession hook: the store answers it
      const viaHook = await engine.hooks.loadSession.call({ id: s.info.id });
      expect(viaHook && "rows" in viaHook && texts(viaHook.rows)).toEqual(texts(s.rows));
    });

    it("a session opened and left before its first rows leaves nothing; events recorded before them go with them", async () => {
      const { storage, d } = await setup();
      const left = d.session("/work/empty");
      await d.start(left);
      await d.end(left);
      await storage.settle();
      expect(await storage.loadSession(left.info.id)).toBeUndefined();
      expect(await storage.listSessions({ cwd: "/work/empty" })).toEqual([]);
      const s = d.session("/work/early");
      await d.start(s);
      storage.recordEvent(s.info.id, "early", { at: "start" }); // e.g. a SessionStart hook's outcome
      await d.turn(s, "q", "a");
      await d.end(s);
      await storage.settle();
      expect((await storage.events(s.info.id, "early")).map((e) => e.data)).toEqual([{ at: "start" }]);
    });

    it("an unknown id loads as undefined (not an error)", async () => {
      const { storage, engine } = await setup();
      expect(await storage.loadSession("no-such-session")).toBeUndefined();
      expect(await engine.hooks.loadSession.call({ id: "no-such-session" })).toBeUndefined();
    });

    it("a resumed session continues: new rows follow the old ones, none duplicated", async () => {
      const { storage, d } = await setup();
      const s = d.session("/work/p1");
      await d.start(s);
      await d.turn(s, "before", "one");
      await d.end(s);
      await storage.settle();
      const stored = (await storage.loadSession(s.info.id))!;
      const r = d.session("/work/p1", s.info.id, { info: stored.info, rows: stored.rows, turns: stored.totals.turns, steps: stored.totals.steps });
      await d.start(r, "resume");
      await d.turn(r, "after", "two");
      await d.end(r);
      await storage.settle();
      const back = (await storage.loadSession(s.info.id))!;
      expect(back.rows.map((x) => x.seq)).toEqual([1, 2, 3, 4]);
      expect(texts(back.rows).map((t) => t.split(":").slice(1).join(":"))).toEqual(["user:before", "assistant:one", "user:after", "assistant:two"]);
      expect(back.totals.turns).toBe(2);
    });

    it("lists sessions newest first, per directory or all, honouring limit; latest is the newest of a directory", async () => {
      const { storage, d, engine } = await setup();
      const ids: string[] = [];
      for (const [cwd, q] of [["/work/a", "a1"], ["/work/b", "b1"], ["/work/a", "a2"]] as const) {
        const s = d.session(cwd);
        await d.start(s);
        await d.turn(s, q, `answer ${q}`);
        await d.end(s);
        ids.push(s.info.id);
        await sleep(15); // distinct update times
      }
      await storage.settle();
      const inA = await storage.listSessions({ cwd: "/work/a" });
      expect(inA.map((x) => x.id)).toEqual([ids[2], ids[0]]);
      expect(inA[0]).toMatchObject({ id: ids[2], cwd: "/work/a", model: MODEL, turns: 1, steps: 1 });
      expect(typeof inA[0]!.createdAt).toBe("number");
      expect(inA[0]!.updatedAt).toBeGreaterThanOrEqual(inA[1]!.updatedAt);
      const all = await storage.listSessions();
      expect(all.map((x) => x.id)).toEqual([ids[2], ids[1], ids[0]]);
      expect((await storage.listSessions({ limit: 2 })).map((x) => x.id)).toEqual([ids[2], ids[1]]);
      expect(await storage.latestSessionId("/work/a")).toBe(ids[2]);
      expect(await engine.hooks.latestSession.call({ cwd: "/work/b" })).toBe(ids[1]);
      expect(await storage.latestSessionId("/work/none")).toBeUndefined();
    });

    it("records events in order and keeps per-session overrides (saveInfo) across reopen", async () => {
      const { storage, d } = await setup();
      const s = d.session("/work/p");
      await d.start(s);
      await d.turn(s, "q", "a");
      storage.recordEvent(s.info.id, "conformance", { n: 1 });
      storage.recordEvent(s.info.id, "conformance", { n: 2 });
      storage.recordEvent(s.info.id, "other", { n: 3 });
      // as the engine's extensions do (e.g. /tideline): change the open session's info, then save it
      s.info.overrides = { ...s.info.overrides, tideline: "off" };
      storage.saveInfo(s.info);
      await d.end(s);
      await storage.settle();
      const ev = await storage.events(s.info.id, "conformance");
      expect(ev.map((e) => e.data)).toEqual([{ n: 1 }, { n: 2 }]);
      expect(ev.every((e) => e.sessionId === s.info.id && e.kind === "conformance")).toBe(true);
      expect((await storage.events(s.info.id)).length).toBe(3);
      expect((await storage.loadSession(s.info.id))!.info.overrides).toMatchObject({ tideline: "off" });
    });

    it("deletes a session: gone from list, load and latest", async () => {
      const { storage, d } = await setup();
      const s = d.session("/work/del");
      await d.start(s);
      await d.turn(s, "q", "a");
      await d.end(s);
      await storage.settle();
      await storage.deleteSession(s.info.id);
      expect(await storage.loadSession(s.info.id)).toBeUndefined();
      expect((await storage.listSessions({ cwd: "/work/del" })).length).toBe(0);
      expect(await storage.latestSessionId("/work/del")).toBeUndefined();
      expect(Array.isArray(await storage.staleSessions(0))).toBe(true);
    });

    it("a session claim (when the store answers claimSession) is exclusive until released", async () => {
      const { engine } = await setup();
      if (engine.hooks.claimSession.taps().length === 0) return; // no claim: one process per session is not promised
      const first = await engine.hooks.claimSession.call({ id: "claimed", wait: false });
      expect(first && "release" in first).toBe(true);
      // held: another claim is refused with a message (the engine turns it into OC_ERR_SESSION_BUSY)
      const second = await engine.hooks.claimSession.call({ id: "claimed", wait: false });
      expect(second && "refused" in second && typeof second.refused).toBe("string");
      // a claim on another session is independent
      const other = await engine.hooks.claimSession.call({ id: "claimed-other", wait: false });
      expect(other && "release" in other).toBe(true);
      await (other as { release(): Promise<void> }).release();
      await (first as { release(): Promise<void> }).release();
      const again = await engine.hooks.claimSession.call({ id: "claimed", wait: false });
      expect(again && "release" in again).toBe(true);
      await (again as { release(): Promise<void> }).release();
    });

    it("reports health after settle, and doctor checks in the documented shape", async () => {
      const { storage, d } = await setup();
      const s = d.session("/work/h");
      await d.start(s);
      await d.turn(s, "q", "a");
      await d.end(s);
      await storage.settle();
      if (storage.health) expect(storage.health()).toMatchObject({ ok: true, damaged: false });
      if (storage.doctorChecks) {
        const lines = await storage.doctorChecks();
        expect(lines.length).toBeGreaterThan(0);
        for (const l of lines) {
          expect(["ok", "info", "warn", "FAIL"]).toContain(l.status);
          expect(typeof l.check).toBe("string");
          expect(typeof l.detail).toBe("string");
        }
        expect(lines.some((l) => l.status === "FAIL")).toBe(false);
      }
      expect(typeof storage.dbPath).toBe("string");
    });
  });
}
