/**
 * `oceancode acp`: the Agent Client Protocol on stdin/stdout (newline-delimited JSON-RPC 2.0 through
 * @agentclientprotocol/sdk). stdout carries protocol messages only: the kernel's log already goes to
 * stderr, and engine notices become updates or log lines, never writes of their own. The process serves
 * until stdin closes, then closes its sessions (bounded) and returns.
 */
import { agent, methods, ndJsonStream, PROTOCOL_VERSION, type AgentConnection, type ClientCapabilities, type InitializeResponse, type SessionUpdate, type SetSessionModeRequest, type ToolCallUpdate } from "@agentclientprotocol/sdk";
import type { CommandIO, ExtensionContext } from "../../kernel/api.js";
import { DEFAULT_MODEL_ID, type Question, type ToolCallContext } from "../engine/api.js";
import { runThroughClient } from "./client-fs.js";
import { runInClientTerminal } from "./client-terminal.js";
import { toolKind, toolTitle } from "./map.js";
import { askClient } from "./permission.js";
import { cancelTurn, runPrompt } from "./prompt.js";
import { closeSession, listSessions, loadSession, newSession, resumeSession, setMode } from "./sessions.js";
import type { AcpHost, AcpSession } from "./state.js";
import { toolCallRunning } from "./updates.js";
import { AcpNoEngine } from "./errors.js";
import { InitQueue } from "./init-queue.js";

/** How long closing sessions may take once stdin has closed (the ledger and database flush). */
const CLOSE_BUDGET_MS = 3000;

/** Node streams as the web streams ndJsonStream takes. */
function webStreams(io: CommandIO): { output: WritableStream<Uint8Array>; input: ReadableStream<Uint8Array> } {
  let queue: InitQueue | undefined;
  const output = new WritableStream<Uint8Array>({
    write: (chunk) =>
      new Promise<void>((resolve, reject) => {
        const releases = queue?.output(chunk) ?? false;
        io.stdout.write(chunk, (err) => {
          if (err) return reject(err);
          // the initialize reply is out: what the client sent after it goes to the SDK now
          if (releases) queue?.release();
          resolve();
        });
      }),
  });
  const input = new ReadableStream<Uint8Array>({
    start(controller) {
      queue = new InitQueue(
        (bytes) => controller.enqueue(bytes),
        () => controller.close(),
      );
      const q = queue;
      io.stdin.on("data", (d: Buffer | string) => q.input(typeof d === "string" ? Buffer.from(d) : new Uint8Array(d)));
      io.stdin.on("end", () => q.end());
      io.stdin.on("error", (e) => controller.error(e));
    },
  });
  return { output, input };
}

/** A number from the tools extension's config section (the same defaults as the native tools). */
function toolsSetting(ctx: ExtensionContext, key: string, fallback: number): number {
  const v = ctx.config.section<Record<string, unknown>>("tools")[key];
  return typeof v === "number" && v > 0 ? v : fallback;
}

/** The announced call a question is about: the oldest open, not yet asked call of that tool (with its diff as announced). */
function callFor(s: AcpSession | undefined, q: Question): ToolCallUpdate {
  for (const [id, call] of s?.open ?? []) {
    if (call.name !== q.tool || s!.asked.has(id)) continue;
    s!.asked.add(id);
    const content = s!.shown.get(id) ?? [];
    return { toolCallId: id, title: toolTitle(call), kind: toolKind(call.name), status: "pending", rawInput: call.input, ...(content.length ? { content } : {}) };
  }
  // an ask that is not about an announced call (an MCP server's elicitation): its own id
  return { toolCallId: `ask-${Date.now()}`, title: `${q.tool}: ${q.subject}`, kind: toolKind(q.tool), status: "pending" };
}

/** The engine side of the host: services, the question handler and the executeTool tap (after onSession). */
async function bootHost(ctx: ExtensionContext, conn: () => AgentConnection | undefined): Promise<AcpHost> {
  await ctx.activate("onSession");
  let updates: Promise<void> = Promise.resolve();
  const engine = ctx.services.tryGet("engine");
  if (!engine) throw AcpNoEngine();
  const host: AcpHost = {
    engine,
    permissions: ctx.services.tryGet("permissions"),
    planMode: ctx.services.tryGet("plan-mode"),
    storage: ctx.services.tryGet("storage"),
    mcp: ctx.services.tryGet("mcp"),
    todos: ctx.services.tryGet("todos"),
    log: ctx.log,
    model: () => {
      const m = ctx.config.get("model");
      return typeof m === "string" && m ? m : DEFAULT_MODEL_ID;
    },
    sessions: new Map(),
    // one chain for every update: the prompt's events and the executeTool tap's in_progress (or terminal)
    // reach the client in the order they happened, whichever path sent them
    update: (sessionId: string, update: SessionUpdate) =>
      (updates = updates.then(async () => {
        const c = conn();
        if (!c || c.signal.aborted) return;
        await c.client.notify(methods.client.session.update, { sessionId, update }).catch((e: unknown) => ctx.log.debug(`acp: update not sent: ${(e as Error).message}`));
      })),
  };
  engine.setQuestionHandler((q, signal) =>
    askClient(q, signal, {
      request: (params, cancel) => {
        const c = conn();
        if (!c) return Promise.reject(new Error("no client connected"));
        return c.client.request(methods.client.session.requestPermission, params, { cancellationSignal: cancel, stopWaitingOnCancel: true });
      },
      toolCall: (question) => callFor(host.sessions.get(question.sessionId), question),
      rejectedAlways: (sid) => host.sessions.get(sid)?.rejected ?? new Set(),
    }),
  );
  // innermost around the tool's run (after asks, inside sandbox and hooks): mark the call running, and let
  // the editor serve reads, writes and bash when it offers fs and terminal
  engine.hooks.executeTool.tap({ name: ctx.id, stage: "client" }, (next) => async (call: ToolCallContext) => {
    const sid = call.session.info.id;
    const c = conn()?.client;
    if (!host.sessions.has(sid) || !c) return next(call);
    await host.update(sid, toolCallRunning(call.call.id));
    const cancel = { cancellationSignal: call.signal, stopWaitingOnCancel: true };
    const routed =
      (await runThroughClient(call, host.clientCaps, {
        readTextFile: (p) => c.request(methods.client.fs.readTextFile, p, cancel),
        writeTextFile: async (p) => void (await c.request(methods.client.fs.writeTextFile, p, cancel)),
      })) ??
      (host.clientCaps?.terminal
        ? await runInClientTerminal(call, {
            create: (p) => c.createTerminal(p),
            // the call's approval goes with it: the sandbox confines what no person approved
            compose: (spec, sessionId) =>
              engine.hooks.childProcess.call(spec, { sessionId, tool: call.call.name, callId: call.call.id, ...(call.approval ? { approval: call.approval } : {}), ...(call.call.input.dangerouslyDisableSandbox === true ? { unconfined: true } : {}) }),
            attach: (sessionId, toolCallId, terminalId) => {
              host.sessions.get(sessionId)?.shown.set(toolCallId, [{ type: "terminal", terminalId }]);
              return host.update(sessionId, { sessionUpdate: "tool_call_update", toolCallId, content: [{ type: "terminal", terminalId }] });
            },
            timeoutMs: toolsSetting(ctx, "bash_timeout_ms", 120_000),
            maxOutputChars: toolsSetting(ctx, "max_output_chars", 30_000),
          })
        : undefined);
    return routed ?? next(call);
  });
  return host;
}

export async function serveAcp(ctx: ExtensionContext, argv: string[], io: CommandIO): Promise<number> {
  if (argv.length) {
    io.stderr.write(`oceancode acp: unexpected argument '${argv[0]}'\nusage: oceancode acp [--db <file>] [--directory <dir>] [-v]\n`);
    return 2;
  }
  let conn: AgentConnection | undefined;
  let clientCaps: ClientCapabilities | undefined;
  // the session extensions activate while the client initializes: initialize is answered at once, and
  // the session methods wait for the host
  const ready = bootHost(ctx, () => conn).then((h) => {
    h.clientCaps = clientCaps;
    return h;
  });
  ready.catch((e: unknown) => io.stderr.write(`oceancode acp: ${(e as Error).message}\n`));
  const withHost =
    <P, R>(fn: (host: AcpHost, params: P, signal: AbortSignal) => Promise<R>) =>
    async ({ params, signal }: { params: P; signal: AbortSignal }): Promise<R> =>
      fn(await ready, params, signal);

  const app = agent({ name: "oceancode" })
    .onRequest(methods.agent.initialize, ({ params }): InitializeResponse => {
      clientCaps = params.clientCapabilities;
      void ready.then((h) => (h.clientCaps = clientCaps), () => undefined);
      return {
        protocolVersion: PROTOCOL_VERSION,
        agentCapabilities: {
          loadSession: true,
          // text, resource links and embedded text resources become the prompt's text; images are not taken
          promptCapabilities: { image: false, audio: false, embeddedContext: true },
          sessionCapabilities: { list: {}, resume: {}, close: {} },
          // the editor's mcpServers are handed to the MCP extension (stdio always; these two besides)
          mcpCapabilities: { http: true, sse: true },
        },
        agentInfo: { name: "oceancode", version: ctx.manifest.version ?? "0.0.0" },
        authMethods: [],
      };
    })
    .onRequest(methods.agent.authenticate, () => ({}))
    .onRequest(methods.agent.session.new, withHost(newSession))
    .onRequest(methods.agent.session.load, withHost(loadSession))
    .onRequest(methods.agent.session.list, withHost(listSessions))
    .onRequest(methods.agent.session.resume, withHost(resumeSession))
    .onRequest(methods.agent.session.close, withHost(closeSession))
    .onRequest(
      methods.agent.session.setMode,
      withHost(async (host, params: SetSessionModeRequest) => {
        await setMode(host, params);
        return {};
      }),
    )
    .onRequest(methods.agent.session.prompt, withHost(runPrompt))
    .onNotification(methods.agent.session.cancel, async ({ params }) => cancelTurn(await ready, params.sessionId));

  const { output, input } = webStreams(io);
  conn = app.connect(ndJsonStream(output, input));
  ctx.log.info("acp: serving on stdio");
  await conn.closed;
  const host = await ready.catch(() => undefined);
  if (!host) return 1;
  host.engine.setQuestionHandler(undefined);
  await closeAll(host, ctx);
  return 0;
}

/** stdin closed: stop running turns and close every session, within CLOSE_BUDGET_MS. */
async function closeAll(host: AcpHost, ctx: ExtensionContext): Promise<void> {
  const all = [...host.sessions.values()];
  for (const s of all) s.turn?.abort();
  let timer: NodeJS.Timeout | undefined;
  const budget = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), CLOSE_BUDGET_MS);
  });
  const closeOne = async (s: AcpSession): Promise<void> => {
    await s.turnEnded; // an aborted turn ends first, so its rows are stored before the session closes
    await host.engine.closeSession(s.session, "exit");
  };
  const closed = Promise.all(all.map((s) => closeOne(s).catch((e: unknown) => ctx.log.warn(`acp: closing ${s.session.info.id}: ${(e as Error).message}`))));
  if ((await Promise.race([closed, budget])) === "timeout") ctx.log.warn(`acp: sessions still closing after ${CLOSE_BUDGET_MS} ms; exiting anyway`);
  clearTimeout(timer);
}
