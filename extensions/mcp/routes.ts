/**
 * The MCP routes of `oceancode serve` (contributed through the serve extension's route registry):
 *   GET  /mcp                          every server copy: status, kind, provenance, trusted, enabled
 *   GET  /mcp/:name/tools|prompts|resources   what a connected server offers
 *   POST /mcp/:name/trust {on}  POST /mcp/:name/enable {on}   the same records as the CLI, applied at once
 *   POST /mcp/:name/connect|disconnect          for this server process's sessions
 *   POST /mcp/:name/auth (start an OAuth login: answers the URL to open)   DELETE /mcp/:name/auth (logout)
 */
import type { RouteDefinition, RouteRequest } from "../serve/api.js";
import { HttpError } from "../serve/kit.js";
import type { McpService, ServerRow } from "./api.js";
import type { McpManager } from "./client/manager.js";
import type { CredentialsService } from "../auth/api.js";
import { expandServer } from "./sources/expand.js";
import { mcpToolName } from "./client/names.js";
import { recordId } from "./client/oauth.js";

export interface McpRouteDeps {
  service: McpService;
  manager: McpManager;
  credentials?: CredentialsService;
  env: NodeJS.ProcessEnv;
}

const NAME = { type: "object", properties: { name: { type: "string", pattern: "^[A-Za-z0-9._-]{1,64}$" } }, required: ["name"] } as const;
const ON = { type: "object", properties: { on: { type: "boolean" } }, required: ["on"], additionalProperties: false } as const;

const SERVER = {
  type: "object",
  properties: {
    name: { type: "string" },
    qualified_name: { type: "string" },
    status: { type: "string", enum: ["connected", "connecting", "needs-auth", "failed", "disabled", "untrusted", "shadowed", "refused"] },
    reason: { type: "string" },
    kind: { type: "string", enum: ["stdio", "remote"] },
    transport: { type: "string", enum: ["stdio", "http", "sse"] },
    provenance: { type: "object", properties: { tier: { type: "string" }, source: { type: "string" } }, required: ["tier", "source"] },
    trusted: { type: "boolean" },
    enabled: { type: "boolean" },
    tools: { type: "integer" },
    logged_in: { type: "boolean" },
  },
  required: ["name", "status", "kind", "transport", "provenance", "trusted", "enabled", "tools"],
} as const;

function view(r: ServerRow, credentials: CredentialsService | undefined): Record<string, unknown> {
  return {
    name: r.name,
    qualified_name: r.qualifiedName ?? r.name,
    status: r.status,
    ...(r.reason ? { reason: r.reason } : {}),
    kind: r.transport === "stdio" ? "stdio" : "remote",
    transport: r.transport,
    provenance: { tier: r.tier ?? "user", source: r.source ?? "" },
    trusted: r.trusted ?? true,
    enabled: r.enabled ?? true,
    tools: r.tools,
    ...(r.transport !== "stdio" && credentials ? { logged_in: credentials.record(recordId(r.name)) !== undefined } : {}),
  };
}

export function mcpRoutes(deps: McpRouteDeps): RouteDefinition[] {
  const { service, manager, credentials } = deps;
  /** the row that runs (a shadowed copy never answers for its name) */
  const row = (name: string): ServerRow => {
    const rows = service.servers().filter((r) => r.name === name);
    const live = rows.find((r) => r.status !== "shadowed") ?? rows[0];
    if (!live) throw new HttpError(404, "mcp_server_not_found", `no MCP server named '${name}' is configured here`);
    return live;
  };
  const connected = (name: string) => {
    const r = row(name);
    const c = manager.connections.get(name);
    if (!c?.sdk) throw new HttpError(409, "mcp_server_not_connected", `MCP server '${name}' is ${r.status}${r.reason ? `: ${r.reason}` : ""}`);
    return c;
  };
  const params = (req: RouteRequest) => (req.params as { name: string }).name;
  const switchRoute = (what: "trust" | "enable", set: (name: string, on: boolean) => void): RouteDefinition => ({
    method: "POST",
    url: `/mcp/:name/${what}`,
    operationId: what === "trust" ? "mcpTrust" : "mcpEnable",
    summary: what === "trust" ? "trust a server or hold it (trust.json, as `oceancode trust mcp <name> on|off`), applied at once" : "switch a server on or off for this project (as `oceancode mcp enable|disable`), applied at once",
    schema: { params: NAME, body: ON, response: { 200: SERVER } },
    handler: (req) => {
      const name = params(req);
      row(name);
      set(name, (req.body as { on: boolean }).on);
      return view(row(name), credentials);
    },
  });

  const routes: RouteDefinition[] = [
    {
      method: "GET",
      url: "/mcp",
      operationId: "mcpList",
      summary: "every MCP server copy that applies here: live status, kind, provenance, trust and enable",
      schema: { response: { 200: { type: "object", properties: { servers: { type: "array", items: SERVER } }, required: ["servers"] } } },
      // a read starts the servers when nothing has yet and waits (bounded) for the startup pass
      handler: async () => {
        await manager.statusRead();
        return { servers: service.servers().map((r) => view(r, credentials)) };
      },
    },
    {
      method: "GET",
      url: "/mcp/:name/tools",
      operationId: "mcpTools",
      summary: "a connected server's tools, with the names the model sees (mcp__<server>__<tool>)",
      schema: { params: NAME },
      handler: (req) => {
        const c = connected(params(req));
        return { tools: c.tools.map((t) => ({ name: mcpToolName(c.name, t.name), tool: t.name, description: t.description, inputSchema: t.inputSchema })) };
      },
    },
    {
      method: "GET",
      url: "/mcp/:name/prompts",
      operationId: "mcpPrompts",
      summary: "a connected server's prompts (typed as /mcp__<server>__<prompt> args)",
      schema: { params: NAME },
      handler: async (req) => {
        const c = connected(params(req));
        if (!c.has("prompts")) return { prompts: [] };
        const listed = await c.sdk!.listPrompts({}, { signal: req.signal });
        return { prompts: listed.prompts.map((p) => ({ name: p.name, slash: `/${mcpToolName(c.name, p.name)}`, description: p.description ?? "", arguments: p.arguments ?? [] })) };
      },
    },
    {
      method: "GET",
      url: "/mcp/:name/resources",
      operationId: "mcpResources",
      summary: "a connected server's resources (the first page)",
      schema: { params: NAME },
      handler: async (req) => {
        const c = connected(params(req));
        if (!c.has("resources")) return { resources: [] };
        const listed = await c.sdk!.listResources({}, { signal: req.signal });
        return { resources: listed.resources.map((r) => ({ name: r.name, uri: r.uri, ...(r.mimeType ? { mimeType: r.mimeType } : {}), ...(r.description ? { description: r.description } : {}) })), ...(listed.nextCursor ? { more: true } : {}) };
      },
    },
    switchRoute("trust", (n, on) => service.setTrusted(n, on)),
    switchRoute("enable", (n, on) => service.setEnabled(n, on)),
    ...(["connect", "disconnect"] as const).map(
      (what): RouteDefinition => ({
        method: "POST",
        url: `/mcp/:name/${what}`,
        operationId: what === "connect" ? "mcpConnect" : "mcpDisconnect",
        summary: what === "connect" ? "start (or re-dial) a ready server for this server process's sessions" : "disconnect a server for the rest of this server process (its tools go at once)",
        schema: { params: NAME, response: { 200: SERVER } },
        handler: (req) => {
          const name = params(req);
          const r = row(name);
          const ok = what === "connect" ? manager.connect(name) : manager.disconnect(name);
          if (!ok) throw new HttpError(409, "mcp_server_held", `MCP server '${name}' may not run here: ${r.status}${r.reason ? ` (${r.reason})` : ""}`);
          return view(row(name), credentials);
        },
      }),
    ),
    {
      method: "POST",
      url: "/mcp/:name/auth",
      operationId: "mcpAuthStart",
      summary: "start an OAuth login for a remote server: answers the URL to open; the login ends when the browser comes back, then the server is re-dialed",
      schema: { params: NAME },
      handler: async (req) => {
        const name = params(req);
        const entry = manager.entries.find((e) => e.name === name && e.hold !== "shadowed");
        if (!entry) throw new HttpError(404, "mcp_server_not_found", `no MCP server named '${name}' is configured here`);
        if (entry.config.type === "stdio") throw new HttpError(400, "mcp_server_stdio", `'${name}' is a stdio server; login is for remote servers`);
        if (entry.hold === "untrusted" || entry.hold === "refused") throw new HttpError(409, "mcp_server_held", `'${name}' is ${entry.hold}: ${entry.reason ?? ""}`);
        if (!credentials) throw new HttpError(501, "no_credentials_store", "the credentials store (the auth extension) is not loaded");
        const { config } = expandServer(entry.config, deps.env);
        if (config.type === "stdio") throw new HttpError(400, "mcp_server_stdio", `'${name}' is a stdio server`);
        const { login } = await import("./client/login.js");
        const seconds = Number(deps.env.OC_MCP_LOGIN_SECONDS);
        return new Promise((resolve, reject) => {
          let answered = false;
          login({
            server: name,
            url: config.url,
            store: credentials,
            timeoutMs: (Number.isFinite(seconds) && seconds > 0 ? seconds : 300) * 1000,
            onAuthorize: (u, redirectUrl) => {
              answered = true;
              resolve({ status: 202, body: { authorizationUrl: u.href, redirectUrl } });
            },
          }).then(
            () => {
              manager.connect(name);
              if (!answered) resolve({ status: 200, body: { authorized: true } });
            },
            (e: unknown) => {
              if (!answered) reject(new HttpError(502, "mcp_login_failed", e instanceof Error ? e.message : String(e)));
            },
          );
        });
      },
    },
    {
      method: "DELETE",
      url: "/mcp/:name/auth",
      operationId: "mcpAuthDelete",
      summary: "forget a server's stored OAuth login (logout); the server is re-dialed and reads needs-auth",
      schema: { params: NAME },
      handler: (req) => {
        const name = params(req);
        if (!credentials) throw new HttpError(501, "no_credentials_store", "the credentials store (the auth extension) is not loaded");
        const had = credentials.setRecord(recordId(name), undefined);
        if (manager.entries.some((e) => e.name === name && e.hold === "ready") && manager.isStarted) manager.connect(name);
        return { loggedOut: had };
      },
    },
  ];
  return routes;
}
