/**
 * `oceancode mcp doctor`: every ready server is dialed in parallel with a short budget (default 5 s) and
 * reported reachable (with its tool count) or failed with the reason; a held server (shadowed, untrusted,
 * disabled, refused) is not dialed and reads its hold. Every process started here is gone when it returns.
 */
import type { DoctorRow, ServerEntry } from "../api.js";
import { Connection } from "./connection.js";
import { expandServer } from "../sources/expand.js";
import type { StdioSpawn } from "./stdio.js";
import { sessionAuthProvider, type OAuthStore } from "./oauth.js";

export interface DoctorOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** per server, ms (default 5000) */
  timeoutMs?: number;
  /** compose a stdio child's env (secret stripping); default: the env as given */
  composeSpawn?: (spec: StdioSpawn, server: string) => Promise<StdioSpawn>;
  /** stored OAuth logins (a remote server's tokens presented, refreshed on 401) */
  oauth?: OAuthStore;
}

export async function doctor(entries: ServerEntry[], opts: DoctorOptions = {}): Promise<DoctorRow[]> {
  const env = opts.env ?? process.env;
  return Promise.all(
    entries.map(async (entry): Promise<DoctorRow> => {
      if (entry.hold !== "ready") return { name: entry.name, status: entry.hold, ...(entry.reason ? { reason: entry.reason } : {}) };
      const { config } = expandServer(entry.config, env);
      const t0 = Date.now();
      const authProvider = config.type === "stdio" ? undefined : sessionAuthProvider(opts.oauth, entry.name, config.url);
      const conn = new Connection(entry, {
        config,
        ...(authProvider ? { authProvider } : {}),
        ...(config.type === "stdio"
          ? {
              spawnSpec: async () => {
                const base: StdioSpawn = { command: config.command, args: config.args, env: { ...env }, cwd: config.cwd ?? opts.cwd ?? process.cwd() };
                const c = opts.composeSpawn ? await opts.composeSpawn(base, entry.name) : base;
                return { ...c, env: { ...c.env, ...config.env } };
              },
            }
          : {}),
        connectTimeoutMs: opts.timeoutMs ?? 5000,
        callTimeoutMs: 1000,
        backoffMs: [],
        onToolsChanged: () => undefined,
        report: () => undefined,
      });
      await conn.start();
      const ms = Date.now() - t0;
      const row: DoctorRow =
        conn.status === "connected"
          ? { name: entry.name, status: "reachable", tools: conn.tools.length, ms }
          : { name: entry.name, status: conn.status === "needs-auth" ? "needs-auth" : "failed", ...(conn.reason ? { reason: conn.reason } : {}), ms };
      await conn.close();
      return row;
    }),
  );
}
