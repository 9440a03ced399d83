/**
 * Activation helpers for the kernel: which extensions an event wakes, env timeouts, and loading an
 * extension's entry module (no kernel state here). The kernel imports this at start, not at discover.
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Manifest } from "./manifest.js";
import type { ExtRecord } from "./discovery.js";
import type { Extension } from "./api.js";
import { ErrorCodes, OcError } from "./errors.js";

/** A positive number of milliseconds from an env value, else the default. */
export function positiveMs(raw: string | undefined, fallback: number): number {
  const n = raw === undefined || raw === "" ? NaN : Number(raw);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

/** Does this manifest activate on the event (declared, or implied by a contributed command or slash command)? */
export function listensTo(m: Manifest, event: string): boolean {
  if ((m.activation ?? []).includes(event)) return true;
  if (event.startsWith("onCommand:")) return (m.contributes?.commands ?? []).some((c) => `onCommand:${c.name}` === event);
  if (event.startsWith("onSlash:")) return (m.contributes?.slashCommands ?? []).some((c) => `onSlash:${c.name}` === event);
  return false;
}

/** Bundled entry modules whose load has started (prefetchExtension). */
const prefetched = new WeakSet<ExtRecord>();

/**
 * Start loading a bundled extension's entry module ahead of its turn to activate. import() shares one
 * load per URL, so loadExtension later awaits the same load; started side by side, the file reads of the
 * extensions an event wakes overlap instead of each waiting for the last (activation order is unchanged).
 * Code from outside the package waits for loadExtension: its imports need the self-resolve hook first.
 */
export function prefetchExtension(rec: ExtRecord): void {
  if (rec.root.tier !== "bundled" || rec.module || prefetched.has(rec) || !rec.manifest?.main) return;
  prefetched.add(rec);
  import(pathToFileURL(path.join(rec.codeDir, rec.manifest.main)).href).catch(() => undefined); // its error comes from loadExtension
}

/** Import an extension's entry module and return the Extension it exports (default, or a bare activate()). */
export async function loadExtension(rec: ExtRecord): Promise<Extension> {
  const entry = path.join(rec.codeDir, rec.manifest!.main);
  // code from outside the package imports "oceancode/api/<id>": give it this host's modules
  if (rec.root.tier !== "bundled") {
    const self = await import("./self-resolve.js");
    if (self.usesSelfModule(rec.codeDir)) self.provideSelfModule();
  }
  const mod = (await import(pathToFileURL(entry).href)) as { default?: Extension; activate?: Extension["activate"] };
  const ext: Extension | undefined = mod.default ?? (mod.activate ? { activate: mod.activate } : undefined);
  if (!ext || typeof ext.activate !== "function") throw new OcError(ErrorCodes.ACTIVATION_FAILED, `${entry} has no default export with an activate() function`);
  return ext;
}
