/**
 * Change the user or the project config file the way a person editing it would be held to: each key
 * names a known section, the section still validates against its owner's schema afterwards (the error
 * names the key path), and the project file may set only what its schemas let a repo-tier file set
 * (`x-oc-untrusted`: a project file cannot widen permissions, sandboxing or trust). Comments and
 * the other keys are kept (jsonc-parser edits); the file is replaced atomically.
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { KernelIntrospection } from "../../kernel/api.js";
import { isPlainObject } from "../../kernel/config.js";
import { compileSchema, formatProblem, validate } from "../../kernel/schema.js";
import { tightenLayer } from "../../kernel/untrusted.js";

export type ConfigScope = "user" | "project";

/** A refusal: `path` is the dotted key it is about. */
export class ConfigPatchError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly keyPath?: string,
  ) {
    super(message);
  }
}

interface Section {
  schema: object;
  owner: string;
}

/** section -> its schema, from the live extensions' manifests (the same files the kernel validated with) */
export function sectionSchemas(info: KernelIntrospection): Map<string, Section> {
  const out = new Map<string, Section>();
  for (const e of info.extensions) {
    for (const c of e.manifest?.contributes?.config ?? []) {
      if (out.has(c.section)) continue;
      try {
        out.set(c.section, { schema: JSON.parse(fs.readFileSync(path.join(e.dir, c.schema), "utf8")) as object, owner: e.id });
      } catch {
        // an unreadable schema: the kernel reported it at start; its section cannot be patched
      }
    }
  }
  return out;
}

/** The file a scope's changes go to: the one that exists (jsonc first), else the plain .json one. */
export function scopeFile(info: KernelIntrospection, scope: ConfigScope): string {
  const files = scope === "user" ? info.configFiles.global : info.configFiles.project;
  return files.find((f) => fs.existsSync(f)) ?? files[files.length - 1]!;
}

function deepMerge(dst: Record<string, unknown>, src: Record<string, unknown>): Record<string, unknown> {
  for (const [k, v] of Object.entries(src)) dst[k] = isPlainObject(v) && isPlainObject(dst[k]) ? deepMerge({ ...(dst[k] as Record<string, unknown>) }, v) : structuredClone(v);
  return dst;
}

type Jsonc = typeof import("jsonc-parser");

/** Apply `set` (dotted key -> value; null removes the key) to the scope's file; returns the file written. */
export function patchConfig(info: KernelIntrospection, scope: ConfigScope, set: Record<string, unknown>): string {
  const sections = sectionSchemas(info);
  const keys = Object.keys(set);
  if (keys.length === 0) throw new ConfigPatchError(400, "invalid_request", "nothing to set: give at least one key");
  for (const key of keys) {
    const segs = key.split(".");
    if (segs.some((s) => s === "" || s === "__proto__" || s === "constructor" || s === "prototype")) throw new ConfigPatchError(400, "invalid_config_key", `'${key}' is not a dotted config key`, key);
    if (!sections.has(segs[0]!)) throw new ConfigPatchError(400, "unknown_config_key", `no extension declares the config section '${segs[0]}' (see oceancode inspect)`, key);
  }
  const file = scopeFile(info, scope);
  let text = "{}\n";
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
  }
  if (text.trim() === "") text = "{}\n";
  const jsonc = createRequire(import.meta.url)("jsonc-parser") as Jsonc;
  const parse = (t: string): Record<string, unknown> => {
    const errors: import("jsonc-parser").ParseError[] = [];
    const doc = jsonc.parse(t, errors, { allowTrailingComma: true }) as unknown;
    if (errors.length || !isPlainObject(doc)) throw new ConfigPatchError(409, "config_file_invalid", `${file} is not a JSON object as it stands: nothing was changed (fix the file first)`);
    return doc;
  };
  parse(text);
  const fmt = { formattingOptions: { insertSpaces: true, tabSize: 2 } };
  for (const key of keys) {
    const v = set[key];
    text = jsonc.applyEdits(text, jsonc.modify(text, key.split("."), v === null ? undefined : v, fmt));
  }
  const next = parse(text);
  // the touched sections validate as a whole (an unknown key inside a section is an error here)
  for (const section of new Set(keys.map((k) => k.split(".")[0]!))) {
    if (next[section] === undefined) continue;
    const spec = sections.get(section)!;
    const problems = validate(compileSchema(`config:${section}:${spec.owner}`, spec.schema), next[section], { prefix: [section] });
    if (problems.length) throw new ConfigPatchError(400, "invalid_config", problems.map((p) => formatProblem(file, p)).join("; "), problems[0]!.keyPath);
  }
  if (scope === "project") {
    // judged as a repo-tier file against what the layers under it (defaults, the user's files) set
    const below: Record<string, unknown> = {};
    for (const l of info.config.layers) if (l.name === "default" || l.name === "global") deepMerge(below, l.value);
    const patched: Record<string, unknown> = {};
    for (const section of new Set(keys.filter((k) => set[k] !== null).map((k) => k.split(".")[0]!))) if (next[section] !== undefined) patched[section] = next[section];
    const schemas = new Map([...sections].map(([s, v]) => [s, v.schema]));
    const held = tightenLayer(patched, below, schemas).held.filter((h) => keys.some((k) => set[k] !== null && (h === k || h.startsWith(`${k}.`) || h.startsWith(`${k}[`) || k.startsWith(`${h}.`))));
    if (held.length) throw new ConfigPatchError(403, "config_key_not_allowed", `a project file may not set ${held.join(", ")}: it would widen what the user's own config allows (set it in the user config instead)`, held[0]);
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  fs.writeFileSync(tmp, text.endsWith("\n") ? text : `${text}\n`);
  fs.renameSync(tmp, file);
  return file;
}
