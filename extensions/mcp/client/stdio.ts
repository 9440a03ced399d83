/**
 * A stdio transport for the SDK Client that owns its child: the server runs in its own process group
 * (detached), so closing kills the whole group — a server that left a grandchild holding the pipe open
 * still goes — and close() is bounded (stdin end, then SIGTERM to the group, then SIGKILL; resolves within
 * ~2 s). Every live group is also killed synchronously when this process exits (see killAllGroups).
 * The SDK's StdioClientTransport spawns without a process group, hence this small copy of its framing.
 */
import type { ChildProcess } from "node:child_process";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { killGroup, spawnGroup, untrackGroup, type GroupSpawn } from "./groups.js";

export { killAllGroups, killGroup, liveGroupCount } from "./groups.js";

export type StdioSpawn = GroupSpawn;

const STDERR_KEEP = 2000;

export class GroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child?: ChildProcess;
  private readonly buffer = new ReadBuffer();
  private exited = false;
  private stderrTail = "";

  /** `spawned`: a child the manager already started (spawnGroup) while the SDK loaded */
  constructor(
    private readonly spec: StdioSpawn,
    private readonly spawned?: Promise<ChildProcess>,
  ) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }
  /** the last lines the server wrote to stderr (for a failure's reason) */
  get stderr(): string {
    return this.stderrTail.trim();
  }

  async start(): Promise<void> {
    let child: ChildProcess;
    try {
      child = await (this.spawned ?? spawnGroup(this.spec));
    } catch (e) {
      this.exited = true;
      throw e;
    }
    this.child = child;
    // 'exit', not 'close': a grandchild holding stdout open must not keep the connection alive
    if (child.exitCode !== null || child.signalCode !== null) this.markExited();
    else child.once("exit", () => this.markExited());
    child.stdin?.on("error", (e) => this.onerror?.(e));
    child.stdout?.on("data", (chunk: Buffer) => {
      this.buffer.append(chunk);
      for (;;) {
        let msg: JSONRPCMessage | null;
        try {
          msg = this.buffer.readMessage();
        } catch (e) {
          this.onerror?.(e instanceof Error ? e : new Error(String(e)));
          continue;
        }
        if (msg === null) break;
        this.onmessage?.(msg);
      }
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString("utf8")).slice(-STDERR_KEEP);
    });
  }

  private markExited(): void {
    if (this.exited) return;
    this.exited = true;
    if (this.child?.pid) {
      // the leader died; its group may live on (a grandchild): kill what is left
      killGroup(this.child.pid, "SIGKILL");
      untrackGroup(this.child.pid);
    }
    for (const s of [this.child?.stdout, this.child?.stderr]) s?.destroy();
    this.child?.stdin?.destroy();
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin || this.exited) return reject(new Error("the server process is not running"));
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once("drain", () => resolve());
    });
  }

  /** Bounded: stdin closed, 500 ms grace, SIGTERM to the group, SIGKILL at 1.5 s; resolves by ~2 s. */
  async close(): Promise<void> {
    const child = this.child;
    if (!child || this.exited || !child.pid) return;
    const pid = child.pid;
    const gone = new Promise<void>((r) => child.once("exit", () => r()));
    // ref'd timers: a caller awaiting close (the kernel's shutdown) must not see the event loop run dry
    const wait = async (ms: number) => {
      let timer: NodeJS.Timeout | undefined;
      const out = await Promise.race([gone.then(() => true), new Promise<boolean>((r) => (timer = setTimeout(() => r(false), ms)))]);
      clearTimeout(timer);
      return out;
    };
    child.stdin?.end();
    if (await wait(500)) return;
    killGroup(pid, "SIGTERM");
    if (await wait(1000)) return;
    killGroup(pid, "SIGKILL");
    await wait(500);
    this.markExited();
  }
}
