/**
 * Where the capabilities picker reads and writes: the `skills`, `plugins` and `mcp` services, seen structurally
 * (the pager never imports extension code). A snapshot for the model, and the toggles applied in order;
 * the first failure stops the rest and is returned as a display-safe message.
 */
import type { PluginState } from "../../extensions/plugins/api.js";
import type { SkillState } from "../../extensions/skills/api.js";
import { visibleLine } from "../terminal/sanitize.js";
import type { CapAction, CapData, CapMcp } from "./capabilities-model.js";
import { PagerServiceMissing } from "./errors.js";

/** The toggling part of `SkillsService`. */
export interface SkillsToggles {
  all(): SkillState[];
  setEnabled(idOrName: string, on: boolean): unknown;
  setEverythingOff(off: boolean): void;
  everythingOff?(): boolean;
}

/** The part of `PluginsService` the picker uses. */
export interface PluginsLike {
  list(project: string): PluginState[];
  setEnabled(project: string, name: string, enabled: boolean): unknown;
  setTrusted(project: string, name: string, trusted: boolean): unknown;
}

/** The part of `McpService` the picker uses. */
export interface McpLike {
  servers(): CapMcp[];
  setEnabled(name: string, on: boolean): void;
  setTrusted(name: string, on: boolean): void;
}

export interface CapSources {
  skills?: SkillsToggles;
  plugins?: PluginsLike;
  mcp?: McpLike;
  project: string;
}

const message = (e: unknown): string => visibleLine(e instanceof Error ? e.message : String(e));

/** The services' state now; a service that fails to read shows as empty (with the reason in `error`). */
export function readCapabilities(src: CapSources): { data: CapData; error?: string } {
  let error: string | undefined;
  let skills: SkillState[] = [];
  let plugins: PluginState[] = [];
  try {
    skills = src.skills?.all() ?? [];
  } catch (e) {
    error = `skills: ${message(e)}`;
  }
  try {
    plugins = src.plugins?.list(src.project) ?? [];
  } catch (e) {
    error = `plugins: ${message(e)}`;
  }
  let mcp: CapMcp[] | undefined;
  try {
    mcp = src.mcp?.servers();
  } catch (e) {
    error = `mcp: ${message(e)}`;
  }
  const everythingOff = src.skills?.everythingOff ? src.skills.everythingOff() : skills.some((x) => x.reason === "everything off");
  return { data: { skills, plugins, ...(mcp ? { mcp } : {}), everythingOff }, ...(error ? { error } : {}) };
}

/** Apply the toggles; undefined when all went through, else what failed. */
export function applyCapabilities(src: CapSources, actions: readonly CapAction[]): string | undefined {
  try {
    for (const a of actions) {
      if (a.kind === "everything") need(src.skills, "skills").setEverythingOff(a.off);
      else if (a.kind === "skills") for (const id of a.ids) need(src.skills, "skills").setEnabled(id, a.on);
      else if (a.kind === "plugins") for (const n of a.names) need(src.plugins, "plugins").setEnabled(src.project, n, a.on);
      else if (a.kind === "mcp") need(src.mcp, "mcp").setEnabled(a.name, a.on);
      else if (a.kind === "mcp-trust") need(src.mcp, "mcp").setTrusted(a.name, a.on);
      else need(src.plugins, "plugins").setTrusted(src.project, a.name, a.on);
    }
  } catch (e) {
    return message(e);
  }
  return undefined;
}

function need<T>(service: T | undefined, name: string): T {
  if (!service) throw PagerServiceMissing({ name });
  return service;
}
