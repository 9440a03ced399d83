/**
 * The ACP client side for tests and the bench: `oceancode acp` as a child process, driven through the SDK's
 * own client (ClientApp over ndJsonStream), recording every session/update and raw stdout line.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { Readable, Writable } from "node:stream";
import { client, methods, ndJsonStream, PROTOCOL_VERSION, type ClientCapabilities, type ClientConnection, type RequestPermissionRequest, type RequestPermissionResponse, type SessionNotification } from "@agentclientprotocol/sdk";
import { CLI } from "../helpers/cli.js";

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
  const stream = ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>);
  self.conn = app.connect(stream);
  return self;
}

/** The updates of one kind (sessionUpdate tag) for a session. */
export function updatesOf<K extends string>(c: AcpChild, sessionId: string, kind: K): Array<Extract<SessionNotification["update"], { sessionUpdate: K }>> {
  return c.updates.filter((u) => u.sessionId === sessionId && u.update.sessionUpdate === kind).map((u) => u.update) as Array<Extract<SessionNotification["update"], { sessionUpdate: K }>>;
}
