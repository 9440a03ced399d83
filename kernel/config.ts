/**
 * Layered config: default < global < project (.jsonc, then .json over it) < env < managed < host < requirements pins.
 * `env`: the OC_* variables a schema maps onto a key (`x-oc-env`); `host`: the flags of the command line
 * (--model, --max-steps, --db), handed over by the host. Both are settings of this launch, not files: they
 * beat the user's files, env stays under the administrator's managed file, a flag beats both, pins beat all.
 * Merged per section (objects merge key by key, arrays and scalars replace), last writer wins, and
 * every leaf key remembers the layer and file that set it (for `oceancode inspect`).
 * Each layer's sections are validated against the schemas extensions contribute before merging,
 * so an error names the file, line and key path.
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { OcError, ErrorCodes, isOcError } from "./errors.js";
import { parseJsonc, lineOfPath, JsoncSyntaxError, type JsoncDocument } from "./jsonc.js";
import { compileSchema, validate, formatProblem } from "./schema.js";
import { tightenLayer } from "./untrusted.js";
import { nearest } from "./nearest.js";
import type { Paths } from "./paths.js";

export type LayerName = "default" | "global" | "project" | "env" | "managed" | "host" | "requirements";

export interface ConfigLayer {
  name: LayerName;
  file?: string;
  value: Record<string, unknown>;
  doc?: JsoncDocument;
  /** an untrusted layer (repo tier): only what schemas mark `x-oc-untrusted` reaches the config */
  untrusted?: boolean;
  /** after loading, an untrusted layer's held keys (its `value` then holds only what was admitted) */
  held?: string[];
  /** env and host layers: the variable or flag behind each dotted key, e.g. {"model": "--model"} */
  sources?: Record<string, string>;
  /** the host layer: every setting the host took from its command line, config keys or not (the project directory) */
  settings?: HostSetting[];
}

/** One setting a host took from its command line: a config key (model, engine.max_steps, ...) or, with config false, a kernel option. */
export interface HostSetting {
  key: string;
  value: unknown;
  /** how it was spelled on the command line: "--model", "--directory" */
  flag: string;
  /** false: not a config key (the project directory, a kernel option); shown by inspect, never merged */
  config?: boolean;
}

export interface SectionSchema {
  section: string;
  schema: object;
  owner: string;
  removed?: string[];
  aliases?: Record<string, string>;
}

export interface Provenance {
  layer: LayerName;
  file?: string;
  /** env and host layers: the variable ("OC_MODEL") or flag ("--model") that set the key */
  source?: string;
}

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function getPath(obj: Record<string, unknown>, segs: string[]): unknown {
  let cur: unknown = obj;
  for (const s of segs) {
    if (!isPlainObject(cur)) return undefined;
    cur = cur[s];
  }
  return cur;
}

function setPath(obj: Record<string, unknown>, segs: string[], value: unknown): void {
  let cur = obj;
  for (const s of segs.slice(0, -1)) {
    if (!isPlainObject(cur[s])) cur[s] = {};
    cur = cur[s] as Record<string, unknown>;
  }
  cur[segs[segs.length - 1]!] = value;
}

function deletePath(obj: Record<string, unknown>, segs: string[]): boolean {
  const parent = getPath(obj, segs.slice(0, -1));
  if (!isPlainObject(parent) || !(segs[segs.length - 1]! in parent)) return false;
  delete parent[segs[segs.length - 1]!];
  return true;
}

/** Merge src into dst in place, recording provenance for every leaf written. */
function mergeInto(
  dst: Record<string, unknown>,
  src: Record<string, unknown>,
  prov: Map<string, Provenance>,
  from: Provenance & { sources?: Record<string, string> },
  prefix: string,
  append?: ReadonlySet<string>,
): void {
  const at = (key: string): Provenance => (from.sources ? { layer: from.layer, source: from.sources[key] } : { layer: from.layer, file: from.file });
  for (const [k, v] of Object.entries(src)) {
    if (k === "$schema") continue;
    const key = prefix ? `${prefix}.${k}` : k;
    if (isPlainObject(v) && Object.keys(v).length > 0) {
      if (!isPlainObject(dst[k])) {
        // a scalar/array replaced by an object: forget provenance under the old key
        prov.delete(key);
        dst[k] = {};
      }
      mergeInto(dst[k] as Record<string, unknown>, v, prov, from, key, append);
    } else if (append?.has(key) && Array.isArray(v) && Array.isArray(dst[k])) {
      dst[k] = [...(dst[k] as unknown[]), ...structuredClone(v)];
      prov.set(key, at(key));
    } else {
      for (const p of [...prov.keys()]) if (p.startsWith(`${key}.`)) prov.delete(p);
      dst[k] = structuredClone(v);
      prov.set(key, at(key));
    }
  }
}

export class ResolvedConfig {
  constructor(
    readonly value: Record<string, unknown>,
    readonly provenance: ReadonlyMap<string, Provenance>,
    readonly layers: readonly ConfigLayer[],
    readonly warnings: readonly string[],
    /** warnings said once per version of their file (the host's boot filters them: kernel/said-once.ts) */
    readonly oncePerFile: ReadonlyArray<{ file: string; text: string }> = [],
  ) {}
  /** untrusted layers that had keys held back, with those keys */
  get held(): Array<{ file: string; keys: string[] }> {
    return this.layers.filter((l) => l.held?.length).map((l) => ({ file: l.file ?? l.name, keys: [...l.held!] }));
  }
  section<T = Record<string, unknown>>(name: string): T {
    const v = this.value[name];
    return (v === undefined ? {} : structuredClone(v)) as T;
  }
  get(dotted: string): unknown {
    return getPath(this.value, dotted.split("."));
  }
  sourceOf(dotted: string): Provenance | undefined {
    return this.provenance.get(dotted);
  }
}

export interface ConfigFiles {
  global: string[];
  project: string[];
  managed: string;
}

export function configFiles(paths: Paths, env: NodeJS.ProcessEnv): ConfigFiles {
  const global = env.OC_CONFIG
    ? [path.resolve(env.OC_CONFIG)]
    : [path.join(paths.configDir, "oceancode.jsonc"), path.join(paths.configDir, "oceancode.json")];
  return {
    global,
    project: [path.join(paths.project, ".oceancode", "oceancode.jsonc"), path.join(paths.project, ".oceancode", "oceancode.json")],
    managed: env.OC_MANAGED_CONFIG ? path.resolve(env.OC_MANAGED_CONFIG) : "/etc/oceancode/managed.json",
  };
}

type CosmiconfigSync = typeof import("cosmiconfig").cosmiconfigSync;
let explorer: ReturnType<CosmiconfigSync> | undefined;
let lastDoc: JsoncDocument | undefined;

/**
 * cosmiconfig (loaded on first use: runs without config files never pay for it) with one JSONC loader
 * for .json and .jsonc, so comments and trailing commas work in both and errors keep their positions.
 */
function configExplorer(): ReturnType<CosmiconfigSync> {
  if (!explorer) {
    const { cosmiconfigSync } = createRequire(import.meta.url)("cosmiconfig") as typeof import("cosmiconfig");
    const jsoncLoader = (_file: string, content: string): unknown => {
      lastDoc = content.trim() === "" ? undefined : parseJsonc(content);
      return lastDoc?.value ?? {};
    };
    explorer = cosmiconfigSync("oceancode", { cache: false, loaders: { ".json": jsoncLoader, ".jsonc": jsoncLoader, noExt: jsoncLoader } });
  }
  return explorer;
}

/** Read one config file. Missing: undefined. Broken or unreadable: a coded error naming the file. */
export function readConfigFile(file: string, name: LayerName): ConfigLayer | undefined {
  try {
    fs.accessSync(file, fs.constants.F_OK);
  } catch {
    return undefined;
  }
  let value: unknown;
  try {
    lastDoc = undefined;
    value = configExplorer().load(file)?.config ?? {};
  } catch (e) {
    if (e instanceof JsoncSyntaxError) {
      throw new OcError(ErrorCodes.CONFIG_PARSE, `${file}:${e.line}: broken JSON: ${e.message}`, {
        hint: "fix the syntax (comments and trailing commas are allowed)",
      });
    }
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw new OcError(ErrorCodes.CONFIG_UNREADABLE, `${file}: cannot read config file (${code ?? String(e)})`, {
      hint: "fix its permissions or remove it",
    });
  }
  const doc = lastDoc;
  if (!isPlainObject(value)) {
    throw new OcError(ErrorCodes.CONFIG_INVALID, `${file}:1: (root): expected an object`, { hint: 'write a JSON object, e.g. {"ledger": {}}' });
  }
  return { name, file, value, doc };
}

export interface LoadConfigOptions {
  /** file layers in precedence order (from readLayers) */
  layers: ConfigLayer[];
  sections: SectionSchema[];
  pins?: Record<string, unknown>;
  pinsFile?: string;
  /** every section some installed extension declares (live or not): anything else is a warning */
  knownSections?: readonly string[];
  /** report invalid sections as warnings and drop them, instead of throwing (doctor, inspect) */
  tolerant?: boolean;
  /** the process environment: OC_* variables that schemas map onto keys (`x-oc-env`) make the env layer */
  env?: NodeJS.ProcessEnv;
  /** the host layer (hostLayer): the command line's settings, above every file */
  host?: ConfigLayer;
}

/** The host layer from a host's command-line settings. Values are the host's to check (its usage errors name the flag). */
export function hostLayer(settings: HostSetting[]): ConfigLayer {
  const value: Record<string, unknown> = {};
  const sources: Record<string, string> = {};
  for (const s of settings) {
    if (s.config === false) continue;
    setPath(value, s.key.split("."), s.value);
    sources[s.key] = s.flag;
  }
  return { name: "host", value, sources, settings: [...settings] };
}

/** Only OC_ variables can feed a key, and never a secret-looking one (inspect shows config values). */
const ENV_NAME = /^OC_[A-Z0-9_]+$/;
const SECRET_NAME = /KEY|SECRET|TOKEN|PASSWORD/i;

/**
 * The env layer: every key whose schema names an OC_ variable (`"x-oc-env": "OC_MODEL"`) and that variable
 * is set and not empty. Numbers are read as numbers; like flags, values are checked by the key's owner where
 * it reads them, so the error names the variable.
 */
export function envLayer(sections: readonly SectionSchema[], env: NodeJS.ProcessEnv): ConfigLayer | undefined {
  const value: Record<string, unknown> = {};
  const sources: Record<string, string> = {};
  const visit = (schema: unknown, segs: string[]): void => {
    if (!isPlainObject(schema)) return;
    const name = schema["x-oc-env"];
    const raw = typeof name === "string" && ENV_NAME.test(name) && !SECRET_NAME.test(name) ? env[name] : undefined;
    if (raw !== undefined && raw !== "") {
      const numeric = (schema.type === "integer" || schema.type === "number") && /^-?\d+(\.\d+)?$/.test(raw.trim());
      setPath(value, segs, numeric ? Number(raw) : raw);
      sources[segs.join(".")] = name as string;
    }
    if (isPlainObject(schema.properties)) for (const [k, s] of Object.entries(schema.properties)) visit(s, [...segs, k]);
  };
  for (const s of sections) visit(s.schema, [s.section]);
  return Object.keys(sources).length ? { name: "env", value, sources } : undefined;
}

/**
 * Read the global, project and managed files that exist, lowest precedence first. `untrusted(file)`:
 * a project file that arrived with the checkout while the repo is not trusted (tighten-only).
 */
export function readLayers(
  files: ConfigFiles,
  untrusted: (file: string) => boolean = () => false,
  /** tolerant hosts (doctor, inspect): a broken file is reported here and skipped instead of thrown */
  onError?: (e: OcError) => void,
): ConfigLayer[] {
  const out: ConfigLayer[] = [];
  const read = (f: string, name: LayerName): ConfigLayer | undefined => {
    try {
      return readConfigFile(f, name);
    } catch (e) {
      if (!onError || !isOcError(e)) throw e;
      onError(e as OcError);
      return undefined;
    }
  };
  for (const [name, list] of [["global", files.global], ["project", files.project], ["managed", [files.managed]]] as const) {
    for (const f of list) {
      const l = read(f, name);
      if (l) out.push(name === "project" && untrusted(f) ? { ...l, untrusted: true } : l);
    }
  }
  return out;
}

/** Default values from a schema's `default` keywords (objects recurse). */
function schemaDefaults(schema: unknown): unknown {
  if (!isPlainObject(schema)) return undefined;
  if ("default" in schema) return structuredClone(schema.default);
  if (schema.type === "object" && isPlainObject(schema.properties)) {
    const out: Record<string, unknown> = {};
    for (const [k, s] of Object.entries(schema.properties)) {
      const d = schemaDefaults(s);
      if (d !== undefined) out[k] = d;
    }
    return Object.keys(out).length ? out : undefined;
  }
  return undefined;
}

export function loadConfig(opts: LoadConfigOptions): ResolvedConfig {
  const warnings: string[] = [];
  const layers: ConfigLayer[] = [];
  const defaults: Record<string, unknown> = {};
  for (const s of opts.sections) {
    const d = schemaDefaults(s.schema);
    if (d !== undefined) defaults[s.section] = d;
  }
  layers.push({ name: "default", value: defaults });
  // env goes under the managed file (an administrator's), over the user's own files; the host over all files
  const env = opts.env ? envLayer(opts.sections, opts.env) : undefined;
  const files = opts.layers;
  const managedAt = files.some((l) => l.name === "managed") ? files.findIndex((l) => l.name === "managed") : files.length;
  const ordered = [...files.slice(0, managedAt), ...(env ? [env] : []), ...files.slice(managedAt), ...(opts.host ? [opts.host] : [])];
  for (const l of ordered) layers.push({ ...l, value: structuredClone(l.value) });

  const bySection = new Map(opts.sections.map((s) => [s.section, s]));
  const problems: string[] = [];
  const warned = new Set<string>();
  for (const layer of layers) {
    // env and host values are checked by their owners where they are read: the error names the variable or flag
    if (layer.name === "default" || layer.sources) continue;
    for (const [section, spec] of bySection) {
      const raw = layer.value[section];
      if (raw === undefined) continue;
      // aliases: old key path -> new key path, within the section
      for (const [from, to] of Object.entries(spec.aliases ?? {})) {
        const fromSegs = from.split(".");
        const v = getPath(layer.value, fromSegs);
        if (v === undefined) continue;
        const both = getPath(layer.value, to.split(".")) !== undefined;
        if (!both) setPath(layer.value, to.split("."), v);
        deletePath(layer.value, fromSegs);
        // an old key still works, and the user hears about it once per file
        const line = layer.doc ? lineOfPath(layer.doc, fromSegs) : undefined;
        const msg = `${layer.file ?? layer.name}${line ? `:${line}` : ""}: ${from} is now ${to}; ${both ? "this file sets both, so the old key is ignored: remove it" : "it is read as the new key: rename it"}`;
        if (!warned.has(msg)) warnings.push(msg);
        warned.add(msg);
      }
      // removed keys: still load, ignored, one warning naming them
      const gone: string[] = [];
      for (const r of spec.removed ?? []) if (deletePath(layer.value, r.split("."))) gone.push(r);
      if (gone.length) {
        const msg = `${layer.file}: ignoring removed config keys: ${gone.join(", ")}`;
        if (!warned.has(msg)) warnings.push(msg);
        warned.add(msg);
      }
      const v = compileSchema(`config:${section}:${spec.owner}`, spec.schema);
      const found = validate(v, layer.value[section], { prefix: [section], doc: layer.doc, ignoreUnknownKeys: true }).map((p) => formatProblem(layer.file ?? layer.name, p));
      if (found.length && opts.tolerant) {
        warnings.push(...found.map((f) => `${f} (section '${section}' of this file ignored)`));
        delete layer.value[section];
      } else problems.push(...found);
    }
  }
  if (problems.length) {
    throw new OcError(ErrorCodes.CONFIG_INVALID, problems.join("\n"), { hint: "fix the value or remove the key" });
  }

  const once: Array<{ file: string; text: string }> = [];
  if (opts.knownSections) warnings.push(...unknownSections(layers, opts.knownSections, once));

  const value: Record<string, unknown> = {};
  const prov = new Map<string, Provenance>();
  const schemas = new Map(opts.sections.map((s) => [s.section, s.schema]));
  for (const layer of layers) {
    let append: Set<string> | undefined;
    if (layer.untrusted) {
      const t = tightenLayer(layer.value, value, schemas);
      layer.value = t.value;
      layer.held = t.held;
      append = t.append;
    }
    mergeInto(value, layer.value, prov, { layer: layer.name, file: layer.file, sources: layer.sources }, "", append);
  }
  if (opts.pins && Object.keys(opts.pins).length) {
    const pinned: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(opts.pins)) setPath(pinned, k.split("."), v);
    const layer: ConfigLayer = { name: "requirements", file: opts.pinsFile, value: pinned };
    layers.push(layer);
    mergeInto(value, pinned, prov, { layer: "requirements", file: opts.pinsFile }, "");
  }
  return new ResolvedConfig(value, prov, layers, warnings, once);
}

/** The native-TUI keys removed on 2026-10-05: a file still carrying them loads unchanged (the guide), said once per file version. */
const REMOVED_TUI_KEYS = new Set(["tui", "keybindings", "disabled_providers", "notifications"]);

/** Top-level keys no extension declares: one warning each, naming the file, the line and the nearest known key. */
function unknownSections(layers: readonly ConfigLayer[], known: readonly string[], once: Array<{ file: string; text: string }>): string[] {
  const out: string[] = [];
  const names = new Set(known);
  for (const l of layers) {
    if (l.name === "default" || l.sources) continue;
    const tui = Object.keys(l.value).filter((k) => REMOVED_TUI_KEYS.has(k) && !names.has(k));
    if (tui.length && l.file) once.push({ file: l.file, text: `${l.file}: ignoring the native-TUI keys removed on 2026-10-05: ${tui.join(", ")} (the file loads unchanged; said once until the file changes)` });
    for (const k of Object.keys(l.value)) {
      if (k === "$schema" || names.has(k) || (l.file && tui.includes(k))) continue;
      const line = l.doc ? lineOfPath(l.doc, [k]) : undefined;
      const near = nearest(k, known);
      out.push(`${l.file ?? l.name}${line ? `:${line}` : ""}: unknown config section '${k}'${near ? ` (did you mean '${near}'?)` : ""}; it is ignored`);
    }
  }
  return out;
}
