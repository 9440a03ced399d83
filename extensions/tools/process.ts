/**
 * Start a child in its own process group and kill the whole group (timeouts, aborts, job_kill). Every group
 * started here is tracked until it is empty, so a run that is stopped (a signal, the kernel's shutdown) ends
 * them all (endAllGroups) and a process that exits any other way SIGKILLs what is left (an 'exit' listener).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { StringDecoder } from "node:string_decoder";
import type { SpawnSpec } from "../engine/api.js";
import { groupAlive, groupRegistry, signalGroup } from "./process-groups.js";

/** the groups this process started that may still have a member (killed at exit whatever happens) */
const groups = groupRegistry();
const untrackIfEmpty = (pgid: number): void => groups.untrackIfEmpty(pgid);

/** How many groups this process started still have a live member. */
export function liveGroupCount(): number {
  for (const g of groups.tracked()) untrackIfEmpty(g);
  return groups.tracked().length;
}

/**
 * End every group this process started: SIGTERM, then SIGKILL to what is left after `graceMs`, then wait
 * (bounded) until the groups are empty. Resolves to how many groups were alive at the start.
 */
export async function endAllGroups(graceMs = 1000): Promise<number> {
  const alive = groups.tracked().filter(groupAlive);
  for (const g of groups.tracked()) if (!alive.includes(g)) groups.forget(g);
  if (alive.length === 0) return 0;
  for (const g of alive) signalGroup(g, "SIGTERM");
  const gone = async (deadline: number): Promise<boolean> => {
    while (alive.some(groupAlive)) {
      if (Date.now() >= deadline) return false;
      await new Promise((r) => setTimeout(r, 20));
    }
    return true;
  };
  if (!(await gone(Date.now() + graceMs))) {
    for (const g of alive) if (groupAlive(g)) signalGroup(g, "SIGKILL");
    await gone(Date.now() + 2000);
  }
  for (const g of alive) untrackIfEmpty(g);
  return alive.length;
}

/** SIGTERM to the group, then SIGKILL after a grace period if anything in it is still alive. */
export function killGroup(child: ChildProcess, graceMs = 1000): void {
  const pid = child.pid;
  if (pid === undefined) return;
  if (!signalGroup(pid, "SIGTERM")) return;
  const t = setTimeout(() => {
    signalGroup(pid, "SIGKILL");
    // the SIGKILL has been delivered by the time kill(2) returns; the members are gone once reaped
    setTimeout(() => untrackIfEmpty(pid), 100).unref();
  }, graceMs);
  t.unref();
}

export interface Started {
  child: ChildProcess;
  /** resolves when the child exited and its pipes drained (or shortly after exit, if a grandchild keeps them open) */
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export type StreamName = "stdout" | "stderr";

/**
 * Spawn `spec` detached (own process group), stdin closed, stdout+stderr decoded in arrival order.
 * `onText` is told which stream each piece came from (bash keeps them apart for hooks' tool_response).
 */
export function startChild(spec: SpawnSpec, onText: (s: string, stream: StreamName) => void): Started {
  const child = spawn(spec.command, spec.args, {
    cwd: spec.cwd,
    env: spec.env,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  if (child.pid !== undefined) groups.track(child.pid);
  const decoders = [new StringDecoder("utf8"), new StringDecoder("utf8")];
  child.stdout?.on("data", (b: Buffer) => onText(decoders[0]!.write(b), "stdout"));
  child.stderr?.on("data", (b: Buffer) => onText(decoders[1]!.write(b), "stderr"));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let finished = false;
    const finish = (): void => {
      if (finished) return;
      finished = true;
      onText(decoders[0]!.end(), "stdout");
      onText(decoders[1]!.end(), "stderr");
      resolve(exited ?? { code: null, signal: null });
    };
    child.once("error", (e) => {
      onText(`failed to start ${spec.command}: ${e.message}\n`, "stderr");
      exited = { code: 127, signal: null };
      finish();
    });
    child.once("close", (code, signal) => {
      exited ??= { code, signal };
      if (child.pid !== undefined) untrackIfEmpty(child.pid);
      finish();
    });
    child.once("exit", (code, signal) => {
      exited = { code, signal };
      if (child.pid !== undefined) untrackIfEmpty(child.pid);
      // a backgrounded grandchild may hold the pipes open: stop waiting for them shortly after exit
      const t = setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
      }, 200);
      t.unref();
    });
  });
  return { child, done };
}
