/**
 * `oceancode inspect --hooks [--json]`: every hook of the kernel and of the hooks objects extensions bound
 * (the engine's), with its taps in call order: stage, extension, tap name. The extensions a session would
 * load are activated first (their taps are registered when they activate); nothing runs a hook.
 */
import type { HookOrder } from "../../kernel/api.js";

/** One tap as listed: its stage, the extension it belongs to and its own name (`engine:crash`). */
export interface HookTapRow {
  stage: string;
  extension: string;
  tap: string;
}
export interface HookRow {
  hook: string;
  kind: string;
  failClosed: boolean;
  /** the hook's stages in order (the owner's published table), the default marked */
  stages: Array<{ name: string; doc: string; default: boolean }>;
  taps: HookTapRow[];
}

/** A tap is named after its extension id; a suffix after `:` names one of its taps (`engine:crash`). */
function extensionOf(tap: string): string {
  const i = tap.indexOf(":");
  return i > 0 ? tap.slice(0, i) : tap;
}

export function hookRows(order: readonly HookOrder[]): HookRow[] {
  return order.map((h) => ({
    hook: h.name,
    kind: h.kind,
    failClosed: h.failClosed,
    stages: h.stages,
    taps: h.taps.map((t) => ({ stage: t.stage, extension: extensionOf(t.name), tap: t.name })),
  }));
}

/** The text form: a line per hook (kind, its stages in order), then one line per tap in call order. */
export function hooksText(rows: readonly HookRow[]): string {
  const out: string[] = [];
  const stageW = Math.max(5, ...rows.flatMap((r) => r.taps.map((t) => t.stage.length)));
  const extW = Math.max(9, ...rows.flatMap((r) => r.taps.map((t) => t.extension.length)));
  for (const r of rows) {
    const stages = r.stages.map((s) => (s.default ? `${s.name}*` : s.name)).join(" > ");
    out.push(`${r.hook} [${r.kind}${r.failClosed ? ", fail-closed" : ""}]  stages: ${stages}`);
    if (r.taps.length === 0) out.push("  (no taps)");
    for (const t of r.taps) out.push(`  ${t.stage.padEnd(stageW)}  ${t.extension.padEnd(extW)}  ${t.tap}`);
  }
  out.push("", "* the stage a tap that names none goes to; taps run top to bottom (a wrap hook: outermost first)");
  return out.join("\n");
}
