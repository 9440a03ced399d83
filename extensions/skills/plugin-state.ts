/**
 * A plugin's enable state as installed.json says NOW. The kernel's walk reads installed.json once per
 * process (its roots are cached), so a plugin switched off mid-session (the pager's /plugins picker,
 * `oceancode plugin disable` from a shell) would keep its skills until the next start. The fold asks this
 * instead: the file is re-read only when its stamp changes, like skill-state.json and trust.json.
 */
import { pluginStateIn, readPluginStoreFile, type PluginStoreFile } from "../../kernel/api.js";
import { stampOf } from "./user-store.js";

/** The walk's plugin record (kernel Root.plugin). */
export interface PluginRef {
  name: string;
  enabled: boolean;
  source: string;
}

export class LivePluginState {
  private seen = "";
  private data: PluginStoreFile | undefined;
  constructor(readonly file: string) {}

  stamp(): string {
    return stampOf(this.file);
  }

  private read(): PluginStoreFile | undefined {
    const s = this.stamp();
    if (s !== this.seen) {
      this.seen = s;
      this.data = readPluginStoreFile(this.file); // missing or corrupt: undefined, the walk's state stands
    }
    return this.data;
  }

  /** The walk's own rule (kernel pluginStateIn) over installed.json as it is now; an uninstalled plugin is off. */
  enabled(p: PluginRef): boolean {
    return pluginStateIn(this.read(), p, { enabled: p.enabled, trusted: false }).enabled;
  }
}
