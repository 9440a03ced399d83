/**
 * One line per hook source whose hooks are not running — invalid, unreadable, or held untrusted — so a
 * guard hook that does not run is never a surprise. Said once per process (a `run`, a pager session):
 * a source already reported (same file, same status) is not reported again, however often the files
 * are re-read or however many tiers list the same file. A disabled plugin is the user's own choice and
 * is not reported.
 */
import type { HookSource } from "./api.js";

function handlerCount(s: HookSource): number {
  return s.groups.reduce((n, g) => n + g.handlers.length, 0);
}

/** The error already names the file (and line) when the reader could; otherwise prefix the path. */
function located(s: HookSource): string {
  const e = (s.error ?? "").replace(/\s*\n\s*/g, " ");
  return e.startsWith(s.path) ? e : `${s.path}: ${e}`;
}

export function sourceNotice(s: HookSource): string | undefined {
  switch (s.status) {
    case "invalid":
      return `${located(s)} — its hooks are not running`;
    case "unreadable":
      return `${located(s)} — the file cannot be read; its hooks are not running`;
    case "held: untrusted": {
      const n = handlerCount(s);
      if (n === 0) return undefined;
      const what = `${n} hook${n === 1 ? "" : "s"} in ${s.path} ${n === 1 ? "is" : "are"} not running`;
      if (s.tier === "plugin" && s.plugin) return `${what}: plugin ${s.plugin} is not trusted (oceancode plugin trust ${s.plugin} runs them)`;
      return `${what}: this project is not trusted (oceancode trust repo on runs them)`;
    }
    default:
      return undefined;
  }
}

export class SourceNotices {
  private readonly said = new Set<string>();

  constructor(private readonly warn: (line: string) => void) {}

  /** Warn about every source not reported yet. */
  report(sources: readonly HookSource[]): void {
    for (const s of sources) {
      const line = sourceNotice(s);
      if (!line) continue;
      const key = `${s.status}\0${s.path}`;
      if (this.said.has(key)) continue;
      this.said.add(key);
      this.warn(line);
    }
  }
}
