/** Part of the published contract `oceancode/api/engine` (re-exported by ../api.ts): tools and their registry. */
import type { FileDiff, ToolCall } from "./rows.js";
import type { QuestionPreview } from "./hooks.js";
import type { ToolSpec } from "./provider.js";
import type { SessionInfo } from "./session.js";

// ---------------------------------------------------------------- tools

export type ToolKind = "read" | "edit" | "execute" | "search" | "other";

export interface SpawnSpec {
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** who is spawning (tool name) */
  purpose: string;
}

export interface ToolContext {
  session: SessionInfo;
  call: ToolCall;
  cwd: string;
  signal: AbortSignal;
  /** Compose a child process spec through the childProcess hook (env stripping, sandbox wrap). */
  prepareSpawn(spec: Omit<SpawnSpec, "env"> & { env?: NodeJS.ProcessEnv }): Promise<SpawnSpec>;
  /** Per-session state bag for tools (e.g. files read, background jobs). */
  state: Map<string, unknown>;
}

/** An image a tool returns beside its text (an MCP image content block); providers that take images send it as one. */
export interface ToolImage {
  /** e.g. "image/png" */
  mediaType: string;
  /** base64 */
  data: string;
}

export interface ToolOutput {
  content: string;
  /** images the model should see after the text (providers without image input ignore them) */
  images?: ToolImage[];
  isError?: boolean;
  metadata?: Record<string, unknown>;
  /** the file change an edit made, for the host's diff (ToolResult.diff) */
  diff?: FileDiff;
}

export interface ToolDefinition extends ToolSpec {
  kind: ToolKind;
  /** Claude Code's name for hook payloads and Tool(pattern) rules: "Bash", "Read", "Write", "Edit", ... */
  claudeName?: string;
  /** The input in Claude Code's field names, absolute paths (for hook payloads). */
  toClaudeInput?(input: Record<string, unknown>, cwd: string): Record<string, unknown>;
  /** Map Claude-shaped input (e.g. a hook's updatedInput) back to ours. */
  fromClaudeInput?(input: Record<string, unknown>): Record<string, unknown>;
  /** The string a permission rule's pattern matches: the command for bash, the path for file tools. */
  ruleSubject?(input: Record<string, unknown>, cwd: string): string;
  /** What a permission question for this input shows besides the subject (an edit's diff); must not throw or change anything. */
  preview?(input: Record<string, unknown>, cwd: string): QuestionPreview | undefined;
  run(input: Record<string, unknown>, ctx: ToolContext): Promise<ToolOutput>;
}

export interface ToolRegistry {
  /** `by`: the registering extension's id (ctx.id), named when the manifest did not declare it */
  register(tool: ToolDefinition, by?: string): void;
  get(name: string): ToolDefinition | undefined;
  list(): ToolDefinition[];
}
