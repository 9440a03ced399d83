/** Per-session tool state kept in ToolContext.state (in memory, so "this session in this process"). */
import type { ToolContext } from "../engine/api.js";

export interface ReadRecord {
  /** sha256 of the whole file as last read or written by a tool */
  hash: string;
}

export interface ToolsState {
  /** Date.now() at the session's first tool call in this process */
  firstCallAt: number;
  /** real path -> last read/written content hash */
  reads: Map<string, ReadRecord>;
}

const KEY = "tools.state";

export function toolsState(ctx: Pick<ToolContext, "state">): ToolsState {
  let s = ctx.state.get(KEY) as ToolsState | undefined;
  if (!s) {
    s = { firstCallAt: Date.now(), reads: new Map() };
    ctx.state.set(KEY, s);
  }
  return s;
}
