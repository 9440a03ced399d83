/** The session lock across real processes: one holder at a time, the holder named, released by kill -9, --wait queues. */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { acquireSessionLock, busyHolder } from "../lock.js";
import { SessionBusy } from "../../engine/kit.js";
import { REPO_ROOT } from "../../../test/kit/cli.js";

const LOCK_JS = path.join(REPO_ROOT, "dist", "extensions", "storage", "lock.js");
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill("SIGKILL");
});

/** A child process that takes the lock and holds it until killed; resolves once it holds it. */
function holder(db: string, id: string): Promise<ChildProcess> {
  const code = `import { acquireSessionLock } from ${JSON.stringify(LOCK_JS)};
    await acquireSessionLock(${JSON.stringify(db)}, ${JSON.stringify(id)});
    process.stdout.write("held\\n");
    setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", code], { stdio: ["ignore", "pipe", "inherit"] });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (d: Buffer) => d.toString().includes("held") && resolve(child));
    child.on("exit", (c) => reject(new Error(`holder exited ${c}`)));
  });
}

const db = `/tmp/oc-lock-test-${process.pid}.db`;

describe("session lock", () => {
  it("refuses a second process, naming the holder; a kill -9 releases it", async () => {
    const h = await holder(db, "s1");
    const e = await acquireSessionLock(db, "s1").then(
      () => undefined,
      (x: unknown) => x,
    );
    expect(SessionBusy.is(e)).toBe(true);
    expect(busyHolder(e)?.pid).toBe(h.pid);
    expect((e as Error).message).toContain(`process ${h.pid} on `);
    // other sessions and other databases are independent
    const other = await acquireSessionLock(db, "s2");
    await other.release();
    const otherDb = await acquireSessionLock(`${db}-2`, "s1");
    await otherDb.release();
    h.kill("SIGKILL");
    await new Promise((r) => h.once("exit", r));
    const mine = await acquireSessionLock(db, "s1");
    await mine.release();
  });

  it("with wait, queues behind the holder and gets the lock when it dies", async () => {
    const h = await holder(db, "s3");
    const t0 = Date.now();
    setTimeout(() => h.kill("SIGKILL"), 400);
    const mine = await acquireSessionLock(db, "s3", { wait: true, pollMs: 50 });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(350);
    await mine.release();
  });

  it("release lets the next one in, in the same process", async () => {
    const a = await acquireSessionLock(db, "s4");
    await expect(acquireSessionLock(db, "s4")).rejects.toMatchObject({ code: SessionBusy.code });
    await a.release();
    const b = await acquireSessionLock(db, "s4");
    await b.release();
  });
});
