/**
 * File reads and writes through the editor (fs/read_text_file, fs/write_text_file) when it offers them:
 * the editor then sees unsaved buffers on read and tracks the agent's writes. Run as the innermost part of
 * the engine's executeTool wrap, so permission asks, sandboxing and hooks stay where they are; only the
 * tool's own run is replaced. `edit` and @ref paths keep the native tool (see docs/acp.md).
 */
import path from "node:path";
import type { ClientCapabilities } from "@agentclientprotocol/sdk";
import type { ToolCallContext, ToolOutput } from "../engine/api.js";

/** What the routed tools need from the connection (the agent-side context's two fs methods). */
export interface ClientFs {
  readTextFile(params: { sessionId: string; path: string; line?: number; limit?: number }): Promise<{ content: string }>;
  writeTextFile(params: { sessionId: string; path: string; content: string }): Promise<void>;
}

/** The same numbering as the native read tool (cat -n style), starting at `first`. */
function numbered(text: string, first: number): { body: string; shown: number } {
  const lines = text.split("\n");
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  const body = lines.map((l, i) => `${String(first + i).padStart(6)}\t${l.endsWith("\r") ? l.slice(0, -1) : l}`).join("\n");
  return { body, shown: lines.length };
}

const READ_DEFAULT_LIMIT = 2000;

/** The tool input after hooks' rewrites (ctx.claude holds the updated input in Claude's shape). */
function inputOf(ctx: ToolCallContext): Record<string, unknown> {
  return ctx.tool?.fromClaudeInput ? ctx.tool.fromClaudeInput(ctx.claude.toolInput) : ctx.call.input;
}

/** A path the editor can serve: absolute, no @ref (configured reference dirs are the tool's), no .env secrets. */
function routable(given: unknown, cwd: string): string | undefined {
  if (typeof given !== "string" || !given || given.startsWith("@")) return undefined;
  const file = path.resolve(cwd, given);
  // the native read refuses .env files; keep that refusal by letting the native tool answer
  if (/^\.env(\..*)?$/.test(path.basename(file))) return undefined;
  return file;
}

/**
 * The replacement run of `read` or `write` through the client, or undefined when the call keeps its native
 * run (another tool, a capability the client lacks, a path only the tool resolves).
 */
export async function runThroughClient(ctx: ToolCallContext, caps: ClientCapabilities | undefined, client: ClientFs): Promise<ToolOutput | undefined> {
  const name = ctx.call.name;
  const sessionId = ctx.session.info.id;
  if (name === "read" && caps?.fs?.readTextFile) {
    const input = inputOf(ctx);
    const file = routable(input.file_path, ctx.cwd);
    if (!file) return undefined;
    const offset = typeof input.offset === "number" && input.offset >= 1 ? Math.floor(input.offset) : 1;
    const limit = typeof input.limit === "number" && input.limit >= 1 ? Math.floor(input.limit) : READ_DEFAULT_LIMIT;
    try {
      const { content } = await client.readTextFile({ sessionId, path: file, line: offset, limit });
      if (content === "") return { content: offset > 1 ? `(${file}: nothing at line ${offset} or after)` : `(${file} is empty)`, metadata: { path: file, via: "acp" } };
      const { body, shown } = numbered(content, offset);
      const more = shown >= limit ? `\n\n(showing lines ${offset}-${offset + shown - 1}; use offset ${offset + shown} to read more)` : "";
      return { content: `${body}${more}`, metadata: { path: file, via: "acp" } };
    } catch (e) {
      return { content: `read: the editor could not read ${file}: ${(e as Error).message}`, isError: true };
    }
  }
  if (name === "write" && caps?.fs?.writeTextFile) {
    const input = inputOf(ctx);
    const file = routable(input.file_path, ctx.cwd);
    if (!file || typeof input.content !== "string") return undefined;
    try {
      await client.writeTextFile({ sessionId, path: file, content: input.content });
      return { content: `Wrote ${Buffer.byteLength(input.content)} bytes to ${file}`, metadata: { path: file, via: "acp" } };
    } catch (e) {
      return { content: `write: the editor could not write ${file}: ${(e as Error).message}`, isError: true };
    }
  }
  return undefined;
}
