/**
 * One server's live connection: the SDK Client over stdio (our process-group transport), Streamable
 * HTTP or SSE; its status (connecting / connected / needs-auth / failed with a reason), its tool list
 * (re-read on tools/list_changed), calls, and the crash restart (stdio: 1 s, 2 s, 4 s, at most 3 per
 * session). Everything a server does wrong comes back as a status or an error result, never a throw.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import type { ChildProcess } from "node:child_process";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { CreateMessageRequestSchema, ElicitRequestSchema, ErrorCode, McpError, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import type { ToolOutput } from "../../engine/api.js";
import type { ServerConfig, ServerEntry, ServerStatus } from "../api.js";
import { toToolOutput, type McpCallResult } from "./convert.js";
import { GroupStdioTransport, type StdioSpawn } from "./stdio.js";
import { samplingRefusal, type ElicitParams, type ElicitResult } from "./elicit.js";
import { mcpErrorCounts } from "./error-count.js";
import { McpServerGone } from "../errors.js";

export interface McpToolInfo {
  /** the server's own name for it */
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export interface ConnectionDeps {
  /** `${VAR}`-expanded config (the entry's config after expandServer) */
  config: ServerConfig;
  /** the stdio child's spawn spec (env stripped through the childProcess waterfall, plus the entry's env) */
  spawnSpec?: () => Promise<StdioSpawn>;
  /** the first stdio child, already spawned by the manager while the SDK loaded (restarts spawn anew) */
  prespawned?: Promise<ChildProcess>;
  connectTimeoutMs: number;
  /** per tools/call (MCP_TOOL_TIMEOUT) */
  callTimeoutMs: number;
  /** restart backoff, ms per try (default 1000, 2000, 4000) */
  backoffMs?: number[];
  onToolsChanged: (c: Connection) => void;
  /** a status change the user should hear about (a crash, a restart) */
  report: (level: "info" | "warn" | "error", text: string) => void;
  /** a remote server's stored OAuth login (client/oauth.ts): its tokens presented, refreshed on 401 */
  authProvider?: OAuthClientProvider;
  /** a server's elicitation/create (client/elicit.ts); absent: declined */
  elicit?: (server: string, params: ElicitParams, signal: AbortSignal, sessionId?: string) => Promise<ElicitResult>;
}

const VERSION = "0.1.0";

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function isAuthError(e: unknown): boolean {
  const o = e as { code?: unknown; name?: unknown };
  return o?.code === 401 || o?.name === "UnauthorizedError" || /\b401\b|unauthori[sz]ed/i.test(message(e));
}

export class Connection {
  status: ServerStatus = "connecting";
  reason?: string;
  tools: McpToolInfo[] = [];
  /** the server's `instructions` from its initialize answer (the model sees them bounded: client/context.ts) */
  instructions?: string;
  pid?: number;
  restarts = 0;
  /** the session of the latest tools/call (a server asks during a call: the question is that session's) */
  caller?: string;
  private client?: Client;
  private transport?: Transport;
  private closing = false;
  private ready?: Promise<void>;

  constructor(
    readonly entry: ServerEntry,
    private readonly deps: ConnectionDeps,
  ) {}

  get name(): string {
    return this.entry.name;
  }

  /** Connect (once; a second call returns the same promise). Settles when connected or failed. */
  start(): Promise<void> {
    this.ready ??= this.connect();
    return this.ready;
  }

  private async makeTransport(): Promise<Transport> {
    const c = this.deps.config;
    if (c.type === "stdio") {
      const fallback: StdioSpawn = { command: c.command, args: c.args, env: { ...process.env, ...c.env }, cwd: c.cwd ?? process.cwd() };
      const pre = this.deps.prespawned;
      if (pre) {
        delete this.deps.prespawned;
        return new GroupStdioTransport(fallback, pre);
      }
      return new GroupStdioTransport(this.deps.spawnSpec ? await this.deps.spawnSpec() : fallback);
    }
    const init = { requestInit: { headers: c.headers }, ...(this.deps.authProvider ? { authProvider: this.deps.authProvider } : {}) };
    return c.type === "sse" ? new SSEClientTransport(new URL(c.url), init) : new StreamableHTTPClientTransport(new URL(c.url), init);
  }

  private async connect(): Promise<void> {
    this.status = "connecting";
    delete this.reason;
    let transport: Transport | undefined;
    let timer: NodeJS.Timeout | undefined;
    try {
      transport = await this.makeTransport();
      this.transport = transport;
      if (this.closing) throw McpServerGone({ what: "closed before it connected" });
      // elicitation (form mode) goes to the host's questions; sampling is declared only to refuse it politely
      const client = new Client({ name: "oceancode", version: VERSION }, { capabilities: { elicitation: {}, sampling: {} } });
      client.setRequestHandler(ElicitRequestSchema, async (req, extra) => {
        const params = req.params as ElicitParams & { mode?: string };
        if (params.mode === "url" || !this.deps.elicit) return { action: "decline" };
        return this.deps.elicit(this.name, params, extra.signal, this.caller);
      });
      client.setRequestHandler(CreateMessageRequestSchema, () => {
        throw new McpError(ErrorCode.InvalidRequest, samplingRefusal(this.name));
      });
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${Math.round(this.deps.connectTimeoutMs / 1000)} s`)), this.deps.connectTimeoutMs);
      });
      await Promise.race([client.connect(transport), timeout]);
      this.client = client;
      const instructions = client.getInstructions();
      if (typeof instructions === "string" && instructions.trim()) this.instructions = instructions;
      else delete this.instructions;
      if (transport instanceof GroupStdioTransport) this.pid = transport.pid;
      client.onclose = () => this.onClosed(client);
      if (client.getServerCapabilities()?.tools) {
        client.setNotificationHandler(ToolListChangedNotificationSchema, () => void this.listTools().catch(() => undefined));
        await Promise.race([this.listTools(), timeout]);
      }
      this.status = "connected";
    } catch (e) {
      this.status = isAuthError(e) ? "needs-auth" : "failed";
      mcpErrorCounts.connect++;
      const stderr = transport instanceof GroupStdioTransport ? transport.stderr.split("\n").slice(-1)[0] : "";
      this.reason = this.status === "needs-auth" ? `the server answered 401: it needs authorization (oceancode mcp login ${this.name})` : `${message(e)}${stderr ? ` (stderr: ${stderr})` : ""}`;
      this.client = undefined;
      await transport?.close().catch(() => undefined);
    } finally {
      clearTimeout(timer);
    }
  }

  private async listTools(): Promise<void> {
    const client = this.client;
    if (!client) return;
    const out: McpToolInfo[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : {});
      for (const t of page.tools) out.push({ name: t.name, description: t.description ?? "", inputSchema: t.inputSchema as Record<string, unknown> });
      cursor = page.nextCursor;
    } while (cursor);
    this.tools = out;
    this.deps.onToolsChanged(this);
  }

  /** The SDK client while connected (resources, prompts); undefined otherwise. */
  get sdk(): Client | undefined {
    return this.status === "connected" ? this.client : undefined;
  }

  /** The connected server's declared capability, e.g. "resources", "prompts". */
  has(capability: "resources" | "prompts" | "tools"): boolean {
    return Boolean(this.sdk?.getServerCapabilities()?.[capability]);
  }

  /** The connection went away without close(): a crashed stdio server is restarted with backoff. */
  private onClosed(client: Client): void {
    if (this.closing || this.client !== client) return;
    this.client = undefined;
    this.status = "failed";
    mcpErrorCounts.disconnect++;
    this.reason = "the server closed the connection";
    const backoff = this.deps.backoffMs ?? [1000, 2000, 4000];
    if (this.deps.config.type !== "stdio" || this.restarts >= backoff.length) {
      this.deps.report("error", `MCP server "${this.name}" stopped${this.deps.config.type === "stdio" ? ` and was restarted ${this.restarts} times already; not restarting again this session` : ""}`);
      return;
    }
    const delay = backoff[this.restarts]!;
    this.restarts += 1;
    this.deps.report("warn", `MCP server "${this.name}" stopped; restarting in ${delay / 1000} s (try ${this.restarts} of ${backoff.length})`);
    this.status = "connecting";
    this.ready = new Promise<void>((r) => setTimeout(r, delay).unref()).then(() => (this.closing ? undefined : this.connect())).then(() => {
      if (this.status === "connected") this.deps.report("info", `MCP server "${this.name}" restarted`);
      else this.deps.report("error", `MCP server "${this.name}" did not restart: ${this.reason ?? this.status}`);
    });
  }

  async call(tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<ToolOutput> {
    // a restart in progress: wait for it (bounded by the connect timeout, or the call's interruption)
    if (this.status === "connecting" && this.ready) {
      let timer: NodeJS.Timeout | undefined;
      let onAbort: (() => void) | undefined;
      await Promise.race([
        this.ready,
        new Promise<void>((r) => (timer = setTimeout(r, this.deps.connectTimeoutMs + 8000))),
        new Promise<void>((r) => signal.addEventListener("abort", (onAbort = () => r()), { once: true })),
      ]);
      clearTimeout(timer);
      if (onAbort) signal.removeEventListener("abort", onAbort);
    }
    const client = this.client;
    if (!client || this.status !== "connected") {
      return { content: `MCP server "${this.name}" is not connected (${this.status}${this.reason ? `: ${this.reason}` : ""}); tool '${tool}' cannot run now`, isError: true };
    }
    // the SDK never removes its abort listener: give it a per-call signal, relayed from the turn's
    const own = new AbortController();
    const relay = () => own.abort(signal.reason);
    signal.addEventListener("abort", relay, { once: true });
    try {
      const result = (await client.callTool({ name: tool, arguments: args }, undefined, { signal: own.signal, timeout: this.deps.callTimeoutMs, resetTimeoutOnProgress: true })) as McpCallResult;
      return toToolOutput(result);
    } catch (e) {
      if (signal.aborted) return { content: `the call to MCP tool '${tool}' was interrupted`, isError: true };
      mcpErrorCounts.call++;
      if (e instanceof McpError && e.code === ErrorCode.RequestTimeout) {
        const s = this.deps.callTimeoutMs / 1000;
        return {
          content: `MCP tool '${tool}' on server "${this.name}" gave no answer within ${Number.isInteger(s) ? s : s.toFixed(1)} s (tool_timeout_s); the call was cancelled. The server may still be working: do not assume it ran or did not run.`,
          isError: true,
          metadata: { timed_out: true },
        };
      }
      const died = this.client !== client || /connection closed/i.test(message(e));
      return { content: died ? `MCP server "${this.name}" stopped during the call to '${tool}' (${message(e)})${(this.status as ServerStatus) === "connecting" ? "; it is being restarted" : ""}` : `MCP tool '${tool}' failed: ${message(e)}`, isError: true };
    } finally {
      signal.removeEventListener("abort", relay);
    }
  }

  /** Disconnect; bounded (~2 s) even when the server's child keeps the pipe open or a handshake is in flight. */
  async close(): Promise<void> {
    this.closing = true;
    const client = this.client;
    this.client = undefined;
    const done = client ? client.close() : this.transport?.close();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([done?.catch(() => undefined), new Promise((r) => (timer = setTimeout(r, 2500)))]);
    clearTimeout(timer);
  }
}
