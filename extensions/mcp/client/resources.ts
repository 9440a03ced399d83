/**
 * MCP resources as two engine tools over every connected server (Claude Code's ListMcpResourcesTool and
 * ReadMcpResourceTool): `list_resources {server?}` lists each server's resources (name, uri, mimeType,
 * description; paginated lists followed up to MAX_PAGES pages / MAX_RESOURCES entries), `read_resource
 * {server, uri}` reads one: text contents as text, an image/* blob as an image, any other blob as a
 * "binary, N bytes" note. They are offered in a prompt only when a server connected at that prompt's
 * first request declares the resources capability (client/tools.ts fixes it per prompt).
 */
import type { ToolDefinition, ToolImage, ToolOutput } from "../../engine/api.js";
import type { McpManager } from "./manager.js";

export const LIST_RESOURCES = "list_resources";
export const READ_RESOURCE = "read_resource";
export const RESOURCE_TOOL_NAMES: ReadonlySet<string> = new Set([LIST_RESOURCES, READ_RESOURCE]);

const MAX_PAGES = 10;
const MAX_RESOURCES = 500;

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The SDK never removes its abort listener: give each request its own signal, relayed from the turn's. */
async function ownSignal<T>(signal: AbortSignal, fn: (own: AbortSignal) => Promise<T>): Promise<T> {
  const own = new AbortController();
  const relay = () => own.abort(signal.reason);
  if (signal.aborted) own.abort(signal.reason);
  else signal.addEventListener("abort", relay, { once: true });
  try {
    return await fn(own.signal);
  } finally {
    signal.removeEventListener("abort", relay);
  }
}

/** Does any connected server offer resources? */
export function anyResources(manager: McpManager): boolean {
  return manager.connected().some((c) => c.has("resources"));
}

interface Listed {
  name: string;
  uri: string;
  mimeType?: string;
  description?: string;
}

async function listOne(manager: McpManager, server: string, signal: AbortSignal): Promise<{ resources: Listed[]; more: boolean } | string> {
  const c = manager.connections.get(server);
  const client = c?.sdk;
  if (!c || !client) return `MCP server "${server}" is not connected`;
  if (!c.has("resources")) return `MCP server "${server}" offers no resources`;
  const out: Listed[] = [];
  let cursor: string | undefined;
  let pages = 0;
  try {
    do {
      const page = await ownSignal(signal, (own) => client.listResources(cursor ? { cursor } : {}, { signal: own }));
      for (const r of page.resources) {
        out.push({ name: r.name, uri: r.uri, ...(r.mimeType ? { mimeType: r.mimeType } : {}), ...(r.description ? { description: r.description } : {}) });
      }
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor && pages < MAX_PAGES && out.length < MAX_RESOURCES);
  } catch (e) {
    return `MCP server "${server}": resources/list failed: ${message(e)}`;
  }
  return { resources: out.slice(0, MAX_RESOURCES), more: Boolean(cursor) || out.length > MAX_RESOURCES };
}

export async function listResources(manager: McpManager, server: string | undefined, signal: AbortSignal): Promise<ToolOutput> {
  if (server) {
    const one = await listOne(manager, server, signal);
    if (typeof one === "string") return { content: one, isError: true };
    return { content: JSON.stringify({ [server]: one.resources, ...(one.more ? { truncated: `more resources than ${MAX_RESOURCES} listed` } : {}) }, null, 1) };
  }
  const servers = manager.connected().filter((c) => c.has("resources"));
  if (!servers.length) return { content: "no connected MCP server offers resources" };
  const all: Record<string, Listed[] | string> = {};
  for (const c of servers) {
    const one = await listOne(manager, c.name, signal);
    all[c.name] = typeof one === "string" ? one : one.resources;
  }
  return { content: JSON.stringify(all, null, 1) };
}

export async function readResource(manager: McpManager, server: string, uri: string, signal: AbortSignal): Promise<ToolOutput> {
  const c = manager.connections.get(server);
  const client = c?.sdk;
  if (!c || !client) return { content: `MCP server "${server}" is not connected`, isError: true };
  let contents: Array<{ uri: string; mimeType?: string; text?: unknown; blob?: unknown }>;
  try {
    contents = (await ownSignal(signal, (own) => client.readResource({ uri }, { signal: own }))).contents;
  } catch (e) {
    return { content: `MCP server "${server}": cannot read ${uri}: ${message(e)}`, isError: true };
  }
  const texts: string[] = [];
  const images: ToolImage[] = [];
  for (const part of contents) {
    const mime = part.mimeType ?? "";
    if (typeof part.text === "string") texts.push(contents.length > 1 ? `[${part.uri}]\n${part.text}` : part.text);
    else if (typeof part.blob === "string") {
      if (mime.startsWith("image/")) {
        images.push({ mediaType: mime, data: part.blob });
        texts.push(`[${part.uri}: ${mime} image]`);
      } else texts.push(`[${part.uri}: ${mime || "binary"}, ${Math.floor((part.blob.length * 3) / 4)} bytes, not shown]`);
    }
  }
  return { content: texts.join("\n") || "(empty resource)", ...(images.length ? { images } : {}) };
}

export function resourceTools(manager: McpManager): ToolDefinition[] {
  const list: ToolDefinition = {
    name: LIST_RESOURCES,
    claudeName: "ListMcpResourcesTool",
    kind: "read",
    description: "List the resources (documents, data) that connected MCP servers offer: per server, each resource's name, uri, mimeType and description. Read one with read_resource.",
    inputSchema: {
      type: "object",
      properties: { server: { type: "string", description: "only this server's resources (default: every server)" } },
      additionalProperties: false,
    },
    ruleSubject: (input) => String(input.server ?? ""),
    run: (input, ctx) => listResources(manager, typeof input.server === "string" && input.server ? input.server : undefined, ctx.signal),
  };
  const read: ToolDefinition = {
    name: READ_RESOURCE,
    claudeName: "ReadMcpResourceTool",
    kind: "read",
    description: "Read one resource of an MCP server by its uri (as list_resources gives it).",
    inputSchema: {
      type: "object",
      properties: { server: { type: "string", description: "the MCP server's name" }, uri: { type: "string", description: "the resource's uri" } },
      required: ["server", "uri"],
      additionalProperties: false,
    },
    ruleSubject: (input) => `${String(input.server ?? "")} ${String(input.uri ?? "")}`,
    run: (input, ctx) => readResource(manager, String(input.server ?? ""), String(input.uri ?? ""), ctx.signal),
  };
  return [list, read];
}
