/**
 * The obs core in process (the real LogCore, RotatingFile and redactor on a temp dir): the ring keeps the
 * last 200 lines at every level, subscribers get each line until they unsubscribe, the file gets its level
 * and up, a line's own keys are not overwritten by fields, errors are kept redacted, the async context
 * adds session/turn/step across awaits and stays inside withContext.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { AsyncLocalStorage } from "node:async_hooks";
import { afterAll, describe, expect, it } from "vitest";
import { LogCore, RING_SIZE } from "../logger.js";
import { RotatingFile } from "../rotate.js";
import { redactorFor } from "../redact.js";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "oc-obs-core-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const SECRET = "canary-core-secret-77";

function core(file?: string): LogCore {
  const c = new LogCore({ redact: redactorFor({ MY_API_TOKEN: SECRET }), fileLevel: "info" });
  if (file) c.file = new RotatingFile({ file, rotateBytes: 1 << 20, keep: 2, onFailure: (m) => { throw new Error(m); } });
  return c;
}

describe("obs core", () => {
  it("the ring: every level, the last 200, oldest first; subscribers until unsubscribed; the file from its level up", () => {
    const file = path.join(tmp, "a.log");
    const c = core(file);
    const seen: string[] = [];
    const off = c.subscribe((l) => seen.push(l));
    c.write("trace", "t0", { ext: "x" });
    c.write("debug", "d0", { ext: "x" });
    c.write("info", "i0", { ext: "x" });
    off();
    c.write("warn", "w0", { ext: "x" });
    expect(seen.map((l) => (JSON.parse(l) as { msg: string }).msg)).toEqual(["t0", "d0", "i0"]);
    expect(fs.readFileSync(file, "utf8").trim().split("\n").map((l) => (JSON.parse(l) as { msg: string }).msg)).toEqual(["i0", "w0"]);
    for (let i = 0; i < RING_SIZE + 50; i++) c.write("debug", `n${i}`, { ext: "x" });
    const ring = c.ring.last();
    expect(ring).toHaveLength(RING_SIZE);
    expect((JSON.parse(ring[0]!) as { msg: string }).msg).toBe("n50");
    expect((JSON.parse(ring.at(-1)!) as { msg: string }).msg).toBe(`n${RING_SIZE + 49}`);
    expect(c.ring.last(3).map((l) => (JSON.parse(l) as { msg: string }).msg)).toEqual([`n${RING_SIZE + 47}`, `n${RING_SIZE + 48}`, `n${RING_SIZE + 49}`]);
  });

  it("fields: own keys (level, time, msg, ext) are not overwritten; errors kept as type/message/stack, redacted; the display text is redacted", () => {
    const c = core();
    const shown = c.write("error", `failed with ${SECRET}`, { ext: "x", level: "info", msg: "spoof", err: new Error(`boom ${SECRET}`), n: 3 });
    expect(shown).toBe("failed with ***");
    const line = JSON.parse(c.ring.last(1)[0]!) as Record<string, unknown>;
    expect(line).toMatchObject({ level: "error", ext: "x", msg: "failed with ***", n: 3, err: { type: "Error", message: "boom ***" } });
    expect(c.ring.last(1)[0]!).not.toContain(SECRET);
    expect(c.ring.last(1)[0]!.match(/"level"/g)).toHaveLength(1);
  });

  it("the async context: lines inside withContext carry its fields across awaits, enterContext adds the step, nothing leaks outside", async () => {
    const c = core();
    const ctx: AsyncLocalStorage<Record<string, unknown>> = c.context;
    await ctx.run({ session: "ses_1" }, async () => {
      ctx.enterWith({ ...ctx.getStore(), turn: 1, step: 2 });
      await new Promise((r) => setTimeout(r, 1));
      c.write("info", "inside", { ext: "x" });
    });
    c.write("info", "outside", { ext: "x" });
    const [inside, outside] = c.ring.last(2).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(inside).toMatchObject({ session: "ses_1", turn: 1, step: 2, msg: "inside" });
    expect(outside!.session).toBeUndefined();
  });
});
