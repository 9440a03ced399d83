/**
 * The switches that may change while a session runs: ~/.oceancode/plugins/installed.json (a plugin
 * enabled, disabled or trusted from a shell or the pager) and ~/.oceancode/trust.json (repo trust, the
 * master switch `everything_off`). The walk caches its roots per process, so the hooks registry asks
 * here before every dispatch: both files are stat'ed (mtime + size) and, when either changed, the
 * sources are re-applied. Only these two files under ~/.oceancode are read: nothing in a checkout can
 * turn a hook on.
 */
import fs from "node:fs";
import { pluginStateIn, type PluginStoreFile, type Root } from "../../kernel/api.js";

function stampOf(file: string): string {
  try {
    const st = fs.statSync(file);
    return `${st.mtimeMs}:${st.size}:${st.ino}`;
  } catch {
    return "-";
  }
}

export class LiveFiles {
  private seen: string;
  constructor(private readonly files: readonly string[]) {
    this.seen = this.stamp();
  }

  stamp(): string {
    return this.files.map(stampOf).join("|");
  }

  /** Has any file changed since the last call (or construction)? */
  changed(): boolean {
    const s = this.stamp();
    if (s === this.seen) return false;
    this.seen = s;
    return true;
  }
}

/** A plugin root with its enabled / trusted state as installed.json (`store`) says now; other roots as they are. */
export function livePluginRoot(root: Root, store: PluginStoreFile | undefined): Root {
  if (!root.plugin) return root;
  const now = pluginStateIn(store, root.plugin, { enabled: root.plugin.enabled, trusted: root.plugin.trusted });
  if (now.enabled === root.plugin.enabled && now.trusted === root.plugin.trusted) return root;
  return { ...root, trustedByDefault: now.trusted, plugin: { ...root.plugin, ...now } };
}
