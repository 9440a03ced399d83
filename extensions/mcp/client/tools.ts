/**
 * MCP tools as engine tools: each connected server's tool is registered once as `mcp__<server>__<tool>`
 * (kind "other"; the same authorize / executeTool / toolResult path as core tools), and the modelRequest
 * tap fixes which of them a prompt offers: the set taken at the prompt's first request (after waiting up
 * to OC_MCP_WAIT_SECONDS for servers still connecting; sub-agents never wait) stays for every step of that
 * prompt. A server that connects or changes its list mid-prompt reaches the model on the next prompt; a
 * live switch (a server disabled, untrusted, enabled; everything off) applies on the very next step.
 * Servers that failed are named to the model (one line each in the system prompt) and to the user (a notice).
 */
import type { EngineService, ModelRequest, StepContext, ToolDefinition, ToolSpec } from "../../engine/api.js";
import type { McpManager } from "./manager.js";
import { mcpToolName } from "./names.js";
import { metaThreshold, META_TOOL_NAMES } from "./meta.js";
import { anyResources, RESOURCE_TOOL_NAMES } from "./resources.js";
import { deferredToolList, heldLine, heldNotice, instructionsBlock } from "./context.js";

const SNAPSHOT = "mcp:snapshot";
const NOTICED = "mcp:noticed";
const MAX_DESCRIPTION = 2048;

interface Snapshot {
  turn: number;
  generation: number;
  names: Set<string>;
  lines: string[];
  meta: boolean;
  /** list_resources / read_resource offered (a server with resources was connected at the first request) */
  resources: boolean;
  /** system blocks fixed with the set: the servers' instructions, the meta-dispatch names (client/context.ts) */
  blocks: string[];
}

/** name -> where it runs (server and the server's own tool name) */
export type ToolIndex = Map<string, { server: string; tool: string }>;

function objectSchema(s: Record<string, unknown>): Record<string, unknown> {
  return s && s.type === "object" ? s : { type: "object", properties: {}, ...(s ?? {}) };
}

/** Register every connected tool not yet registered; a sanitized name two servers share goes to the first. */
export function registerTools(engine: EngineService, manager: McpManager, index: ToolIndex, extId: string, warn: (m: string) => void): void {
  for (const { server, tool } of manager.connectedTools()) {
    const name = mcpToolName(server, tool.name);
    const known = index.get(name);
    if (known) {
      if (known.server !== server || known.tool !== tool.name) warn(`MCP tool '${tool.name}' of server "${server}" would be named ${name}, which "${known.server}" already uses; not offered`);
      continue;
    }
    if (engine.tools.get(name)) continue;
    index.set(name, { server, tool: tool.name });
    const def: ToolDefinition = {
      name,
      claudeName: name,
      kind: "other",
      description: tool.description.length > MAX_DESCRIPTION ? `${tool.description.slice(0, MAX_DESCRIPTION)}… [truncated]` : tool.description || `${tool.name} (MCP server ${server})`,
      inputSchema: objectSchema(tool.inputSchema),
      ruleSubject: () => "",
      run: (input, ctx) => manager.call(server, tool.name, input, ctx.signal, ctx.session.id),
    };
    engine.tools.register(def, extId);
  }
}

/** The prompt's tool ids by server, in registration order (the ids a collision kept from a server are not its). */
function byServer(index: ToolIndex, names: ReadonlySet<string>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [id, { server }] of index) {
    if (!names.has(id)) continue;
    const list = out.get(server) ?? [];
    list.push(id);
    out.set(server, list);
  }
  return out;
}

/** at most 45 s: the wait runs inside a modelRequest tap, and a tap is cut at the tap timeout (60 s default) */
const MAX_WAIT_SECONDS = 45;

export function waitSeconds(env: NodeJS.ProcessEnv): number {
  const n = Number(env.OC_MCP_WAIT_SECONDS ?? "5");
  return Number.isFinite(n) && n >= 0 ? Math.min(n, MAX_WAIT_SECONDS) : 5;
}

/** The modelRequest tap: the prompt's MCP tool set, fixed at its first request. */
export function promptTools(opts: {
  engine: EngineService;
  manager: McpManager;
  index: ToolIndex;
  env: NodeJS.ProcessEnv;
  register: () => void;
  /** the live switches: checked before each request; a change re-takes the set on that step */
  live?: { check(): boolean; generation: number; everythingOff(): boolean };
}): (req: ModelRequest, step: StepContext) => Promise<ModelRequest> {
  const { engine, manager, index, env } = opts;
  return async (req, step) => {
    const session = step.session;
    opts.live?.check();
    const generation = opts.live?.generation ?? 0;
    let snap = session.ext.get(SNAPSHOT) as Snapshot | undefined;
    if (!snap || snap.turn !== step.turn || snap.generation !== generation) {
      // a toggle mid-prompt re-takes the set at once (no wait): what was switched off goes on this step
      if (!session.info.parentId && (!snap || snap.turn !== step.turn)) await manager.settle(waitSeconds(env) * 1000);
      opts.register();
      const names = new Set(manager.connectedTools().map(({ server, tool }) => mcpToolName(server, tool.name)));
      const lines: string[] = [];
      const noticed = (session.ext.get(NOTICED) as Set<string> | undefined) ?? new Set<string>();
      session.ext.set(NOTICED, noticed);
      for (const row of manager.rows()) {
        if (row.status === "failed" || row.status === "needs-auth") {
          lines.push(`MCP server "${row.name}" is unavailable: ${row.reason ?? row.status}`);
          const key = `${row.name}\0${row.reason ?? ""}`;
          if (!noticed.has(key)) {
            noticed.add(key);
            engine.notice(session.info.id, "warn", `MCP server "${row.name}" ${row.status === "needs-auth" ? "needs authorization" : "failed"}: ${row.reason ?? row.status}`);
          }
        } else if (row.status === "connecting") lines.push(`MCP server "${row.name}" is still connecting; its tools arrive with a later prompt`);
      }
      // servers held until trusted: one line to the model, one notice to the user (per session)
      const held = heldLine(manager.entries);
      if (held) lines.push(held);
      const notice = heldNotice(manager.entries);
      if (notice && !session.info.parentId && !noticed.has(`held\0${notice}`)) {
        noticed.add(`held\0${notice}`);
        engine.notice(session.info.id, "warn", notice);
      }
      const meta = names.size >= metaThreshold(env);
      const blocks: string[] = [];
      const instructions = instructionsBlock(manager.connected());
      if (instructions) blocks.push(instructions);
      if (meta) blocks.push(deferredToolList(byServer(index, names)));
      snap = { turn: step.turn, generation, names, lines, meta, resources: anyResources(manager), blocks };
      session.ext.set(SNAPSHOT, snap);
    }
    const fixed = snap;
    // the master switch: no MCP tool (nor the meta pair, nor the status lines); servers stay connected
    if (opts.live?.everythingOff()) return { ...req, tools: req.tools.filter((t) => !index.has(t.name) && !META_TOOL_NAMES.has(t.name)) };
    // the registry may have grown since the engine listed req.tools (this tap registers): the prompt's
    // MCP tools are added here from the fixed set, in registration order, within a sub-agent's allow-list
    const allow = session.profile?.tools;
    const rest = req.tools.filter((t) => !index.has(t.name) && (!META_TOOL_NAMES.has(t.name) || fixed.meta) && (!RESOURCE_TOOL_NAMES.has(t.name) || fixed.resources));
    const mcp: ToolSpec[] = [];
    if (!fixed.meta) {
      for (const name of index.keys()) {
        const def = fixed.names.has(name) && (!allow || allow.includes(name)) ? engine.tools.get(name) : undefined;
        if (def) mcp.push({ name: def.name, description: def.description, inputSchema: def.inputSchema });
      }
    }
    const tools = [...rest, ...mcp];
    // the servers' instructions and the deferred names only where an MCP tool is offered (not to a
    // sub-agent whose tools leave MCP out)
    const offersMcp = mcp.length > 0 || rest.some((t) => META_TOOL_NAMES.has(t.name) || RESOURCE_TOOL_NAMES.has(t.name));
    const system = [...req.system, ...(offersMcp ? fixed.blocks : []), ...(fixed.lines.length ? [fixed.lines.join("\n")] : [])];
    return { ...req, tools, system };
  };
}


