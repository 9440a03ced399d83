/**
 * A plugin's enable state as installed.json says NOW. The kernel's walk reads installed.json once per
 * process (its roots are cached), so a plugin switched off mid-session (the pager's /plugins picker,
 * `oceancode plugin disable` from a shell) would keep its skills until the next start. The fold asks this
 * instead: the file is re-read only when its stamp changes, like skill-state.json and trust.json.
 */
import fs from "node:fs";
import { stampOf } from "./user-store.js";

/** The walk's plugin record (kernel Root.plugin). */
export interface PluginRef {
  name: string;
  enabled: boolean;
  source: string;
}

interface StoreShape {
  plugins?: Array<{ name?: unknown; enabled?: unknown }>;
  external?: Record<string, Record<string, { enabled?: unknown }>>;
}

export class LivePluginState {
  private seen = "";
  private data: StoreShape | undefined;
  constructor(readonly file: string) {}

  stamp(): string {
    return stampOf(this.file);
  }

  private read(): StoreShape | undefined {
    const s = this.stamp();
    if (s === this.seen) return this.data;
    this.seen = s;
    try {
      const v = JSON.parse(fs.readFileSync(this.file, "utf8")) as unknown;
      this.data = v && typeof v === "object" && !Array.isArray(v) ? (v as StoreShape) : undefined;
    } catch {
      this.data = undefined; // missing or corrupt: the walk's state stands
    }
    return this.data;
  }

  /** oceancode's own record (`plugins[].enabled`), else an `external.<source>.<name>.enabled` override, else the walk's. */
  enabled(p: PluginRef): boolean {
    const d = this.read();
    if (!d) return p.enabled;
    if (p.source === "oceancode") {
      const rec = (Array.isArray(d.plugins) ? d.plugins : []).find((x) => x?.name === p.name);
      return rec ? rec.enabled !== false : p.enabled;
    }
    const o = d.external?.[p.source]?.[p.name]?.enabled;
    return typeof o === "boolean" ? o : p.enabled;
  }
}
