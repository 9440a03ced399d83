/**
 * The session's MCP manager: every `ready` server entry, started lazily (the first session) and in
 * parallel; held entries never spawn or dial and report their hold as status. It answers the live rows,
 * the connected servers' tools, waits (bounded) for servers still connecting, and closes everything
 * within ~2 s; every stdio process group still alive is also killed when this process exits.
 */
import type { ToolOutput } from "../../engine/api.js";
import type { ServerEntry, ServerRow, ServerStatus } from "../api.js";
import type { Connection, ConnectionDeps, McpToolInfo } from "./connection.js";
import { expandServer } from "../sources/expand.js";
import { killGroup, spawnGroup } from "./groups.js";
import type { StdioSpawn } from "./stdio.js";
import { sessionAuthProvider, type OAuthStore } from "./oauth.js";

export type { ServerRow };

/** how long after the servers' start a status read may wait for handshakes still in flight */
export const STATUS_GRACE_MS = 2000;

/** mcp.tool_timeout_s when nothing names one: 10 minutes */
export const DEFAULT_TOOL_TIMEOUT_MS = 600_000;

export interface ManagerOptions {
  env: NodeJS.ProcessEnv;
  /** the project directory (a stdio server's default cwd) */
  cwd: string;
  /** compose a stdio child's env (the engine's childProcess waterfall: secret stripping, sandbox) */
  composeSpawn?: (spec: StdioSpawn, server: string) => Promise<StdioSpawn>;
  connectTimeoutMs?: number;
  callTimeoutMs?: number;
  backoffMs?: number[];
  onToolsChanged?: (c: Connection) => void;
  report?: (level: "info" | "warn" | "error", text: string) => void;
  /** a server's elicitation/create (client/elicit.ts) */
  elicit?: ConnectionDeps["elicit"];
  /** where `oceancode mcp login` keeps remote servers' OAuth tokens (the credentials service) */
  oauth?: OAuthStore;
}

export class McpManager {
  readonly connections = new Map<string, Connection>();
  private started = false;
  /** when start() ran (Date.now()): a status read gives the startup pass STATUS_GRACE_MS from here */
  startedAt = 0;
  /** the SDK (~600 ms of imports) loads when the servers start, not when the extension activates */
  private loading?: Promise<void>;

  private resolved?: ServerEntry[];
  /** `source` may be a function: the servers are then resolved on first need (a command run never pays it) */
  constructor(
    private readonly source: ServerEntry[] | (() => ServerEntry[]),
    private readonly opts: ManagerOptions,
  ) {}

  get entries(): ServerEntry[] {
    return (this.resolved ??= typeof this.source === "function" ? this.source() : this.source);
  }

  /** Start every ready server, in parallel; idempotent. Returns at once (connections settle in the background). */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.startedAt = Date.now();
    const ready = this.entries.filter((e) => e.hold === "ready");
    if (!ready.length) return;
    // stdio children spawn now, while the SDK loads (~600 ms saved on the first request)
    const prepared = ready.map((entry) => this.prepare(entry));
    this.loading = import("./connection.js").then(({ Connection }) => {
      if (this.closed) {
        // closed while the SDK loaded: the children spawned early go now
        for (const p of prepared) void p.deps.prespawned?.then((c) => c.pid && killGroup(c.pid, "SIGKILL"), () => undefined);
        return;
      }
      for (const p of prepared) this.startOne(Connection, p);
    });
    this.loading.catch((e: unknown) => this.opts.report?.("error", `MCP client failed to load: ${e instanceof Error ? e.message : String(e)}`)).finally(() => (this.loading = undefined));
  }

  private prepare(entry: ServerEntry): { entry: ServerEntry; deps: ConnectionDeps } {
    const { config, unresolved } = expandServer(entry.config, this.opts.env);
    if (unresolved.length) this.opts.report?.("warn", `MCP server "${entry.name}": unresolved ${unresolved.map((v) => `\${${v}}`).join(", ")} left literal`);
    const deps: ConnectionDeps = {
      config,
      connectTimeoutMs: this.opts.connectTimeoutMs ?? 30_000,
      // the entry's own tool_timeout_s, else the session's (MCP_TOOL_TIMEOUT, mcp.tool_timeout_s)
      callTimeoutMs: config.toolTimeoutS !== undefined ? Math.round(config.toolTimeoutS * 1000) : (this.opts.callTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS),
      ...(this.opts.backoffMs ? { backoffMs: this.opts.backoffMs } : {}),
      onToolsChanged: (c) => this.opts.onToolsChanged?.(c),
      report: (level, text) => this.opts.report?.(level, text),
      ...(this.opts.elicit ? { elicit: this.opts.elicit } : {}),
    };
    if (config.type !== "stdio") {
      const authProvider = sessionAuthProvider(this.opts.oauth, entry.name, config.url);
      if (authProvider) deps.authProvider = authProvider;
    }
    if (config.type === "stdio") {
      deps.spawnSpec = async () => {
        const base: StdioSpawn = { command: config.command, args: config.args, env: { ...this.opts.env }, cwd: config.cwd ?? this.opts.cwd };
        const composed = this.opts.composeSpawn ? await this.opts.composeSpawn(base, entry.name) : base;
        // the entry's own env is what the user asked this server to get: never stripped
        return { ...composed, env: { ...composed.env, ...config.env } };
      };
      deps.prespawned = deps.spawnSpec().then(spawnGroup);
      deps.prespawned.catch(() => undefined); // observed by the transport's start
    }
    return { entry, deps };
  }

  /**
   * The entries changed (trust.json or a config file): connections whose entry may no longer run are
   * dropped at once (their tools go with them) and closed in the background (bounded ~2 s); entries that
   * may now run start when the servers already started. A held entry is never spawned. Returns whether
   * anything was started or stopped.
   */
  reconcile(next: ServerEntry[]): boolean {
    this.resolved = next;
    let changed = false;
    const ready = new Map(next.filter((e) => e.hold === "ready" && !this.handOff.has(e.name)).map((e) => [e.name, e]));
    for (const [name, c] of this.connections) {
      const e = ready.get(name);
      if (e && sameConfig(e, c)) continue;
      this.connections.delete(name);
      this.stopping.add(c);
      void c.close().catch(() => undefined).finally(() => this.stopping.delete(c));
      changed = true;
    }
    if (!this.started || this.closed) return changed;
    const fresh = [...ready.values()].filter((e) => !this.connections.has(e.name));
    if (!fresh.length) return changed;
    const prepared = fresh.map((entry) => this.prepare(entry));
    // the SDK is loaded already when a server ran; else this loads it (an import is cached)
    const load = import("./connection.js").then(({ Connection }) => {
      if (this.closed) {
        for (const p of prepared) void p.deps.prespawned?.then((c) => c.pid && killGroup(c.pid, "SIGKILL"), () => undefined);
        return;
      }
      for (const p of prepared) {
        if (this.connections.has(p.entry.name)) continue;
        this.startOne(Connection, p);
        this.switchedOn.add(p.entry.name);
      }
    });
    this.loading = load;
    load.catch((e: unknown) => this.opts.report?.("error", `MCP client failed to load: ${e instanceof Error ? e.message : String(e)}`)).finally(() => {
      if (this.loading === load) this.loading = undefined;
    });
    return true;
  }

  /** servers reconcile started (switched on mid-session) whose handshake has not ended yet */
  private readonly switchedOn = new Set<string>();

  /** Did a server switched on mid-session finish its handshake (connected or failed) since the last call? */
  takeArrived(): boolean {
    let arrived = false;
    for (const name of this.switchedOn) {
      const c = this.connections.get(name);
      if (c && c.status === "connecting") continue;
      this.switchedOn.delete(name);
      arrived = true;
    }
    return arrived;
  }

  /** servers disconnected by hand this session (POST /mcp/<name>/disconnect): not restarted until connect */
  private readonly handOff = new Set<string>();

  /**
   * Disconnect one server for the rest of this session (its tools go at once; the close is bounded, in
   * the background). False when no ready server has that name.
   */
  disconnect(name: string): boolean {
    if (!this.entries.some((e) => e.name === name && e.hold === "ready")) return false;
    this.handOff.add(name);
    this.reconcile(this.entries);
    return true;
  }

  /**
   * (Re)connect one ready server: a disconnected one starts again, a failed or needs-auth one is dialed
   * anew (after `mcp login`), a connected one is left alone. False when no ready server has that name.
   */
  connect(name: string): boolean {
    const entry = this.entries.find((e) => e.name === name && e.hold === "ready");
    if (!entry) return false;
    this.handOff.delete(name);
    if (!this.started) {
      // nothing runs yet: start them all, as the first session would
      this.start();
      return true;
    }
    const c = this.connections.get(name);
    if (c && (c.status === "failed" || c.status === "needs-auth")) {
      this.connections.delete(name);
      this.stopping.add(c);
      void c.close().catch(() => undefined).finally(() => this.stopping.delete(c));
    }
    this.reconcile(this.entries);
    return true;
  }

  /** connections dropped by reconcile, still closing (close() waits for them too) */
  private readonly stopping = new Set<Connection>();

  private startOne(Conn: typeof Connection, { entry, deps }: { entry: ServerEntry; deps: ConnectionDeps }): void {
    const conn = new Conn(entry, deps);
    this.connections.set(entry.name, conn);
    void conn.start();
  }

  get isStarted(): boolean {
    return this.started;
  }

  /** Any server still in its handshake? */
  connecting(): boolean {
    if (this.loading) return true;
    for (const c of this.connections.values()) if (c.status === "connecting") return true;
    return false;
  }

  /**
   * For a status read (GET /mcp): start the servers if nothing did, and give the startup pass at most
   * STATUS_GRACE_MS from its start (the guide's "at most two seconds"); later reads answer at once.
   */
  async statusRead(): Promise<void> {
    this.start();
    await this.settle(this.startedAt + STATUS_GRACE_MS - Date.now());
  }

  /** Wait until no server is connecting, or `ms` passed (0: not at all). */
  async settle(ms: number): Promise<void> {
    if (ms <= 0 || !this.connecting()) return;
    const deadline = Date.now() + ms;
    await new Promise<void>((resolve) => {
      const tick = () => {
        if (!this.connecting() || Date.now() >= deadline) return resolve();
        setTimeout(tick, 20);
      };
      tick();
    });
  }

  rows(): ServerRow[] {
    return this.entries.map((e) => {
      const c = this.connections.get(e.name);
      const off = e.hold === "ready" && this.handOff.has(e.name);
      const status: ServerStatus = e.hold !== "ready" ? e.hold : off ? "disabled" : (c?.status ?? "connecting");
      const reason = e.hold !== "ready" ? e.reason : off ? "disconnected for this session (connect it again to restart it)" : c?.reason;
      return {
        name: e.name,
        status,
        ...(reason ? { reason } : {}),
        tools: c?.status === "connected" ? c.tools.length : 0,
        transport: e.config.type,
        ...(c?.pid ? { pid: c.pid } : {}),
        qualifiedName: e.qualifiedName,
        tier: e.tier,
        source: e.source,
        trusted: e.trusted,
        enabled: e.enabled,
      };
    });
  }

  /** The connected servers, in start order. */
  connected(): Connection[] {
    return [...this.connections.values()].filter((c) => c.status === "connected");
  }

  /** Connected servers' tools, server by server in entry order. */
  connectedTools(): Array<{ server: string; tool: McpToolInfo }> {
    const out: Array<{ server: string; tool: McpToolInfo }> = [];
    for (const c of this.connections.values()) if (c.status === "connected") for (const tool of c.tools) out.push({ server: c.name, tool });
    return out;
  }

  /** `sessionId`: the session calling (a server's elicitation during the call is that session's question) */
  async call(server: string, tool: string, args: Record<string, unknown>, signal: AbortSignal, sessionId?: string): Promise<ToolOutput> {
    const c = this.connections.get(server);
    if (c && sessionId) c.caller = sessionId;
    if (!c) return { content: `no MCP server named "${server}" is running`, isError: true };
    if (!c.tools.some((t) => t.name === tool) && c.status === "connected") return { content: `MCP server "${server}" has no tool '${tool}' (it offers: ${c.tools.map((t) => t.name).join(", ") || "none"})`, isError: true };
    return c.call(tool, args, signal);
  }

  private closed = false;
  /** Close every connection in parallel; bounded to ~2.5 s whatever the servers do. */
  async close(): Promise<void> {
    this.closed = true;
    await this.loading?.catch(() => undefined);
    await Promise.all([...this.connections.values(), ...this.stopping].map((c) => c.close().catch(() => undefined)));
  }
}

/** does the running connection still match the entry's config (a changed command or URL restarts it)? */
function sameConfig(e: ServerEntry, c: Connection): boolean {
  return JSON.stringify(e.config) === JSON.stringify(c.entry.config);
}
