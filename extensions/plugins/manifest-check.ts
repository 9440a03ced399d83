/**
 * What a plugin directory is, and its manifest checked: .claude-plugin/plugin.json against
 * extensions/plugins/plugin.schema.json (ajv). A problem names the file, the line, the JSON path and what was
 * expected. A directory without a manifest is still a plugin when it has skills/, commands/, agents/
 * or hooks/hooks.json (Claude Code's LSP cache entries have none of these: not a plugin).
 */
import fs from "node:fs";
import path from "node:path";
import { compileSchema, formatProblem, validate } from "../../kernel/api.js";
import { parseJsonc } from "../../kernel/api.js";
import { isDir, show } from "./files.js";
import { PluginSchemaMissing } from "./errors.js";

export const MANIFEST = path.join(".claude-plugin", "plugin.json");

export function manifestFile(dir: string): string {
  return path.join(dir, MANIFEST);
}

/** Does `dir` hold a plugin (a manifest, or at least one component folder)? */
export function isPlugin(dir: string): boolean {
  if (fs.existsSync(manifestFile(dir))) return true;
  return ["skills", "commands", "agents"].some((d) => isDir(path.join(dir, d))) || fs.existsSync(path.join(dir, "hooks", "hooks.json"));
}

let schema: object | undefined;
function pluginSchema(): object {
  if (schema) return schema;
  const candidates = ["../../../extensions/plugins/plugin.schema.json", "./plugin.schema.json"].map((r) => new URL(r, import.meta.url));
  const url = candidates.find((u) => fs.existsSync(u));
  if (!url) throw PluginSchemaMissing();
  schema = JSON.parse(fs.readFileSync(url, "utf8")) as object;
  return schema;
}

export interface ManifestCheck {
  /** the manifest's fields, when it parsed */
  manifest?: { name?: string; version?: string; description?: string };
  /** one line each: `<file>:<line>: <json path>: <what was expected>` */
  problems: string[];
}

/** Check a plugin directory's manifest (none is fine: the plugin is named after its entry or folder). */
export function checkManifest(dir: string): ManifestCheck {
  const file = manifestFile(dir);
  if (!fs.existsSync(file)) return { problems: [] };
  let doc;
  try {
    doc = parseJsonc(fs.readFileSync(file, "utf8"));
  } catch (e) {
    return { problems: [`${show(file)}: not valid JSON: ${show((e as Error).message)}`] };
  }
  const v = compileSchema("plugin.schema.json", pluginSchema());
  const problems = validate(v, doc.value, { doc }).map((p) => show(formatProblem(file, p)));
  const m = doc.value && typeof doc.value === "object" && !Array.isArray(doc.value) ? (doc.value as Record<string, unknown>) : {};
  return {
    manifest: {
      ...(typeof m.name === "string" ? { name: m.name } : {}),
      ...(typeof m.version === "string" ? { version: m.version } : {}),
      ...(typeof m.description === "string" ? { description: m.description } : {}),
    },
    problems,
  };
}
