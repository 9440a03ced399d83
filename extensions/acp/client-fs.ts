/**
 * read, write and edit through the editor (fs/read_text_file, fs/write_text_file) when it offers both: the
 * model then reads unsaved buffers and the editor tracks the agent's changes. Run as the innermost part of
 * the engine's executeTool wrap, so permission asks, sandboxing and hooks stay where they are; only the
 * tool's own run is replaced. All three or none: the native write and edit refuse a file the native read
 * did not record, so mixing the two paths would refuse every edit after a read through the editor.
 * @ref paths and .env files keep the native tools (see docs/acp.md).
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
  if (!caps?.fs?.readTextFile || !caps.fs.writeTextFile) return undefined;
  const name = ctx.call.name;
  if (name !== "read" && name !== "write" && name !== "edit") return undefined;
  const input = inputOf(ctx);
  const file = routable(input.file_path, ctx.cwd);
  if (!file) return undefined;
  const sessionId = ctx.session.info.id;
  try {
    if (name === "read") return await readVia(client, sessionId, file, input);
    if (name === "write") {
      if (typeof input.content !== "string") return undefined; // the native tool explains the input error
      await client.writeTextFile({ sessionId, path: file, content: input.content });
      return { content: `Wrote ${Buffer.byteLength(input.content)} bytes to ${file}`, metadata: { path: file, via: "acp" } };
    }
    return await editVia(client, sessionId, file, input);
  } catch (e) {
    return { content: `${name}: the editor could not ${name === "read" ? "read" : "write"} ${file}: ${(e as Error).message}`, isError: true };
  }
}

async function readVia(client: ClientFs, sessionId: string, file: string, input: Record<string, unknown>): Promise<ToolOutput> {
  const offset = typeof input.offset === "number" && input.offset >= 1 ? Math.floor(input.offset) : 1;
  const limit = typeof input.limit === "number" && input.limit >= 1 ? Math.floor(input.limit) : READ_DEFAULT_LIMIT;
  const { content } = await client.readTextFile({ sessionId, path: file, line: offset, limit });
  if (content === "") return { content: offset > 1 ? `(${file}: nothing at line ${offset} or after)` : `(${file} is empty)`, metadata: { path: file, via: "acp" } };
  const { body, shown } = numbered(content, offset);
  const more = shown >= limit ? `\n\n(showing lines ${offset}-${offset + shown - 1}; use offset ${offset + shown} to read more)` : "";
  return { content: `${body}${more}`, metadata: { path: file, via: "acp" } };
}

/** The native edit's rules (exact match, unique unless replace_all) applied to the editor's text of the file. */
async function editVia(client: ClientFs, sessionId: string, file: string, input: Record<string, unknown>): Promise<ToolOutput | undefined> {
  const oldS = input.old_string;
  const newS = input.new_string;
  if (typeof oldS !== "string" || !oldS || typeof newS !== "string") return undefined; // the native tool explains
  const fail = (m: string): ToolOutput => ({ content: `edit: ${m}`, isError: true });
  if (oldS === newS) return fail("old_string and new_string are identical; nothing would change");
  const { content: text } = await client.readTextFile({ sessionId, path: file });
  const n = text.split(oldS).length - 1;
  if (n === 0) return fail(`old_string was not found in ${file}; read the file and copy the exact text (whitespace and indentation included)`);
  const all = input.replace_all === true;
  if (n > 1 && !all) return fail(`old_string matches ${n} times in ${file}; include more surrounding lines to make it unique, or set replace_all: true`);
  const at = text.indexOf(oldS);
  const next = all ? text.split(oldS).join(newS) : text.slice(0, at) + newS + text.slice(at + oldS.length);
  await client.writeTextFile({ sessionId, path: file, content: next });
  const count = all ? n : 1;
  const firstLine = text.slice(0, at).split("\n").length;
  const from = Math.max(1, firstLine - 3);
  const snippet = numbered(next.split("\n").slice(from - 1, from - 1 + newS.split("\n").length + 6).join("\n"), from).body;
  return { content: `Edited ${file}: ${count} replacement${count === 1 ? "" : "s"}\n${snippet}`, metadata: { path: file, replacements: count, via: "acp" } };
}
