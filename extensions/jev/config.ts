/**
 * The jev section, layer by layer (docs/jev.md "Turning it on"):
 *   - consent: on only when a global layer (user, managed, requirements pins) AND the project layer say
 *     `jev.enabled: true`;
 *   - a project section may set only `enabled` and the seven mode keys (others ignored, one warning);
 *   - modes: the project's key wins over the global's; unset = shadow; OC_JEV=off|shadow|act overrides
 *     all seven (never turns the layer on; a bad value is warned and ignored);
 *   - endpoint, model, budgets, thresholds and `ocean.headers`: global layers only.
 * Pure: takes the config layers and the environment, returns the resolved settings and warnings.
 */
import type { ConfigLayer } from "../../kernel/api.js";
import { JEV_MODE_KEYS, JEV_POINTS, type JevMode, type JevPoint, type JevPointStatus } from "./api.js";

export const DEFAULT_ENDPOINT = "https://api.typesafe.ai/v1/systemone";
export const DIRECT_HOST = "api.typesafe.ai";
export const DEFAULT_MODEL = "jev-1.13.0";
export const MODE_ALIASES: Readonly<Record<string, string>> = { permission: "permissions", tool_tiers: "tools" };
const MODES: readonly JevMode[] = ["off", "shadow", "act"];

export interface JevEndpoint {
  url: string;
  host: string;
  /** the bearer key: only when the host is api.typesafe.ai */
  key?: string;
  /** ocean.headers (global config): only to a *.workers.dev host */
  headers?: Record<string, string>;
  /** where the endpoint came from */
  source: "default" | "config" | "env";
  /** the PlungeAI worker (*.workers.dev): an answer must carry x-typesafe-backend: cloudflare */
  worker?: boolean;
}

export interface JevConfig {
  enabled: boolean;
  reason?: string;
  model: string;
  deadlineMs: number;
  supervisorEverySteps: number;
  supervisorMaxContinuations: number;
  thresholds: Record<string, number>;
  endpoint?: JevEndpoint;
  points: JevPointStatus[];
  warnings: string[];
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** A layer's jev section with the mode aliases folded into their keys. */
function sectionOf(layer: ConfigLayer): Obj | undefined {
  const s = layer.value.jev;
  if (!isObj(s)) return undefined;
  const out: Obj = { ...s };
  for (const [alias, key] of Object.entries(MODE_ALIASES)) {
    if (alias in out) {
      if (!(key in out)) out[key] = out[alias];
      delete out[alias];
    }
  }
  return out;
}

const PROJECT_KEYS = new Set(["enabled", ...Object.values(JEV_MODE_KEYS)]);

/** Is this host loopback (plain http allowed, no key needed)? */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h === "::1" || /^127\.\d+\.\d+\.\d+$/.test(h);
}

export function resolveJevConfig(layers: readonly ConfigLayer[], env: NodeJS.ProcessEnv): JevConfig {
  const warnings: string[] = [];
  const global: Obj = {};
  const project: Obj = {};
  const ignored: string[] = [];
  let globalHeaders: unknown;
  for (const layer of layers) {
    const s = sectionOf(layer);
    if (layer.name === "project") {
      if (s)
        for (const [k, v] of Object.entries(s)) {
          if (PROJECT_KEYS.has(k)) project[k] = v;
          else ignored.push(`jev.${k}`);
        }
      continue;
    }
    if (s) Object.assign(global, s);
    const ocean = layer.value.ocean;
    if (isObj(ocean) && ocean.headers !== undefined) globalHeaders = ocean.headers;
  }
  if (ignored.length) warnings.push(`jev: the project config may set only jev.enabled and the seven mode keys; ${[...new Set(ignored)].join(", ")} ignored`);

  const model = typeof global.model === "string" && global.model.trim() ? global.model.trim() : DEFAULT_MODEL;
  const num = (v: unknown, d: number, min = 0): number => (typeof v === "number" && Number.isFinite(v) && v >= min ? v : d);
  const thresholds: Record<string, number> = {};
  if (isObj(global.thresholds)) for (const [k, v] of Object.entries(global.thresholds)) if (typeof v === "number" && Number.isFinite(v)) thresholds[k] = v;

  // the reason the layer is off, first one wins
  let reason: string | undefined;
  const envJev = env.OC_JEV?.trim();
  let envMode: JevMode | undefined;
  if (envJev) {
    if ((MODES as readonly string[]).includes(envJev)) envMode = envJev as JevMode;
    else warnings.push(`OC_JEV=${envJev} is not off, shadow or act; ignored`);
  }
  if (global.enabled !== true && project.enabled !== true) reason = "neither the global nor the project config has jev.enabled: true";
  else if (global.enabled !== true) reason = "the global config has no jev.enabled: true (consent is needed in both)";
  else if (project.enabled !== true) reason = "the project config has no jev.enabled: true (consent is needed in both)";
  else if (envMode === "off") reason = "OC_JEV=off";
  else if (!/\d/.test(model) || /^(latest|preview)$/i.test(model) || /-(latest|preview)$/i.test(model)) reason = `jev.model '${model}' is not a versioned id (latest and preview are refused)`;

  // the endpoint: OC_JEV_ENDPOINT > jev.endpoint (global only) > the direct API
  let endpoint: JevEndpoint | undefined;
  if (!reason) {
    const raw = env.OC_JEV_ENDPOINT?.trim() || (typeof global.endpoint === "string" ? global.endpoint.trim() : "") || DEFAULT_ENDPOINT;
    const source: JevEndpoint["source"] = env.OC_JEV_ENDPOINT?.trim() ? "env" : typeof global.endpoint === "string" && global.endpoint.trim() ? "config" : "default";
    let url: URL | undefined;
    try {
      url = new URL(raw);
    } catch {
      reason = `the jev endpoint (${source === "env" ? "OC_JEV_ENDPOINT" : "jev.endpoint"}) is not a URL`;
    }
    if (url) {
      const host = url.hostname.toLowerCase();
      if (url.protocol === "http:" && !isLoopback(host)) reason = `plain http is refused for ${host} (only a loopback host may use http)`;
      else if (url.protocol !== "http:" && url.protocol !== "https:") reason = `the jev endpoint must be https`;
      else {
        endpoint = { url: url.href, host, source };
        if (host === DIRECT_HOST) {
          const key = env.OC_TYPESAFE_API_KEY?.trim();
          if (key) endpoint.key = key;
          else reason = "OC_TYPESAFE_API_KEY is not set (the direct API needs it)";
        } else if (host.endsWith(".workers.dev")) {
          // the worker: always backend=cloudflare (never its OpenRouter relay); ocean.headers go only here
          url.searchParams.set("backend", "cloudflare");
          endpoint.url = url.href;
          endpoint.worker = true;
          if (isObj(globalHeaders)) endpoint.headers = Object.fromEntries(Object.entries(globalHeaders).filter((e): e is [string, string] => typeof e[1] === "string"));
        }
        if (reason) endpoint = undefined;
      }
    }
  }

  const enabled = reason === undefined;
  const points: JevPointStatus[] = JEV_POINTS.map((point) => {
    const key = JEV_MODE_KEYS[point];
    if (!enabled) return { point, mode: "off" as JevMode, why: `layer off: ${reason}` };
    if (envMode) return { point, mode: envMode, why: `OC_JEV=${envMode}` };
    for (const [where, sec] of [
      ["project", project],
      ["global", global],
    ] as const) {
      const v = sec[key];
      if (v === undefined) continue;
      if ((MODES as readonly string[]).includes(v as string)) return { point, mode: v as JevMode, why: `jev.${key} in the ${where} config` };
      warnings.push(`jev.${key} in the ${where} config is '${String(v)}', not off, shadow or act; ignored`);
    }
    return { point, mode: "shadow" as JevMode, why: "unset: shadow" };
  });

  return {
    enabled,
    ...(reason ? { reason } : {}),
    model,
    deadlineMs: num(global.deadline_ms, 1500, 1),
    supervisorEverySteps: Math.max(1, Math.floor(num(global.supervisor_every_steps, 4, 1))),
    supervisorMaxContinuations: Math.floor(num(global.supervisor_max_continuations, 1, 0)),
    thresholds,
    ...(endpoint ? { endpoint } : {}),
    points,
    warnings,
  };
}

export function modeOf(cfg: JevConfig, point: JevPoint): JevMode {
  return cfg.points.find((p) => p.point === point)?.mode ?? "off";
}
