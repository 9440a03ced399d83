/**
 * `oceancode plugin …`: marketplaces, install / list / enable / disable / trust / validate / update /
 * uninstall, and import from Claude Code. Every subcommand takes --root <dir> (the project; default: the
 * current one). Output lines are plain; anything read from disk goes through `show` first.
 */
import path from "node:path";
import type { CommandIO } from "../../kernel/api.js";
import type { TrustService } from "../trust/api.js";
import { type PluginState } from "./api.js";
import { isPluginError, isValidName } from "./kit/shared.js";
import { parseArgs, type ParsedArgs } from "./args.js";
import { isDir, show } from "./files.js";
import { importFromClaude } from "./import.js";
import { install, isPathSpec, uninstall, update } from "./install.js";
import { checkManifest, isPlugin, manifestFile } from "./manifest-check.js";
import { addMarketplace, removeMarketplace, updateMarketplace } from "./marketplace.js";
import { PluginsServiceImpl } from "./service.js";
import { PluginStore } from "./store.js";
import { Usage } from "../../kernel/api.js";

export const PLUGIN_USAGE = [
  "usage: oceancode plugin <subcommand> [--root <dir>]",
  "  marketplace add <spec> | marketplace list | marketplace update <name> | marketplace remove <name>",
  "  install <name[@marketplace]|path> [--trust] [--marketplace <m>]",
  "  list [--json] | enable <name> | disable <name> | enable-all | disable-all",
  "  trust <name> [--off] | validate <name|path> | update <name> | uninstall <name>",
  "  import --from claude-code [--dry-run] [--trust] [--no-repo-trust]",
].join("\n");

interface Ctx {
  io: CommandIO;
  store: PluginStore;
  service: PluginsServiceImpl;
  trust: TrustService | undefined;
  project: string;
  args: ParsedArgs;
  out: (line: string) => void;
  warn: (msg: string) => void;
}

function need(ctx: Ctx, n: number, what: string): string[] {
  const rest = ctx.args.positional.slice(1);
  if (rest.length !== n) throw Usage({ message: rest.length < n ? `missing ${what}` : `unexpected arguments: ${rest.slice(n).join(" ")}` });
  return rest;
}

function stateLine(p: PluginState): string {
  return [p.name, p.version, p.enabled ? "enabled" : "disabled", p.trusted ? "trusted" : "untrusted", p.source, p.marketplace ?? "-"].map(show).join("  ");
}

function marketplaceCmd(ctx: Ctx): number {
  const [, verb, ...rest] = ctx.args.positional;
  const one = () => {
    if (rest.length !== 1) throw Usage({ message: rest.length ? `unexpected arguments: ${rest.slice(1).join(" ")}` : `marketplace ${verb} needs a name` });
    return rest[0]!;
  };
  if (verb === "add") {
    const r = addMarketplace(ctx.store, one(), process.cwd());
    ctx.out(`added marketplace ${r.name} (${r.market.type}, ${r.plugins} plugins) ${show(r.market.path)}`);
  } else if (verb === "list") {
    if (rest.length) throw Usage({ message: `unexpected arguments: ${rest.join(" ")}` });
    const markets = ctx.store.readMarkets();
    if (ctx.args.switches.has("--json")) ctx.out(JSON.stringify(Object.entries(markets).map(([name, m]) => ({ name, ...m })), null, 2));
    else if (!Object.keys(markets).length) ctx.out("no marketplaces registered (oceancode plugin marketplace add <spec>)");
    else for (const name of Object.keys(markets).sort()) ctx.out([name, markets[name]!.type, markets[name]!.source].map(show).join("  "));
  } else if (verb === "update") {
    const r = updateMarketplace(ctx.store, one());
    ctx.out(`updated marketplace ${rest[0]} (${r.plugins} plugins)`);
  } else if (verb === "remove") {
    removeMarketplace(ctx.store, one());
    ctx.out(`removed marketplace ${rest[0]} (plugins installed from it stay installed)`);
  } else throw Usage({ message: verb === undefined ? "marketplace needs add, list, update or remove" : `unknown marketplace subcommand '${show(verb)}'` });
  return 0;
}

/** `validate <name|path>`: the manifest against extensions/plugins/plugin.schema.json. */
function validateCmd(ctx: Ctx): number {
  const [spec] = need(ctx, 1, "a plugin name or path");
  const installed = !isPathSpec(spec!) ? ctx.service.list(ctx.project).find((p) => p.name === spec) : undefined;
  const dir = installed?.path ?? path.resolve(process.cwd(), spec!);
  if (!isDir(dir)) throw Usage({ message: `${show(spec!)}: no installed plugin and no such directory` });
  if (!isPlugin(dir)) {
    ctx.io.stderr.write(`${show(dir)}: not a plugin: no ${show(manifestFile(dir))} and no skills/, commands/, agents/ or hooks/hooks.json\n`);
    return 1;
  }
  const { problems, manifest } = checkManifest(dir);
  for (const p of problems) ctx.io.stderr.write(`${p}\n`);
  if (problems.length) return 1;
  ctx.out(`VALID ${show(manifest?.name ?? path.basename(dir))} ${show(manifest ? manifestFile(dir) : dir)}`);
  return 0;
}

function run(ctx: Ctx): number {
  const [verb] = ctx.args.positional;
  const sw = ctx.args.switches;
  switch (verb) {
    case "marketplace":
      return marketplaceCmd(ctx);
    case "install": {
      const [spec] = need(ctx, 1, "a plugin name or path");
      const rec = install(ctx.store, spec!, { trust: sw.has("--trust"), marketplace: ctx.args.values["--marketplace"], cwd: process.cwd() }, ctx.warn);
      ctx.out(`installed ${rec.name}@${rec.marketplace} ${show(rec.version)} enabled ${rec.trusted ? "trusted" : "untrusted"} ${show(rec.path)}`);
      if (!rec.trusted) ctx.warn(`${rec.name} is not trusted: its hooks and MCP servers stay dormant until oceancode plugin trust ${rec.name}`);
      return 0;
    }
    case "list": {
      need(ctx, 0, "");
      const all = ctx.service.list(ctx.project);
      if (sw.has("--json")) ctx.out(JSON.stringify(all, null, 2));
      else if (!all.length) ctx.out("no plugins installed");
      else for (const p of all) ctx.out(stateLine(p));
      return 0;
    }
    case "enable":
    case "disable": {
      const [name] = need(ctx, 1, "a plugin name");
      const p = ctx.service.setEnabled(ctx.project, name!, verb === "enable");
      ctx.out(`${show(p.name)} ${p.enabled ? "enabled" : "disabled"}${p.source === "claude-code" ? " (Claude Code plugin; recorded in oceancode's store)" : ""}`);
      return 0;
    }
    case "enable-all":
    case "disable-all": {
      need(ctx, 0, "");
      const on = verb === "enable-all";
      const all = ctx.service.list(ctx.project);
      for (const p of all) if (p.enabled !== on) ctx.service.setEnabled(ctx.project, p.name, on);
      for (const p of ctx.service.list(ctx.project)) ctx.out(stateLine(p));
      ctx.out(`${all.length} plugins ${on ? "enabled" : "disabled"}`);
      return 0;
    }
    case "trust": {
      const [name] = need(ctx, 1, "a plugin name");
      const p = ctx.service.setTrusted(ctx.project, name!, !sw.has("--off"));
      ctx.out(`${p.name} ${p.trusted ? "trusted: its hooks and MCP servers may run" : "untrusted: its hooks and MCP servers stay dormant"}`);
      return 0;
    }
    case "validate":
      return validateCmd(ctx);
    case "update": {
      const [name] = need(ctx, 1, "a plugin name");
      const { before, after } = update(ctx.store, name!, ctx.warn);
      ctx.out(`updated ${after.name} ${show(before.version)} -> ${show(after.version)}`);
      return 0;
    }
    case "uninstall": {
      const [name] = need(ctx, 1, "a plugin name");
      if (!isValidName(name)) throw Usage({ message: `'${show(name!)}' is not a valid plugin name` });
      const claudeOnly = !ctx.store.find(name) && ctx.service.list(ctx.project).some((p) => p.name === name && p.source === "claude-code");
      if (claudeOnly) throw Usage({ message: `${name} was installed by Claude Code (nothing under ~/.claude is changed): oceancode plugin disable ${name} turns it off here` });
      const rec = uninstall(ctx.store, name);
      ctx.out(`uninstalled ${rec.name} ${show(rec.version)}`);
      return 0;
    }
    case "import": {
      need(ctx, 0, "");
      const from = ctx.args.values["--from"];
      if (from !== "claude-code") throw Usage({ message: from === undefined ? "import needs --from claude-code" : `cannot import from '${show(from)}' (only claude-code)` });
      return importFromClaude(ctx.store, ctx.trust, { project: ctx.project, dryRun: sw.has("--dry-run"), trust: sw.has("--trust"), repoTrust: !sw.has("--no-repo-trust"), out: ctx.out, warn: ctx.warn });
    }
    default:
      throw Usage({ message: verb === undefined ? "missing subcommand" : `unknown subcommand '${show(verb)}'` });
  }
}

export async function pluginCommand(argv: string[], io: CommandIO, trust: TrustService | undefined): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    io.stdout.write(`${PLUGIN_USAGE}\n`);
    return 0;
  }
  const args = parseArgs(argv);
  if ("error" in args) {
    io.stderr.write(`oceancode plugin: ${show(args.error)}\n${PLUGIN_USAGE}\n`);
    return 2;
  }
  const root = args.values["--root"];
  const project = root !== undefined ? path.resolve(root) : io.project;
  if (!isDir(project)) {
    io.stderr.write(`oceancode plugin: --root ${show(project)}: no such directory\n`);
    return 2;
  }
  const store = new PluginStore(io.home);
  const ctx: Ctx = {
    io,
    store,
    service: new PluginsServiceImpl(store),
    trust,
    project,
    args,
    out: (line) => io.stdout.write(`${line}\n`),
    warn: (msg) => io.stderr.write(`oceancode plugin: warning: ${msg}\n`),
  };
  try {
    return run(ctx);
  } catch (e) {
    if (Usage.is(e)) {
      io.stderr.write(`oceancode plugin: ${e.message}\n${PLUGIN_USAGE}\n`);
      return 2;
    }
    if (isPluginError(e)) {
      io.stderr.write(`oceancode plugin: ${(e as Error).message}\n`);
      return 1;
    }
    throw e;
  }
}

