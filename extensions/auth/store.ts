/**
 * auth.json: `{ "<provider>": { "type": "api", "key": "<key>" } }`, plus other credential records kept
 * whole (e.g. `"mcp:<server>": { "type": "oauth", ... }`, an MCP server's OAuth tokens); mode 0600,
 * written atomically.
 */
import fs from "node:fs";
import path from "node:path";
import { AuthFileError } from "./errors.js";

export interface StoredCredential {
  type: "api";
  key: string;
}
/** Any other credential kept in the file (its `type` is not "api"): read and written back unchanged. */
export interface StoredRecord {
  type: string;
  [field: string]: unknown;
}
export type AuthFile = Record<string, StoredCredential | StoredRecord>;

export function isApiKey(entry: StoredCredential | StoredRecord | undefined): entry is StoredCredential {
  return entry?.type === "api" && typeof (entry as { key?: unknown }).key === "string";
}

export { AuthFileError } from "./errors.js";

/** Read auth.json. Missing = empty; unreadable or malformed throws an AuthFileError naming the fix. */
export function readAuthFile(file: string): AuthFile {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw AuthFileError({ message: `${file}: cannot read credentials (${(e as Error).message}); check its permissions` });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw AuthFileError({ message: `${file}: not valid JSON (${(e as Error).message}); fix it or delete it and store the key again with oceancode key` });
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    throw AuthFileError({ message: `${file}: expected an object of provider -> {"type":"api","key":"..."}; fix it or delete it` });
  }
  const out: AuthFile = {};
  for (const [id, entry] of Object.entries(value as Record<string, unknown>)) {
    if (!entry || typeof entry !== "object" || Array.isArray(entry)) continue;
    const e = entry as Record<string, unknown>;
    if (typeof e.key === "string" && (e.type === undefined || e.type === "api")) out[id] = { type: "api", key: e.key };
    else if (typeof e.type === "string" && e.type !== "api") out[id] = { ...e, type: e.type };
  }
  return out;
}

/** Write auth.json atomically (temp file in the same folder, fsync, rename) with mode 0600. */
export function writeAuthFile(file: string, data: AuthFile): void {
  const dir = path.dirname(file);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const tmp = path.join(dir, `.auth.json.${process.pid}.${Date.now()}.tmp`);
  const fd = fs.openSync(tmp, "wx", 0o600);
  try {
    fs.writeSync(fd, `${JSON.stringify(data, null, 2)}\n`);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.chmodSync(tmp, 0o600);
    fs.renameSync(tmp, file);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw e;
  }
}
