/**
 * The ACP client side for tests and the bench: `oceancode acp` as a child process, driven through the SDK's
 * own client (ClientApp over ndJsonStream), recording every session/update and raw stdout line.
 */
import { spawn, type ChildProcess, type ChildProcessWithoutNullStreams } from "node:child_process";
import fs from "node:fs";
import { Readable, Writable } from "node:stream";
import { client, methods, ndJsonStream, PROTOCOL_VERSION, type ClientCapabilities, type ClientConnection, type RequestPermissionRequest, type RequestPermissionResponse, type SessionNotification } from "@agentclientprotocol/sdk";
import { CLI } from "../../../test/kit/cli.js";

export interface AcpChild {
  child: ChildProcessWithoutNullStreams;
  conn: ClientConnection;
  updates: SessionNotification[];
  permissions: RequestPermissionRequest[];
  /** every stdout line as written (to check stdout carries JSON-RPC only) */
  stdoutLines: string[];
  stderr(): string;
  /** what the next permission request is answered with */
  answer: (req: RequestPermissionRequest) => Promise<RequestPermissionResponse> | RequestPermissionResponse;
  /** fs and terminal requests the agent made, as "method path-or-command" */
  clientCalls: string[];
  /** resolves with the exit code */
  exited: Promise<number | null>;
  initialize(caps?: ClientCapabilities): Promise<unknown>;
  kill(): void;
}

export function startAcp(env: NodeJS.ProcessEnv, args: string[] = [], cwd?: string): AcpChild {
  const child = spawn(process.execPath, [CLI, "acp", ...args], { env, cwd, stdio: ["pipe", "pipe", "pipe"] });
  let err = "";
  child.stderr.on("data", (d: Buffer) => (err += d.toString()));
  const stdoutLines: string[] = [];
  let partial = "";
  child.stdout.on("data", (d: Buffer) => {
    partial += d.toString();
    const lines = partial.split("\n");
    partial = lines.pop()!;
    stdoutLines.push(...lines);
  });
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  const updates: SessionNotification[] = [];
  const permissions: RequestPermissionRequest[] = [];
  const self: AcpChild = {
    child,
    conn: undefined as unknown as ClientConnection,
    updates,
    permissions,
    stdoutLines,
    clientCalls: [],
    stderr: () => err,
    answer: () => ({ outcome: { outcome: "selected", optionId: "allow_once" } }),
    exited,
    initialize: (caps: ClientCapabilities = {}) => self.conn.agent.request(methods.agent.initialize, { protocolVersion: PROTOCOL_VERSION, clientCapabilities: caps }),
    kill: () => {
      if (child.exitCode === null) child.kill("SIGKILL");
    },
  };
  const app = client({ name: "oceancode-test" })
    .onNotification(methods.client.session.update, ({ params }) => void updates.push(params))
    .onRequest(methods.client.session.requestPermission, async ({ params }) => {
      permissions.push(params);
      return self.answer(params);
    });
  serveFsAndTerminal(app, self);
  const stream = ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>);
  self.conn = app.connect(stream);
  return self;
}

/** The updates of one kind (sessionUpdate tag) for a session. */
export function updatesOf<K extends string>(c: AcpChild, sessionId: string, kind: K): Array<Extract<SessionNotification["update"], { sessionUpdate: K }>> {
  return c.updates.filter((u) => u.sessionId === sessionId && u.update.sessionUpdate === kind).map((u) => u.update) as Array<Extract<SessionNotification["update"], { sessionUpdate: K }>>;
}

/** An editor's side of fs/* (the real disk) and terminal/* (a spawned process), recording each call. */
function serveFsAndTerminal(app: ReturnType<typeof client>, self: AcpChild): void {
  const terms = new Map<string, { proc: ChildProcess; out: string; exit: Promise<{ exitCode: number | null; signal: string | null }> }>();
  let n = 0;
  app
    .onRequest(methods.client.fs.readTextFile, ({ params }) => {
      self.clientCalls.push(`fs/read_text_file ${params.path}`);
      const lines = fs.readFileSync(params.path, "utf8").split("\n");
      const start = (params.line ?? 1) - 1;
      return { content: lines.slice(start, params.limit ? start + params.limit : undefined).join("\n") };
    })
    .onRequest(methods.client.fs.writeTextFile, ({ params }) => {
      self.clientCalls.push(`fs/write_text_file ${params.path}`);
      fs.writeFileSync(params.path, params.content);
      return {};
    })
    .onRequest(methods.client.terminal.create, ({ params }) => {
      self.clientCalls.push(`terminal/create ${params.args?.join(" ") ?? params.command}`);
      const env = Object.fromEntries((params.env ?? []).map((e) => [e.name, e.value]));
      const proc = spawn(params.command, params.args ?? [], { cwd: params.cwd ?? undefined, env, detached: true });
      const t = { proc, out: "", exit: new Promise<{ exitCode: number | null; signal: string | null }>((resolve) => proc.on("close", (exitCode, signal) => resolve({ exitCode, signal }))) };
      proc.stdout!.on("data", (d: Buffer) => (t.out += d.toString()));
      proc.stderr!.on("data", (d: Buffer) => (t.out += d.toString()));
      const terminalId = `term-${++n}`;
      terms.set(terminalId, t);
      return { terminalId };
    })
    .onRequest(methods.client.terminal.waitForExit, async ({ params }) => terms.get(params.terminalId)!.exit)
    .onRequest(methods.client.terminal.output, async ({ params }) => {
      const t = terms.get(params.terminalId)!;
      const done = t.proc.exitCode !== null || t.proc.signalCode !== null;
      return { output: t.out, truncated: false, ...(done ? { exitStatus: await t.exit } : {}) };
    })
    .onRequest(methods.client.terminal.kill, ({ params }) => {
      self.clientCalls.push(`terminal/kill ${params.terminalId}`);
      const p = terms.get(params.terminalId)!.proc;
      if (p.pid) process.kill(-p.pid, "SIGKILL");
      return {};
    })
    .onRequest(methods.client.terminal.release, ({ params }) => {
      self.clientCalls.push(`terminal/release ${params.terminalId}`);
      return {};
    });
}
