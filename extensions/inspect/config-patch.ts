/**
 * Change the user or the project config file the way a person editing it would be held to: each key
 * names a known section, the section still validates against its owner's schema afterwards (the error
 * names the key path), and a project file of the repo tier (tracked by git) may set only what the schemas let an untrusted layer set
 * (`x-oc-untrusted`: a project file cannot widen permissions, sandboxing or trust). Comments and
 * the other keys are kept (jsonc-parser edits); the file is replaced atomically.
 */
import fs from "node:fs";
import path from "node:path";
import { editJsonc, jsoncObject, readJsoncForEdit, writeFileAtomic, type KernelIntrospection } from "../../kernel/api.js";
import { isPlainObject } from "../../kernel/api.js";
import { compileSchema, formatProblem, validate } from "../../kernel/api.js";
import { tightenLayer } from "../../kernel/api.js";
import { ownershipOf } from "../../kernel/api.js";

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


/**
 * Does the schema name this key path (through `properties`, or a map's `additionalProperties` /
 * `patternProperties`)? A file takes unknown keys with a warning; a patch does not write a key that
 * nothing reads (a typo would be stored and ignored).
 */
function knownPath(schema: unknown, segs: readonly string[]): boolean {
  if (segs.length === 0) return true;
  if (!isPlainObject(schema)) return false;
  for (const alt of ["anyOf", "oneOf", "allOf"] as const) {
    const list = schema[alt];
    if (Array.isArray(list) && list.some((s) => knownPath(s, segs))) return true;
  }
  const [head, ...rest] = segs as [string, ...string[]];
  const props = schema.properties;
  if (isPlainObject(props) && Object.prototype.hasOwnProperty.call(props, head)) return knownPath(props[head], rest);
  const patterns = schema.patternProperties;
  if (isPlainObject(patterns)) for (const [re, s] of Object.entries(patterns)) if (new RegExp(re, "u").test(head)) return knownPath(s, rest);
  const extra = schema.additionalProperties;
  if (extra === true || (extra === undefined && schema.type === "object" && !isPlainObject(props))) return true;
  return isPlainObject(extra) ? knownPath(extra, rest) : false;
}

/** Apply `set` (dotted key -> value; null removes the key) to the scope's file; returns the file written. */
export function patchConfig(info: KernelIntrospection, project: string, scope: ConfigScope, set: Record<string, unknown>): string {
  const sections = sectionSchemas(info);
  const keys = Object.keys(set);
  if (keys.length === 0) throw new ConfigPatchError(400, "invalid_request", "nothing to set: give at least one key");
  for (const key of keys) {
    const segs = key.split(".");
    if (segs.some((s) => s === "" || s === "__proto__" || s === "constructor" || s === "prototype")) throw new ConfigPatchError(400, "invalid_config_key", `'${key}' is not a dotted config key`, key);
    const section = sections.get(segs[0]!);
    if (!section) throw new ConfigPatchError(400, "unknown_config_key", `no extension declares the config section '${segs[0]}' (see oceancode inspect)`, key);
    if (!knownPath(section.schema, segs.slice(1))) throw new ConfigPatchError(400, "unknown_config_key", `the '${segs[0]}' section (${section.owner}) has no key '${segs.slice(1).join(".")}'`, key);
  }
  const file = scopeFile(info, scope);
  let { text, object } = readJsoncForEdit(file);
  const invalid = () => new ConfigPatchError(409, "config_file_invalid", `${file} is not a JSON object as it stands: nothing was changed (fix the file first)`);
  if (!object) throw invalid();
  for (const key of keys) {
    const v = set[key];
    text = editJsonc(text, key.split("."), v === null ? undefined : v);
  }
  object = jsoncObject(text);
  if (!object) throw invalid();
  const next = object;
  // the touched sections validate as a whole (an unknown key inside a section is an error here)
  for (const section of new Set(keys.map((k) => k.split(".")[0]!))) {
    if (next[section] === undefined) continue;
    const spec = sections.get(section)!;
    const problems = validate(compileSchema(`config:${section}:${spec.owner}`, spec.schema), next[section], { prefix: [section] });
    if (problems.length) throw new ConfigPatchError(400, "invalid_config", problems.map((p) => formatProblem(file, p)).join("; "), problems[0]!.keyPath);
  }
  // a repo-tier file (the checkout's: tracked by git) is held to what an untrusted layer may set, trusted
  // repo or not: a write over HTTP must not widen what every clone of the repository asks for. A file that
  // is the user's own (untracked, the local tier) takes what hand-editing it would.
  const own = scope === "project" ? ownershipOf(project, file) : undefined;
  if (own?.tier === "repo") {
    // judged against what the layers under it (defaults, the user's files) set
    const below: Record<string, unknown> = {};
    for (const l of info.config.layers) if (l.name === "default" || l.name === "global") deepMerge(below, l.value);
    const patched: Record<string, unknown> = {};
    for (const section of new Set(keys.filter((k) => set[k] !== null).map((k) => k.split(".")[0]!))) if (next[section] !== undefined) patched[section] = next[section];
    const schemas = new Map([...sections].map(([s, v]) => [s, v.schema]));
    const held = tightenLayer(patched, below, schemas).held.filter((h) => keys.some((k) => set[k] !== null && (h === k || h.startsWith(`${k}.`) || h.startsWith(`${k}[`) || k.startsWith(`${h}.`))));
    if (held.length) throw new ConfigPatchError(403, "config_key_not_allowed", `${file} is the repository's (${own.reason ?? "tracked by git"}): it may not set ${held.join(", ")}, which would widen what the user's own config allows (set it in the user config instead)`, held[0]);
  }
  writeFileAtomic(file, text.endsWith("\n") ? text : `${text}\n`, 0o644);
  return file;
}
