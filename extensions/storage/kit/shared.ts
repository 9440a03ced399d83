/** Implementation published by the kit `oceancode/kit/storage` (moved out of extensions/storage/api.ts, which keeps the types). */
import path from "node:path";
import type { ResolvedConfig } from "../../../kernel/api.js";
import { type DatabaseCheck } from "../api.js";

/**
 * Check a database file without the storage extension (no activation): PRAGMA quick_check on a
 * read-only connection. Loaded on demand so importing this contract stays cheap.
 */
export async function checkDatabase(file: string): Promise<DatabaseCheck> {
  const { checkDatabaseFile } = await import("../health.js");
  return checkDatabaseFile(file);
}

/**
 * Retention is one policy for every project, so it is read from the built-in default, the user's
 * config, managed config and pins only: a project's `.oceancode/` file must not make a run there sweep
 * every other project. Returns the value and the project files that set it (ignored, to warn about).
 */
export function globalSetting(config: ResolvedConfig, dotted: string): { value: unknown; ignoredIn: string[] } {
  let value: unknown;
  const ignoredIn: string[] = [];
  const segs = dotted.split(".");
  for (const layer of config.layers) {
    let cur: unknown = layer.value;
    for (const s of segs) cur = typeof cur === "object" && cur !== null && !Array.isArray(cur) ? (cur as Record<string, unknown>)[s] : undefined;
    if (cur === undefined) continue;
    if (layer.name === "project") ignoredIn.push(layer.file ?? "project config");
    else value = cur;
  }
  return { value, ignoredIn };
}

/**
 * The session database: `database.path` (the user config < $OC_DB < --db < managed/pins as layered; a project
 * file cannot move it: one database for every project), else `<dataDir>/oceancode.db`.
 */
export function databaseFile(config: ResolvedConfig, dataDir: string): { file: string; isDefault: boolean; ignoredIn: string[] } {
  const s = globalSetting(config, "database.path");
  const set = typeof s.value === "string" && s.value.length > 0 ? path.resolve(s.value) : undefined;
  return { file: set ?? path.join(dataDir, "oceancode.db"), isDefault: set === undefined, ignoredIn: s.ignoredIn };
}
