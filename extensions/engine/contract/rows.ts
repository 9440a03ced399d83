/** Part of the published contract `oceancode/api/engine` (re-exported by ../api.ts): messages, rows and usage. */

// ---------------------------------------------------------------- messages

export interface ToolCall {
  id: string;
  name: string;
  input: Record<string, unknown>;
}

export interface ToolResult {
  callId: string;
  name: string;
  /** what the model sees (possibly truncated) */
  content: string;
  isError: boolean;
  /** images after the text (ToolOutput.images), base64; a provider that takes images sends them in the tool_result */
  images?: Array<{ mediaType: string; data: string }>;
  /** when truncated for the model: the full text's length and where it is kept */
  truncated?: { fullBytes: number; fullPath?: string };
  /** a compressor shortened `content` (the compress extension): bytes the model no longer reads; the gauge adds them back ÷ 4 */
  compressed?: { removedBytes: number };
  /** a file tool's change, for a host to draw as a diff (never sent to the model) */
  diff?: FileDiff;
}

/**
 * A file change for display: the hunks of a unified diff (3 lines of context), bounded in size. A file
 * that did not exist has one hunk of its first lines, all added.
 */
export interface FileDiff {
  path: string;
  /** the file did not exist before */
  created?: boolean;
  /** lines added and removed in the whole change (also when hunks were cut) */
  added: number;
  removed: number;
  hunks: DiffHunk[];
  /** hunks or lines were left out to bound the size */
  truncated?: boolean;
}
export interface DiffHunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  /** each starts with " " (context), "-" or "+" */
  lines: string[];
}

interface RowBase {
  /** monotonic per session: the ledger's "every row up to seq <n>" */
  seq: number;
  turn: number;
  step: number;
  at: number;
}
export interface UserRow extends RowBase {
  role: "user";
  text: string;
  /** context added by hooks/extensions for the model (not typed by the user) */
  context?: string[];
  /** images the user attached (a pager `@image.png`), base64, sent after the text */
  images?: Array<{ mediaType: string; data: string }>;
}
export interface AssistantRow extends RowBase {
  role: "assistant";
  text: string;
  toolCalls: ToolCall[];
  usage?: Usage;
  model?: string;
}
export interface ToolRow extends RowBase {
  role: "tool";
  results: ToolResult[];
}
/** A notice the engine injects for the model (e.g. the tideline pointer line, a step-cap continuation). */
export interface NoteRow extends RowBase {
  role: "note";
  text: string;
  /** "interrupted": the engine's marker where an interrupted turn stopped (INTERRUPTED_NOTE) */
  kind?: "interrupted";
}

/** The note the engine appends where an interrupted turn stopped (the model reads it next turn). */
export const INTERRUPTED_NOTE = "[interrupted by the user: the turn stopped here, before it finished]";
export type Row = UserRow | AssistantRow | ToolRow | NoteRow;

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}
