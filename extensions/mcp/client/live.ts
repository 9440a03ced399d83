/**
 * Live switches: before each model request the mcp extension stats trust.json and the MCP config files
 * it watches; when a stamp changed, the servers are re-resolved (files only, nothing spawned) and the
 * manager reconciled: a server newly disabled or untrusted is dropped (its tools go on this very step,
 * its process is closed in the background, bounded ~2 s), one newly enabled or trusted starts (its tools
 * join the prompt's set on the first step after its handshake ends). The
 * master switch (everything_off) is read at the same time. Each applied change bumps `generation`, which
 * makes the prompt's fixed MCP tool set be taken again on the next step.
 */
import fs from "node:fs";
import type { ServerEntry } from "../api.js";
import type { McpManager } from "./manager.js";

export interface LiveOptions {
  /** the files whose change re-resolves the servers (trust.json first) */
  files: () => string[];
  /** resolve the servers now (reads the files; never spawns) */
  resolve: () => ServerEntry[];
  /** the project's everything_off, read fresh */
  everythingOff: () => boolean;
  manager: McpManager;
}

function stampOf(file: string): string {
  try {
    const s = fs.statSync(file);
    return `${s.ino}:${s.size}:${s.mtimeMs}`;
  } catch {
    return "-";
  }
}

export class LiveSwitches {
  /** bumped on every applied change: the prompt's MCP tool set is taken again */
  generation = 0;
  private off?: boolean;
  private stamp?: string;

  constructor(private readonly opts: LiveOptions) {}

  private stamps(): string {
    return this.opts.files().map(stampOf).join("|");
  }

  /** Take the current stamps as the baseline (the servers were resolved from these files). */
  baseline(): void {
    this.stamp ??= this.stamps();
  }

  /** Is the master switch on (MCP tools not offered)? Read once per change of the files. */
  everythingOff(): boolean {
    return (this.off ??= this.opts.everythingOff());
  }

  /** Stat the files; when one changed, re-resolve and reconcile. True when something was applied. */
  check(): boolean {
    // a server switched on mid-prompt that finished connecting: its tools join on this step
    if (this.opts.manager.takeArrived()) this.generation++;
    const now = this.stamps();
    if (this.stamp === undefined) {
      this.stamp = now;
      return false;
    }
    if (now === this.stamp) return false;
    this.stamp = now;
    this.apply();
    return true;
  }

  /** Re-resolve and reconcile now (after the extension itself changed trust.json). */
  apply(): void {
    this.stamp = this.stamps();
    const before = this.off;
    this.off = this.opts.everythingOff();
    const changed = this.opts.manager.reconcile(this.opts.resolve());
    if (changed || before !== this.off) this.generation++;
  }
}
