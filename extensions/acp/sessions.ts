/** session/new, session/load, session/list and session/set_mode over the engine, storage and permissions. */
import path from "node:path";
import { RequestError } from "@agentclientprotocol/sdk";
import type { CloseSessionRequest, ListSessionsRequest, ListSessionsResponse, LoadSessionRequest, LoadSessionResponse, McpServer, NewSessionRequest, NewSessionResponse, ResumeSessionRequest, ResumeSessionResponse, SessionModeState, SetSessionModeRequest } from "@agentclientprotocol/sdk";
import { type Row } from "../engine/api.js";
import { isSessionBusy } from "../engine/kit.js";
import type { ServerConfig } from "../mcp/api.js";
import type { PermissionMode } from "../permissions/api.js";
import { AGENT_KEY, PLAN_AGENT } from "../plan-mode/api.js";
import { MODES, modeState } from "./map.js";
import { trackSession, type AcpHost, type AcpSession } from "./state.js";
import { planUpdate, replayUpdates } from "./updates.js";

/** The session's mode: "plan" on the plan agent, else its effective permission mode (its override, else the configured one, after requirements). */
export function currentMode(host: AcpHost, s: AcpSession): string {
  if (host.planMode?.active(s.session)) return PLAN_AGENT;
  return host.permissions?.modeOf(s.session.info.overrides) ?? "default";
}

export function modesOf(host: AcpHost, s: AcpSession): SessionModeState | undefined {
  return host.permissions ? modeState(currentMode(host, s), { plan: host.planMode !== undefined }) : undefined;
}

function absoluteCwd(cwd: string): string {
  if (!path.isAbsolute(cwd)) throw RequestError.invalidParams({ cwd }, "cwd must be an absolute path");
  return cwd;
}

/** An ACP McpServer as the MCP extension's config (env and headers arrive as name/value lists). */
export function serverConfig(s: McpServer, cwd: string): ServerConfig {
  const pairs = (list: ReadonlyArray<{ name: string; value: string }> | undefined) => Object.fromEntries((list ?? []).map((p) => [p.name, p.value]));
  if ("type" in s && (s.type === "http" || s.type === "sse")) return { type: s.type, url: s.url, headers: pairs(s.headers) };
  const stdio = s as Extract<McpServer, { command: string }>;
  return { type: "stdio", command: stdio.command, args: [...(stdio.args ?? [])], env: pairs(stdio.env), cwd };
}

/**
 * The editor's MCP servers go to the MCP extension for this process (local tier, trusted: the editor that
 * started oceancode is the user's), over a config file's copy of the same name. Without the MCP
 * extension they are named once on stderr, never silently dropped.
 */
function handMcpServers(host: AcpHost, servers: readonly McpServer[] | undefined, cwd: string): void {
  if (!servers?.length) return;
  if (!host.mcp) {
    host.log.warn(`acp: the client's ${servers.length} MCP server(s) (${servers.map((s) => s.name).join(", ")}) are not started: the mcp extension is not enabled`);
    return;
  }
  host.mcp.addServers(servers.map((s) => ({ name: s.name, config: serverConfig(s, cwd) })), "acp:session/new");
}

export async function newSession(host: AcpHost, params: NewSessionRequest): Promise<NewSessionResponse> {
  const cwd = absoluteCwd(params.cwd);
  handMcpServers(host, params.mcpServers, cwd);
  const model = host.model();
  const unready = await host.engine.checkModel(model).catch((e: unknown) => (e as Error).message);
  // a session whose prompts could never reach a model (no API key) is refused here, where the editor shows it
  if (unready) throw RequestError.internalError({ model }, unready);
  const session = await host.engine.createSession({ cwd, model, overrides: {} });
  const s = trackSession(host, session);
  const modes = modesOf(host, s);
  return { sessionId: session.info.id, ...(modes ? { modes } : {}) };
}

/** The session open here, else reopened from storage and claimed for this process. */
async function reopen(host: AcpHost, sessionId: string): Promise<AcpSession> {
  const open = host.sessions.get(sessionId);
  if (open) return open;
  try {
    return trackSession(host, await host.engine.openSession(sessionId));
  } catch (e) {
    // another process (a second editor window, a pager) holds it: say who, not "not found"
    if (isSessionBusy(e)) throw RequestError.internalError({ sessionId }, (e as Error).message);
    throw RequestError.sessionNotFound(sessionId);
  }
}

/** Reopen a stored session and replay its history as session/update notifications before answering. */
export async function loadSession(host: AcpHost, params: LoadSessionRequest): Promise<LoadSessionResponse> {
  handMcpServers(host, params.mcpServers, absoluteCwd(params.cwd));
  const s = await reopen(host, params.sessionId);
  for (const u of replayUpdates(await historyOf(host, s), s.session.info.cwd)) await host.update(params.sessionId, u);
  // the stored todo list, as the editor last saw it (the floor is no plan)
  const plan = host.todos?.get(s.session);
  if (plan && !plan.floor && plan.items.length) await host.update(params.sessionId, planUpdate(plan));
  const modes = modesOf(host, s);
  return modes ? { modes } : {};
}

/** session/resume: reopen without the replay (the client still shows the history). */
export async function resumeSession(host: AcpHost, params: ResumeSessionRequest): Promise<ResumeSessionResponse> {
  handMcpServers(host, params.mcpServers, absoluteCwd(params.cwd));
  const modes = modesOf(host, await reopen(host, params.sessionId));
  return modes ? { modes } : {};
}

/** session/close: stop its turn, close it in the engine (its claim is released for other processes). */
export async function closeSession(host: AcpHost, params: CloseSessionRequest): Promise<Record<string, never>> {
  const s = host.sessions.get(params.sessionId);
  if (!s) throw RequestError.sessionNotFound(params.sessionId);
  host.sessions.delete(params.sessionId);
  if (s.turn) {
    s.turn.abort();
    await s.turnEnded; // the engine stops at once on abort (the cancel tests); the session closes after its turn
  }
  await host.engine.closeSession(s.session, "closed by the client");
  return {};
}

/** The full stored history (rows released from memory are read back from storage). */
async function historyOf(host: AcpHost, s: AcpSession): Promise<Row[]> {
  const first = s.session.rows[0];
  if (first && first.seq === 1) return s.session.rows;
  if (!host.storage) return s.session.rows;
  await host.storage.settle();
  return (await host.storage.loadSession(s.session.info.id))?.rows ?? s.session.rows;
}

export async function listSessions(host: AcpHost, params: ListSessionsRequest): Promise<ListSessionsResponse> {
  if (!host.storage) return { sessions: [] };
  const list = await host.storage.listSessions(params.cwd ? { cwd: params.cwd } : {});
  return {
    sessions: list
      .filter((x) => !x.parentId) // sub-agent sessions run inside their parent's prompt: not sessions an editor opens
      .map((x) => ({ sessionId: x.id, cwd: x.cwd, ...(x.title ? { title: x.title } : {}), updatedAt: new Date(x.updatedAt).toISOString() })),
  };
}

export async function setMode(host: AcpHost, params: SetSessionModeRequest): Promise<void> {
  const s = host.sessions.get(params.sessionId);
  if (!s) throw RequestError.sessionNotFound(params.sessionId);
  if (!host.permissions) throw RequestError.internalError(undefined, "the permissions extension is not enabled: there are no modes to switch");
  // "plan" is the plan agent (docs/plan-mode.md); any permission mode leaves it for the build agent
  if (params.modeId === PLAN_AGENT && host.planMode) {
    await host.planMode.enter(s.session);
    await host.update(params.sessionId, { sessionUpdate: "current_mode_update", currentModeId: PLAN_AGENT });
    return;
  }
  if (!MODES.some((m) => m.id === params.modeId)) throw RequestError.invalidParams({ modeId: params.modeId }, `unknown mode '${params.modeId}' (${MODES.map((m) => m.id).join(", ")})`);
  // requirements.json may disable bypassPermissions: resolveMode downgrades it, and the editor is told the mode that holds
  const { mode, note } = host.permissions.resolveMode(params.modeId);
  if (note) host.log.warn(`acp: ${note}`);
  s.session.info.overrides.permission_mode = mode;
  if (s.session.info.overrides[AGENT_KEY] === PLAN_AGENT) delete s.session.info.overrides[AGENT_KEY];
  host.storage?.saveInfo(s.session.info);
  await host.update(params.sessionId, { sessionUpdate: "current_mode_update", currentModeId: mode });
}
