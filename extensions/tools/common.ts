/** Shared plumbing: input checks with clear messages, the first-call clock, errors and output limits. */
import type { ToolContext, ToolDefinition, ToolOutput } from "../engine/api.js";
import type { ToolsOptions } from "./api.js";
import { resolveToolPath } from "./paths.js";
import { limitOutput } from "./output.js";
import { toolsState } from "./state.js";
import { ToolInputError } from "./errors.js";

/** A bad call: its message goes back to the model as the tool's error result. */
export { ToolInputError } from "./errors.js";

export function reqString(tool: string, input: Record<string, unknown>, key: string, what: string): string {
  const v = input[key];
  if (typeof v !== "string" || v.length === 0) throw ToolInputError({ message: `${tool}: '${key}' is required and must be a non-empty string (${what})` });
  return v;
}

export function optString(tool: string, input: Record<string, unknown>, key: string): string | undefined {
  const v = input[key];
  if (v === undefined || v === null || v === "") return undefined;
  if (typeof v !== "string") throw ToolInputError({ message: `${tool}: '${key}' must be a string` });
  return v;
}

export function optNumber(tool: string, input: Record<string, unknown>, key: string, min: number): number | undefined {
  const v = input[key];
  if (v === undefined || v === null) return undefined;
  const n = typeof v === "string" && v.trim() !== "" ? Number(v) : v;
  if (typeof n !== "number" || !Number.isFinite(n) || n < min) throw ToolInputError({ message: `${tool}: '${key}' must be a number >= ${min}` });
  return Math.floor(n);
}

export function optBool(tool: string, input: Record<string, unknown>, key: string): boolean | undefined {
  const v = input[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "boolean") throw ToolInputError({ message: `${tool}: '${key}' must be true or false` });
  return v;
}

/** Resolve a path argument (refs aliases, ~, relative to the call's cwd). */
export function toolPath(opts: ToolsOptions, ctx: Pick<ToolContext, "cwd">, p: string): string {
  return resolveToolPath(p, { cwd: ctx.cwd, refs: opts.refs, project: opts.project, home: opts.home }).path;
}

/**
 * Wrap a tool's run: start the session's first-call clock, turn thrown errors into error results, and
 * apply the output size limit (full text kept on disk).
 */
export function finishTool(def: ToolDefinition, opts: ToolsOptions): ToolDefinition {
  const inner = def.run.bind(def);
  return {
    ...def,
    async run(input: Record<string, unknown>, ctx: ToolContext): Promise<ToolOutput> {
      toolsState(ctx);
      let out: ToolOutput;
      try {
        out = await inner(input ?? {}, ctx);
      } catch (e) {
        const msg = e instanceof Error ? e.message : String(e);
        out = { content: ToolInputError.is(e) ? msg : `${def.name}: ${msg}`, isError: true };
      }
      return limitOutput(out, { maxChars: opts.maxOutputChars, maxBytes: opts.maxOutputBytes, dataDir: opts.dataDir, sessionId: ctx.session.id, callId: ctx.call.id });
    },
  };
}
