/**
 * An idle session leaves memory and reloads from the database on its next use (storage on disk,
 * the real kernel and bundled extensions, in process).
 */
import { describe, expect, it } from "vitest";
import type { Kernel } from "../../../kernel/kernel.js";
import type { EngineService, Session } from "../api.js";
import type { Sandbox } from "../../../test/kit/cli.js";
import { kernelTests } from "../../../test/kit/kernel-boot.js";

let sb: Sandbox;
let kernel: Kernel | undefined;
const { makeSandbox, discoverKernel } = kernelTests();

interface EvictingEngine extends EngineService {
  evictIdle(now?: number): void;
  isOpen(id: string): boolean;
}

describe("idle sessions", () => {
  it("leave memory after engine.idle_minutes and reload with their rows on use", async () => {
    sb = makeSandbox();
    kernel = await discoverKernel(sb);
    await kernel.activate("onSession");
    const engine = await kernel.service("engine");
    const s: Session = await engine.createSession({ cwd: sb.project, model: "scripted/echo" });
    const r = await engine.prompt(s, "first");
    expect(r.text).toBe("ok: first");
    const id = s.info.id;

    engine.evictIdle(Date.now() + 14 * 60_000);
    expect(engine.isOpen(id)).toBe(true); // not idle long enough (default 15 minutes)
    engine.evictIdle(Date.now() + 16 * 60_000);
    expect(engine.isOpen(id)).toBe(false);

    const again = await engine.openSession(id);
    expect(again).not.toBe(s);
    expect(again.rows.map((x) => x.role)).toEqual(["user", "assistant"]);
    expect(again.nextSeq).toBe(s.nextSeq);
    const r2 = await engine.prompt(again, "second");
    expect(r2.text).toBe("ok: second");
    expect(again.totals.turns).toBe(2);
  });
});
