/**
 * Where rules come from, in precedence order (last match wins):
 *   base "* * allow" < Claude allow < Claude ask < `permission` (global < project .jsonc < project .json
 *   < managed < requirements pins) < shell.allow < shell.deny < Claude deny < rules saved this session.
 * Lists concatenate across config layers (each rule remembers its file). Claude deny is last so a
 * deny in any .claude/settings*.json beats an allow anywhere. The checkout's .claude files (tier repo)
 * are tighten-only until the project is trusted: their allow entries are held.
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

export type ClaudeTier = "user" | "repo";

/** Claude Code settings files, lowest first: ~/.claude/settings.json (user), then the checkout's two (repo). */
export function claudeSettingsFiles(project: string, home: string): Array<{ file: string; tier: ClaudeTier }> {
  const user = path.join(home, ".claude", "settings.json");
  const repo = [path.join(project, ".claude", "settings.json"), path.join(project, ".claude", "settings.local.json")];
  // a project that is the home directory: its .claude/settings.json is the user's own file
  return [{ file: user, tier: "user" as const }, ...repo.filter((f) => f !== user).map((file) => ({ file, tier: "repo" as const }))];
}

/** Loosest to strictest: an untrusted checkout may only move the mode to the right. */
const MODE_ORDER = ["bypassPermissions", "acceptEdits", "default", "dontAsk", "plan"];
function stricter(a: string, than: string): boolean {
  return MODE_ORDER.indexOf(a) > MODE_ORDER.indexOf(than);
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

/**
 * `repoTrusted`: the trust service's answer for this project. Until it is true the checkout's .claude
 * files contribute only their ask and deny entries (and a stricter defaultMode, see claudeDefaultMode);
 * what they held back is reported as one warning per file.
 */
export function gatherRules(config: ResolvedConfig, project: string, home: string, repoTrusted = false): RuleSet {
  const warnings: string[] = [];
  const claudeAllow: Rule[] = [];
  const claudeAsk: Rule[] = [];
  const claudeDeny: Rule[] = [];
  const mode = claudeDefaultMode(project, home, repoTrusted, config.get("permission_mode"));
  for (const { file, tier } of claudeSettingsFiles(project, home)) {
    const p = readClaude(file, warnings);
    if (!p) continue;
    const held: string[] = [];
    for (const [action, out] of [["allow", claudeAllow], ["ask", claudeAsk], ["deny", claudeDeny]] as const) {
      const list = p[action];
      if (list === undefined) continue;
      if (!Array.isArray(list)) {
        warnings.push(`${file}: permissions.${action} must be a list; skipped`);
        continue;
      }
      if (action === "allow" && tier === "repo" && !repoTrusted) {
        if (list.length) held.push(`${list.length} permissions.allow rule${list.length === 1 ? "" : "s"}`);
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
    if (mode.held.includes(file)) held.push(`permissions.defaultMode ${JSON.stringify(p.defaultMode)} (not stricter than ${mode.fallback})`);
    // worded as the kernel's held-config line, so both read alike
    if (held.length) warnings.push(`${file}: held until you trust this project (oceancode trust repo on): ${held.join(", ")}; its ask and deny rules apply`);
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

/**
 * Claude Code's permissions.defaultMode, used when oceancode's permission_mode is unset (the last file
 * that sets one wins). From an untrusted checkout a file's mode applies only when stricter than what
 * would apply without the checkout (`fallback`: the user file's, else default); the strictest such one
 * wins and the others are held.
 */
export function claudeDefaultMode(
  project: string,
  home: string,
  repoTrusted = false,
  permissionMode?: unknown,
): { mode?: string; held: string[]; fallback: string } {
  let userMode: string | undefined;
  const repo: Array<{ file: string; mode: string }> = [];
  for (const { file, tier } of claudeSettingsFiles(project, home)) {
    const p = readClaude(file, []);
    if (!p || typeof p.defaultMode !== "string") continue;
    if (tier === "user") userMode = p.defaultMode;
    else repo.push({ file, mode: p.defaultMode });
  }
  const fallback = userMode ?? "default";
  // permission_mode wins over every Claude file, trusted or not
  if (typeof permissionMode === "string") return { held: [], fallback };
  if (repoTrusted || !repo.length) return { mode: repo.at(-1)?.mode ?? userMode, held: [], fallback };
  const tighter = repo.filter((r) => stricter(r.mode, fallback));
  const strictest = tighter.sort((a, b) => MODE_ORDER.indexOf(a.mode) - MODE_ORDER.indexOf(b.mode)).at(-1);
  return { mode: strictest?.mode ?? userMode, held: repo.filter((r) => !tighter.includes(r)).map((r) => r.file), fallback };
}
