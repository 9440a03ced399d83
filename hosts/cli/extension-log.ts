/**
 * Error lines about an extension name its directory, so a user can find the code that failed (an
 * activate() that throws is reported and the run goes on: the line is all they get). The kernel's
 * message says `extension '<id>' …`; the host adds where that extension lives when the line does not.
 */
import type { Logger } from "../../kernel/api.js";

/** What this needs from the kernel: its extension records (a Kernel satisfies it). */
export interface ExtensionDirs {
  introspect(): { extensions: ReadonlyArray<{ id: string; dir: string; state: string }> };
}

/** `line` with ` (extension directory: <dir>)` when it names an extension and not already its directory. */
export function withExtensionDir(kernel: ExtensionDirs, line: string): string {
  const id = /\bextension '([^']+)'/.exec(line)?.[1];
  if (id === undefined) return line;
  // the record that took the id (a shadowed one of the same id never ran)
  const rec = kernel.introspect().extensions.find((e) => e.id === id && e.state !== "shadowed");
  if (!rec || line.includes(rec.dir)) return line;
  return `${line} (extension directory: ${rec.dir})`;
}

/** A logger whose error lines name the extension's directory (see withExtensionDir). */
export function namingExtensionDirs(kernel: ExtensionDirs, log: Logger): Logger {
  return { debug: (m) => log.debug(m), info: (m) => log.info(m), warn: (m) => log.warn(m), error: (m) => log.error(withExtensionDir(kernel, m)) };
}
