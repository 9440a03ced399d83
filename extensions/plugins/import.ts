/**
 * `plugin import --from claude-code [--dry-run] [--trust] [--no-repo-trust]`: Claude Code's plugins
 * (the versions installed for the user scope or this project, copied from its cache), its marketplaces
 * and its trust record for this project. One line per action (IMPORT, SKIP, MISSING, MARKETPLACE,
 * TRUST), then IMPORT_OK (IMPORT_DRY_RUN_OK). One failing entry never stops the run. Reads ~/.claude
 * and ~/.claude.json, writes only oceancode's stores (and with --dry-run nothing at all).
 */
import fs from "node:fs";
import path from "node:path";
import type { TrustService } from "../trust/api.js";
import { isValidName } from "./kit/shared.js";
import { claudeDir, claudeInstalls, claudeMarketplaces, claudeProjectTrust, type ClaudeInstall } from "./claude.js";
import { isDir, reallyWithin, show, within } from "./files.js";
import { copyInstall } from "./install.js";
import { checkManifest, isPlugin } from "./manifest-check.js";
import { marketplaceFile } from "./marketplace.js";
import type { PluginStore } from "./store.js";

export interface ImportOptions {
  project: string;
  dryRun: boolean;
  trust: boolean;
  repoTrust: boolean;
  out: (line: string) => void;
  warn: (msg: string) => void;
}

const why = (e: unknown) => show((e as Error).message.split("\n").map((l) => l.trim()).join(" "));

/** Print a line that reports a plugin not imported. */
function say(o: ImportOptions, line: string): false {
  o.out(line);
  return false;
}

function importPlugin(store: PluginStore, c: ClaudeInstall, o: ImportOptions): boolean {
  const pluginsDir = path.join(claudeDir(store.home), "plugins");
  const label = isValidName(c.name) ? c.name : show(c.key);
  if (!isValidName(c.name) || !isValidName(c.marketplace)) return say(o, `SKIP ${label} install failed: '${show(c.key)}' is not a valid plugin@marketplace name`);
  if (!within(pluginsDir, c.installPath)) return say(o, `SKIP ${label} install failed: ${show(c.installPath)} is outside ~/.claude/plugins`);
  if (!isDir(c.installPath)) return say(o, `MISSING ${label} ${show(c.installPath)} is not in Claude Code's cache`);
  if (!reallyWithin(pluginsDir, c.installPath)) return say(o, `SKIP ${label} install failed: ${show(c.installPath)} leads outside ~/.claude/plugins`);
  if (!isPlugin(c.installPath)) return say(o, `SKIP ${label} not a plugin`);
  const check = checkManifest(c.installPath);
  const version = check.manifest?.version ?? c.version ?? path.basename(c.installPath);
  const state = `${c.enabled ? "enabled" : "disabled"} ${o.trust ? "trusted" : "untrusted"}`;
  const prev = store.find(c.name);
  if (prev && prev.marketplace === c.marketplace && prev.version === version) return say(o, `SKIP ${label} already installed (${show(version)})`);
  if (o.dryRun) {
    if (check.problems.length) return say(o, `SKIP ${label} install failed: the plugin's manifest is invalid: ${check.problems.join(" ")}`);
    o.out(`IMPORT ${label}@${c.marketplace} ${show(version)} ${state}`);
    return true;
  }
  try {
    const rec = copyInstall(store, { name: c.name, marketplace: c.marketplace, srcDir: c.installPath, version: c.version ?? path.basename(c.installPath), enabled: c.enabled, trusted: o.trust, source_path: c.installPath, imported_from: "claude-code" }, o.warn);
    o.out(`IMPORT ${label}@${c.marketplace} ${show(rec.version)} ${state}`);
    return true;
  } catch (e) {
    o.out(`SKIP ${label} install failed: ${why(e)}`);
    return false;
  }
}

function importMarketplaces(store: PluginStore, o: ImportOptions): number {
  const known = store.readMarkets();
  const add: typeof known = {};
  for (const m of claudeMarketplaces(store.home)) {
    if (!isValidName(m.name)) {
      o.out(`SKIP ${show(m.name)} install failed: not a valid marketplace name`);
      continue;
    }
    if (known[m.name]) {
      o.out(`MARKETPLACE ${m.name} already registered`);
      continue;
    }
    const dir = m.installLocation ? path.resolve(m.installLocation) : undefined;
    if (!dir || !fs.existsSync(marketplaceFile(dir))) {
      o.out(`MISSING ${m.name} marketplace: ${show(dir ?? "(no installLocation)")} has no .claude-plugin/marketplace.json`);
      continue;
    }
    add[m.name] = { type: "directory", source: m.origin || dir, path: dir, added_at: new Date().toISOString(), imported_from: "claude-code" };
    o.out(`MARKETPLACE ${m.name} ${show(m.origin || dir)}`);
  }
  const n = Object.keys(add).length;
  if (n && !o.dryRun) {
    store.locked(({ markets }) => {
      for (const [k, v] of Object.entries(add)) markets[k] ??= v;
      store.writeMarkets(markets);
    });
  }
  return n;
}

/** Seed this project's trust from ~/.claude.json; returns the repo bit after (or, dry, as it would be). */
function seedTrust(trust: TrustService | undefined, o: ImportOptions, home: string): { repo: boolean; failed: boolean } {
  const ct = claudeProjectTrust(home, o.project);
  if (!trust) {
    o.out("TRUST skipped: the trust extension is disabled");
    return { repo: false, failed: false };
  }
  const setRepo = ct.trustAccepted && o.repoTrust;
  if (setRepo) o.out("TRUST repo=true (hasTrustDialogAccepted)");
  else if (ct.trustAccepted) o.out("TRUST repo unchanged (--no-repo-trust)");
  for (const s of ct.disabled) o.out(`TRUST mcp ${show(s)} held disabled`);
  for (const s of ct.enabledMcpjson) o.out(`TRUST mcp ${show(s)} trusted`);
  const apply = (t: ReturnType<TrustService["get"]>) => {
    if (setRepo) t.repo = true;
    for (const s of ct.disabled) if (!t.disabled_mcp.includes(s)) t.disabled_mcp.push(s);
    for (const s of ct.enabledMcpjson) t.mcp[s] = true;
  };
  if (o.dryRun) {
    const t = trust.get(o.project);
    apply(t);
    return { repo: t.repo, failed: false };
  }
  if (!setRepo && ct.disabled.length === 0 && ct.enabledMcpjson.length === 0) return { repo: trust.get(o.project).repo, failed: false };
  try {
    return { repo: trust.update(o.project, apply).repo, failed: false };
  } catch (e) {
    o.out(`TRUST failed: ${why(e)}`);
    return { repo: trust.get(o.project).repo, failed: true };
  }
}

/** Run the import; the exit code is 0 unless the trust file could not be written. */
export function importFromClaude(store: PluginStore, trust: TrustService | undefined, o: ImportOptions): number {
  // both stores must parse before anything happens (a corrupt one is refused, never overwritten)
  store.readInstalled();
  store.readMarkets();
  let plugins = 0;
  for (const c of claudeInstalls(store.home, o.project)) if (importPlugin(store, c, o)) plugins++;
  const markets = importMarketplaces(store, o);
  const t = seedTrust(trust, o, store.home);
  o.out(`${o.dryRun ? "IMPORT_DRY_RUN_OK" : "IMPORT_OK"} plugins=${plugins} marketplaces=${markets} repo_trust=${t.repo}`);
  return t.failed ? 1 : 0;
}
