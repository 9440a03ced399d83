/**
 * The dispatcher: for one event, the handlers of every loaded source whose group matches (sources in
 * walk order, earlier tiers first), run in parallel, each verdict recorded with its provenance, then
 * folded into one decision. Identical handlers (same command or URL) under one event run once.
 */
import type { HandlerSpec, HookEvent, HookOutcomeRecord, HookSource } from "./api.js";
import { compileMatcher } from "./matcher.js";
import { runCommand, runHttp, type RawResult, type SpawnPlan } from "./run-handler.js";
import { interpret, fold, type Folded, type Verdict } from "./decide.js";

export const DEFAULT_TIMEOUT_S = 60; // Claude Code's default for command hooks
export const GROK_DEFAULT_TIMEOUT_S = 5; // Grok Build's documented default

/** Events whose matcher is tested (against tool_name, source or reason); the rest ignore it. */
const MATCHED: Partial<Record<HookEvent, true>> = { PreToolUse: true, PostToolUse: true, PostToolUseFailure: true, PermissionDenied: true, SessionStart: true, SessionEnd: true };

export interface Planned {
  source: HookSource;
  matcher: string;
  handler: HandlerSpec;
}

export interface DispatchEnv {
  project: string;
  /** the environment a command handler starts from (secrets already stripped) */
  baseEnv(event: HookEvent): Promise<NodeJS.ProcessEnv>;
  /** the environment http header values may expand from */
  env: NodeJS.ProcessEnv;
  record(r: HookOutcomeRecord): void;
  /** a hook's verdict arrived (for -v) */
  trace?(r: HookOutcomeRecord): void;
  /** test seam: scale timeouts */
  timeoutScale?: number;
  /** the sandbox's wrap for a command handler (at least a PID namespace, so oceancode's /proc is out of sight) */
  wrap?(plan: SpawnPlan, event: HookEvent): Promise<SpawnPlan>;
}

export interface DispatchResult extends Folded {
  ran: number;
  records: HookOutcomeRecord[];
}

/** A handler's own bound (ms): its `timeout` in seconds, else its ecosystem's default. */
export function handlerTimeoutMs(source: HookSource, h: HandlerSpec, scale = 1): number {
  const seconds = h.timeout ?? (source.ecosystem === "grok" ? GROK_DEFAULT_TIMEOUT_S : DEFAULT_TIMEOUT_S);
  return Math.max(1, Math.round(seconds * 1000 * scale));
}

/** The longest bound of any loaded handler of these events (0: none). Handlers run in parallel, so this bounds a dispatch. */
export function longestTimeoutMs(sources: readonly HookSource[], events: readonly HookEvent[], scale = 1): number {
  let ms = 0;
  for (const s of sources) {
    if (s.status !== "loaded") continue;
    for (const g of s.groups) if (events.includes(g.event)) for (const h of g.handlers) ms = Math.max(ms, handlerTimeoutMs(s, h, scale));
  }
  return ms;
}

export function handlerLabel(h: HandlerSpec): string {
  return h.type === "command" ? h.command : `POST ${h.url}`;
}

export function plan(sources: readonly HookSource[], event: HookEvent, matchValue: string | undefined): Planned[] {
  const out: Planned[] = [];
  const seen = new Set<string>();
  for (const source of sources) {
    if (source.status !== "loaded") continue;
    for (const g of source.groups) {
      if (g.event !== event) continue;
      if (MATCHED[event] && !compileMatcher(g.matcher)(matchValue ?? "")) continue;
      for (const h of g.handlers) {
        // one plugin's `${CLAUDE_PLUGIN_ROOT}/x.sh` is not another's: the root is part of the command
        const key = h.type === "command" ? `c:${source.pluginRoot ?? ""}\0${h.command}` : `h:${h.url}`;
        if (seen.has(key)) continue;
        seen.add(key);
        out.push({ source, matcher: g.matcher ?? "", handler: h });
      }
    }
  }
  return out;
}

export async function dispatch(
  env: DispatchEnv,
  sources: readonly HookSource[],
  event: HookEvent,
  payload: Record<string, unknown>,
  opts: { matchValue?: string; tool?: string; toolUseId?: string; signal?: AbortSignal } = {},
): Promise<DispatchResult> {
  const planned = plan(sources, event, opts.matchValue);
  if (planned.length === 0) return { ...fold([]), ran: 0, records: [] };
  const body = JSON.stringify(payload);
  const base = planned.some((p) => p.handler.type === "command") ? await env.baseEnv(event) : {};
  const results = await Promise.all(
    planned.map(async (p): Promise<{ p: Planned; raw: RawResult; v: Verdict }> => {
      const ms = handlerTimeoutMs(p.source, p.handler, env.timeoutScale);
      let raw: RawResult;
      if (p.handler.type === "command") {
        const spawnPlan: SpawnPlan = {
          command: p.handler.shell ?? "sh",
          args: ["-c", p.handler.command],
          cwd: env.project,
          env: {
            ...base,
            OC_HOOK_EVENT: event,
            OC_PROJECT_DIR: env.project,
            CLAUDE_PROJECT_DIR: env.project,
            // the shell expands a plugin hook's ${CLAUDE_PLUGIN_ROOT} (Claude Code's variable) from here
            ...(p.source.pluginRoot ? { CLAUDE_PLUGIN_ROOT: p.source.pluginRoot, OC_PLUGIN_ROOT: p.source.pluginRoot } : {}),
          },
        };
        raw = await runCommand(env.wrap ? await env.wrap(spawnPlan, event) : spawnPlan, body, ms, opts.signal);
      } else {
        raw = await runHttp(p.handler, body, ms, env.env, opts.signal);
      }
      return { p, raw, v: interpret(event, raw, p.handler.type) };
    }),
  );
  const records: HookOutcomeRecord[] = results.map(({ p, raw, v }) => ({
    event,
    source: p.source.path,
    tier: p.source.tier,
    ecosystem: p.source.ecosystem,
    handler: handlerLabel(p.handler),
    matcher: p.matcher,
    decision: v.decision,
    ...(v.reason ? { reason: v.reason.slice(0, 2000) } : {}),
    exitCode: raw.exitCode,
    ms: Math.round(raw.ms),
    ...(opts.tool ? { tool: opts.tool } : {}),
    ...(opts.toolUseId ? { toolUseId: opts.toolUseId } : {}),
  }));
  for (const r of records) {
    env.record(r);
    env.trace?.(r);
  }
  return { ...fold(results.map((r) => r.v)), ran: results.length, records };
}
