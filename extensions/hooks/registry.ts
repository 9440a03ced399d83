/**
 * The live set of hook sources: the walk's files with trust applied (every source held while the
 * project's master switch is off; repo tier held until the project is trusted; plugin hooks held while
 * the plugin is disabled or untrusted). Reloaded on demand, when a watched Claude Code settings file
 * changes, and before a dispatch when installed.json or trust.json changed (`fresh`, live.ts).
 */
import fs from "node:fs";
import path from "node:path";
import type { PluginStoreFile } from "../../kernel/api.js";
import type { Discovered, Root } from "../../kernel/api.js";
import type { HookSource, HooksReport } from "./api.js";
import type { SourceItem } from "./sources.js";
import { livePluginRoot, type LiveFiles } from "./live.js";

export type TrustCheck = (root: Root) => Promise<boolean>;

/** What may change while a session runs (read fresh by the loader). */
export interface LiveState {
  /** the project's master switch (trust.json `everything_off`) */
  everythingOff: boolean;
  /** installed.json now: a plugin root's enabled / trusted state is re-applied from it */
  store?: PluginStoreFile;
}

export async function applyTrust(found: Array<Discovered<SourceItem>>, trusted: TrustCheck, live: LiveState = { everythingOff: false }): Promise<HookSource[]> {
  const out: HookSource[] = [];
  for (const d of found) {
    const s = { ...d.item.source };
    if (s.status === "loaded") {
      const root = "store" in live ? livePluginRoot(d.root, live.store) : d.root;
      if (live.everythingOff) s.status = "held: everything off";
      else if (root.plugin && !root.plugin.enabled) s.status = "held: disabled plugin";
      else if (root.plugin) {
        // a plugin runs only when installed with trust (or `plugin trust`): decided here from the live
        // record, never from a per-process cache
        if (!root.trustedByDefault && !root.plugin.trusted) s.status = "held: untrusted";
      } else if (!root.trustedByDefault && !(await trusted(root))) s.status = "held: untrusted";
    }
    out.push(s);
  }
  return out;
}

export function report(sources: readonly HookSource[], repoTrusted: boolean): HooksReport {
  return {
    repo_trusted: repoTrusted,
    sources: sources.map((s) => ({
      path: s.path,
      tier: s.tier,
      ecosystem: s.ecosystem,
      ...(s.plugin ? { plugin: s.plugin } : {}),
      status: s.status,
      ...(s.error ? { error: s.error } : {}),
      skipped: s.skipped,
      shared_with_claude_code: s.sharedWithClaudeCode,
      handlers: s.groups.flatMap((g) =>
        g.handlers.map((h) => ({
          event: g.event,
          matcher: g.matcher ?? "",
          type: h.type,
          ...(h.type === "command" ? { command: h.command } : { url: h.url }),
          ...(h.timeout !== undefined ? { timeout: h.timeout } : {}),
        })),
      ),
    })),
  };
}

export function formatReport(r: HooksReport): string[] {
  const lines: string[] = [];
  let handlers = 0;
  let loaded = 0;
  for (const s of r.sources) {
    const extra = [s.skipped > 0 ? `skipped: ${s.skipped} unsupported handlers` : "", s.error ? `(${s.error})` : "", s.plugin ? `plugin ${s.plugin}` : ""].filter(Boolean);
    lines.push([`${s.tier}`, s.ecosystem, s.path, s.status, ...extra].join("  "));
    for (const h of s.handlers) {
      const what = h.type === "command" ? `command: ${h.command}` : `http: ${h.url}`;
      lines.push(`    ${h.event}  matcher=${h.matcher === "" ? "*" : h.matcher}  ${what}${h.timeout !== undefined ? `  timeout=${h.timeout}s` : ""}`);
    }
    handlers += s.handlers.length;
    if (s.status === "loaded") loaded++;
  }
  lines.push(`HOOKS_OK sources=${r.sources.length} handlers=${handlers} loaded=${loaded}`);
  return lines;
}

export class HookRegistry {
  private current: HookSource[] = [];
  private watchers: fs.FSWatcher[] = [];
  private timer: NodeJS.Timeout | undefined;

  private loading: Promise<readonly HookSource[]> | undefined;

  constructor(
    private readonly loader: () => Promise<HookSource[]>,
    private readonly live?: LiveFiles,
  ) {}

  get sources(): readonly HookSource[] {
    return this.current;
  }

  async reload(): Promise<readonly HookSource[]> {
    const p = this.loader().then((s) => (this.current = s));
    this.loading = p;
    try {
      return await p;
    } finally {
      if (this.loading === p) this.loading = undefined;
    }
  }

  /**
   * Before a dispatch: reload when installed.json or trust.json changed since the last look (two stats),
   * and wait for a reload already under way, so concurrent dispatches see the same sources. True when
   * this call reloaded.
   */
  async fresh(): Promise<boolean> {
    if (this.live?.changed()) {
      await this.reload();
      return true;
    }
    if (this.loading) await this.loading;
    return false;
  }

  /**
   * Watch the .claude directories that exist now; a change to one of Claude Code's settings files
   * reloads (debounced). Watchers never keep the process alive.
   */
  watch(dirs: string[], debounceMs = 250, onReload?: (err?: unknown) => void): void {
    for (const dir of dirs) {
      if (!fs.existsSync(dir)) continue;
      try {
        const w = fs.watch(dir, { persistent: false }, (_type, file) => {
          const name = file ? path.basename(file.toString()) : "";
          if (name && name !== "settings.json" && name !== "settings.local.json") return;
          clearTimeout(this.timer);
          this.timer = setTimeout(() => {
            this.reload().then(
              () => onReload?.(),
              (e: unknown) => onReload?.(e),
            );
          }, debounceMs);
          this.timer.unref();
        });
        w.on("error", () => undefined);
        this.watchers.push(w);
      } catch {
        /* a directory we cannot watch is read at the next start */
      }
    }
  }

  close(): void {
    clearTimeout(this.timer);
    for (const w of this.watchers) w.close();
    this.watchers = [];
  }
}
