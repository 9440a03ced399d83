/**
 * Where rules come from, in precedence order (last match wins):
 *   base "* * allow" < Claude allow < Claude ask < `permission` (global < project .jsonc < project .json
 *   < managed < requirements pins) < shell.allow < shell.deny < Claude deny < rules saved this session.
 * Lists concatenate across config layers (each rule remembers its file). Claude deny is last so a
 * deny in any .claude/settings*.json beats an allow anywhere.
 */
import fs from "node:fs";
import path from "node:path";
import type { ExtensionContext } from "../../kernel/api.js";
type ResolvedConfig = ExtensionContext["config"];
import { parseRule, parseToolPattern, BASE_RULE, type Rule, type Layer } from "./rules.js";

export interface RuleSet {
  rules: Rule[];
  warnings: string[];
}

export function claudeSettingsFiles(project: string, home: string): string[] {
  return [path.join(home, ".claude", "settings.json"), path.join(project, ".claude", "settings.json"), path.join(project, ".claude", "settings.local.json")];
}

interface ClaudePermissions {
  allow?: unknown;
  ask?: unknown;
  deny?: unknown;
  defaultMode?: unknown;
}

function readClaude(file: string, warnings: string[]): ClaudePermissions | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  try {
    const v = JSON.parse(text) as { permissions?: ClaudePermissions };
    return v && typeof v === "object" && v.permissions && typeof v.permissions === "object" ? v.permissions : undefined;
  } catch (e) {
    warnings.push(`${file}: broken JSON (${(e as Error).message}); its permissions are skipped`);
    return undefined;
  }
}

export function gatherRules(config: ResolvedConfig, project: string, home: string): RuleSet {
  const warnings: string[] = [];
  const claudeAllow: Rule[] = [];
  const claudeAsk: Rule[] = [];
  const claudeDeny: Rule[] = [];
  for (const file of claudeSettingsFiles(project, home)) {
    const p = readClaude(file, warnings);
    if (!p) continue;
    for (const [action, out] of [["allow", claudeAllow], ["ask", claudeAsk], ["deny", claudeDeny]] as const) {
      const list = p[action];
      if (list === undefined) continue;
      if (!Array.isArray(list)) {
        warnings.push(`${file}: permissions.${action} must be a list; skipped`);
        continue;
      }
      for (const entry of list) {
        const tp = typeof entry === "string" ? parseToolPattern(entry, home) : "not a string";
        if (typeof tp === "string") {
          warnings.push(`${file}: permission rule ${JSON.stringify(entry)} in permissions.${action} is malformed (${tp}); skipped`);
          continue;
        }
        out.push({ ...tp, action, text: `${String(entry)} (${action})`, layer: "claude", file });
      }
    }
  }

  const own: Rule[] = [];
  const shellAllow: Rule[] = [];
  const shellDeny: Rule[] = [];
  for (const layer of config.layers) {
    if (layer.name === "default") continue;
    const where = { layer: layer.name as Layer, file: layer.file };
    const list = layer.value.permission;
    if (Array.isArray(list)) {
      for (const entry of list) {
        const r = parseRule(entry, where, home);
        if (typeof r === "string") warnings.push(`${layer.file ?? layer.name}: permission rule ${JSON.stringify(entry)} is malformed (${r}); skipped`);
        else own.push(r);
      }
    }
    const shell = layer.value.shell as { allow?: unknown; deny?: unknown } | undefined;
    for (const [action, out] of [["allow", shellAllow], ["deny", shellDeny]] as const) {
      const l = shell?.[action];
      if (!Array.isArray(l)) continue;
      for (const entry of l) {
        const tp = typeof entry === "string" ? parseToolPattern(entry, home) : "not a string";
        if (typeof tp === "string") {
          warnings.push(`${layer.file ?? layer.name}: shell.${action} rule ${JSON.stringify(entry)} is malformed (${tp}); skipped`);
          continue;
        }
        out.push({ ...tp, action, text: `${String(entry)} (shell.${action})`, layer: layer.name as Layer, file: layer.file });
      }
    }
  }
  return { rules: [BASE_RULE, ...claudeAllow, ...claudeAsk, ...own, ...shellAllow, ...shellDeny, ...claudeDeny], warnings };
}

/** Claude Code's permissions.defaultMode, used when oceancode's permission_mode is unset. */
export function claudeDefaultMode(project: string, home: string): string | undefined {
  let mode: string | undefined;
  for (const file of claudeSettingsFiles(project, home)) {
    const p = readClaude(file, []);
    if (p && typeof p.defaultMode === "string") mode = p.defaultMode;
  }
  return mode;
}
