/**
 * The discover-time pass: walk + manifests + config + requirements + enable/disable/replace + graph
 * checks. Produces the extension records, the add-only registries and the resolved config. Runs no
 * extension code.
 */
import path from "node:path";
import fs from "node:fs";
import type { AwilixContainer } from "awilix";
import { OcError, ErrorCodes, errorMessage } from "./errors.js";
import { qualify, type DiscoveryWalk, type Root } from "./walk.js";
import { readManifest, extensionFolders, bundledFromIndex, type Manifest, type ManifestEntry } from "./manifest.js";
import { configFiles, readLayers, loadConfig, hostLayer, type ResolvedConfig, type HostSetting, type SectionSchema } from "./config.js";
import { loadRequirements, checkSections, type RequirementsState, type RequirementsSection } from "./requirements.js";
import { registerPoints, checkContributions, type Point } from "./points.js";
import { declaredEcosystems } from "./ecosystems.js";
import { repoTrustedOnDisk } from "./trust-file.js";
import { projectOwnership, type Ownership } from "./ownership.js";
import { KERNEL_VERSION } from "./version.js";
import { extensionControl, checkedPins, satisfies, KERNEL_CONFIG_SCHEMA } from "./control.js";
import type { Paths } from "./paths.js";
import { sayOncePerFile } from "./said-once.js";
import type { Extension, ExtensionInfo, Logger } from "./api.js";

export interface KernelOptions {
  paths: Paths;
  env?: NodeJS.ProcessEnv;
  /** bundled root: manifests under `dir`/extensions, compiled code under `codeDir`/extensions. Omit for a bare kernel. */
  bundled?: { dir: string; codeDir: string };
  log?: Logger;
  /** diagnostic hosts (doctor, inspect): broken config files and sections become warnings, so they always run */
  tolerant?: boolean;
  /** the host's command-line settings (--model, --db, --directory, ...): the host config layer, over every file */
  hostSettings?: HostSetting[];
}

/** The kernel's record of one extension: what introspection shows (ExtensionInfo) plus its root and runtime. */
export interface ExtRecord extends Pick<ExtensionInfo, "id" | "qualifiedId" | "dir" | "manifest" | "state" | "reason" | "loadMs"> {
  root: Root;
  codeDir: string;
  /** its manifest came from the build-time index (contributions to bundled points checked at build) */
  prevalidated?: boolean;
  /** held roots wait for the trust gate */
  heldFor?: "untrusted" | "disabled plugin";
  activating?: Promise<void>;
  module?: Extension;
  scope?: AwilixContainer;
}

/** The add-only registries: who provides each service, who contributes each command and slash name. */
export interface Owners {
  service: Map<string, ExtRecord>;
  command: Map<string, ExtRecord>;
  slash: Map<string, ExtRecord>;
}

/** What discovery hands the kernel. */
export interface Discovery {
  records: ExtRecord[];
  /** the winning record of each id */
  byId: Map<string, ExtRecord>;
  owners: Owners;
  points: Map<string, Point>;
  config: ResolvedConfig;
  requirements: RequirementsState;
  files: ReturnType<typeof configFiles>;
}

/**
 * Discover everything from manifests and config files. Warnings go to `warnings` as they arise; the
 * walk gains the roots of other ecosystems that enabled extensions declare.
 */
export async function discover(opts: KernelOptions, env: NodeJS.ProcessEnv, walk: DiscoveryWalk, warnings: string[]): Promise<Discovery> {
  const paths = opts.paths;
  const records: ExtRecord[] = [];
  const byId = new Map<string, ExtRecord>();
  const owners: Owners = { service: new Map(), command: new Map(), slash: new Map() };
  /** requirements sections: who owns each (contributes.requirements) */
  const requirementSections: RequirementsSection[] = [];
  const files = configFiles(paths, env);
  // a repo-tier .oceancode/ (tracked by the checkout): its committed config files are tighten-only until trusted
  const repoRoot = walk.roots().find((r) => r.tier === "repo" && r.ecosystem === "oceancode");
  const repoTrusted = repoTrustedOnDisk(paths.userOcDir, paths.project);
  /** Is this root's code trusted, as far as the files on disk say? (the trust hook may still hold it at start) */
  const rootTrusted = (root: Root): boolean => {
    if (root.trustedByDefault) return true;
    if (root.tier === "repo") return repoTrusted;
    return root.plugin?.enabled === true && root.plugin.trusted === true;
  };
  // a project config file is tighten-only until trusted unless it is shown to be the user's own
  const projectOwn = repoTrusted ? new Map<string, Ownership>() : projectOwnership(paths.project, files.project);
  const rawLayers = readLayers(
    files,
    (file) => projectOwn.get(path.resolve(file))?.tier === "repo",
    opts.tolerant ? (e) => warnings.push(`${e.code}: ${e.message} (file ignored)`) : undefined,
  );
  const managedDir = path.dirname(files.managed);
  let requirements: RequirementsState = loadRequirements(path.join(managedDir, "requirements.json"), env.OC_REQUIREMENTS_PUBKEY);
  if (requirements.status === "refused") {
    warnings.push(`${ErrorCodes.REQUIREMENTS_REFUSED}: ${requirements.reason}; requirements not applied`);
  }
  const control = extensionControl(rawLayers.filter((l) => !l.untrusted));

  // 1. manifests; the first copy of an id wins, trusted roots before held ones (a held extension never displaces a trusted one)
  const found: Array<{ item: ManifestEntry; root: Root }> = [];
  for (const root of walk.roots()) {
    if (root.ecosystem !== "oceancode") continue;
    const entries = bundledFromIndex(root) ?? (await Promise.all(extensionFolders(root).map((f) => readManifest(f.dir, f.codeDir, f.folder))));
    for (const item of entries) found.push({ item, root });
  }
  const ordered = [...found.filter((f) => rootTrusted(f.root)), ...found.filter((f) => !rootTrusted(f.root))];
  const winner = new Map<string, Root>();
  for (const d of qualify(ordered)) {
    const e = d.item;
    const rec: ExtRecord = { id: e.name, qualifiedId: d.qualifiedName, root: d.root, dir: e.dir, codeDir: e.codeDir, manifest: e.manifest, state: "lazy", prevalidated: e.prevalidated };
    records.push(rec);
    if (d.shadowed) {
      const won = winner.get(e.name)!;
      rec.state = "shadowed";
      rec.reason = rootTrusted(d.root)
        ? `a narrower tier's '${e.name}' wins`
        : `held: untrusted; '${e.name}' is taken by the trusted ${won.tier} extension (a held extension never displaces a trusted one)`;
      continue;
    }
    winner.set(e.name, d.root);
    byId.set(rec.id, rec);
    if (e.error) {
      rec.state = control.disabled.has(e.name) ? "disabled" : "failed";
      rec.reason = control.disabled.has(e.name) ? `disabled by ${control.disabled.get(e.name)}` : errorMessage(e.error);
      if (rec.state === "failed") warnings.push(`extension '${e.name}' (${rec.root.tier}) failed: ${errorMessage(e.error)}`);
    }
  }
  // a trusted extension that stands where a bundled safety extension would: allowed, never silent
  for (const rec of records) {
    if (rec.state === "shadowed" && rec.root.tier === "bundled" && rec.manifest?.safety && byId.get(rec.id)?.root.tier !== "bundled") {
      const by = byId.get(rec.id)!;
      warnings.push(`the safety extension '${rec.id}' is replaced by the ${by.root.tier} extension in ${by.dir}`);
    }
  }

  // 2. enable / disable / replace / requirements / trust holds
  const req = requirements.status === "applied" ? requirements.requirements : undefined;
  const locked = new Set(req?.extensions?.locked ?? []);
  const allow = req?.extensions?.allow ? new Set(req.extensions.allow) : undefined;
  for (const rec of byId.values()) {
    const m = rec.manifest!;
    if (rec.state !== "lazy") continue;
    if (!satisfies(KERNEL_VERSION, m.kernel)) {
      rec.state = "disabled";
      rec.reason = `${ErrorCodes.KERNEL_RANGE}: needs kernel ${m.kernel}, this is ${KERNEL_VERSION}`;
      warnings.push(`extension '${rec.id}' (${rec.dir}) ${rec.reason}`);
      continue;
    }
    if (allow && rec.root.tier !== "bundled" && !allow.has(rec.id)) {
      rec.state = "disabled";
      rec.reason = `not in the requirements allow-list (${requirements.file})`;
      continue;
    }
    const by = control.disabled.get(rec.id);
    if (by && !locked.has(rec.id)) {
      rec.state = "disabled";
      rec.reason = `disabled by ${by}`;
      if (m.safety) warnings.push(`the safety extension '${rec.id}' is disabled by ${by}`);
      continue;
    }
    if (by && locked.has(rec.id)) warnings.push(`extension '${rec.id}' is locked on by ${requirements.file}; ignoring the disable in ${by}`);
  }
  for (const [target, replacement] of Object.entries(control.replace)) {
    const t = byId.get(target);
    const r = byId.get(replacement);
    if (!t || !r) throw new OcError(ErrorCodes.REPLACE_INVALID, `extensions.replace names '${!t ? target : replacement}', which is not installed`, { hint: "check the ids with oceancode inspect" });
    if (r.manifest?.replaces !== target) {
      throw new OcError(ErrorCodes.REPLACE_INVALID, `extension '${replacement}' cannot replace '${target}': its manifest does not declare "replaces": "${target}"`);
    }
    const missing = (t.manifest?.provides ?? []).filter((s) => !(r.manifest?.provides ?? []).includes(s));
    if (missing.length) throw new OcError(ErrorCodes.REPLACE_INVALID, `extension '${replacement}' cannot replace '${target}': it does not provide ${missing.join(", ")}`);
    if (locked.has(target)) throw new OcError(ErrorCodes.REPLACE_INVALID, `extension '${target}' is locked by ${requirements.file} and cannot be replaced`);
    t.state = "disabled";
    t.reason = `replaced by '${replacement}'`;
    if (t.manifest?.safety) warnings.push(`the safety extension '${target}' is replaced by '${replacement}' (${r.root.tier}: ${r.dir})`);
  }
  for (const rec of byId.values()) {
    const rep = rec.manifest?.replaces;
    if (rec.state === "lazy" && rep && control.replace[rep] !== rec.id) {
      rec.state = "disabled";
      rec.reason = `stands in for '${rep}'; select it with extensions.replace {"${rep}": "${rec.id}"}`;
    }
    if (rec.state === "lazy" && !rec.root.trustedByDefault) {
      rec.state = "held";
      rec.heldFor = rec.root.plugin && !rec.root.plugin.enabled ? "disabled plugin" : "untrusted";
      rec.reason = `held: ${rec.heldFor}`;
    }
  }

  // other ecosystems' roots come from enabled, trusted extensions' manifests (ecosystems.ts checks the tier)
  const declarers = [...byId.values()].filter((r) => r.state === "lazy");
  const eco = await declaredEcosystems(declarers.map((r) => ({ id: r.id, tier: r.root.tier, codeDir: r.codeDir, manifest: r.manifest })), paths, (m) => warnings.push(m));
  if (eco.roots.length || eco.plugins.length) walk.addEcosystems(eco.roots, eco.plugins);

  // 3. contribution points, services, commands, slash commands: add-only registries
  let live = [...byId.values()].filter((r) => r.state === "lazy" || r.state === "held");
  live = dropHeldCollisions(live, rootTrusted);
  let points: Map<string, Point>;
  ({ live, points } = await checkPoints(live, records, byId, rootTrusted, warnings));
  // bundled extensions register first: an extension that clashes with one without declaring "replaces" is the one that fails
  live = [...live.filter((r) => r.root.tier === "bundled"), ...live.filter((r) => r.root.tier !== "bundled")].filter((rec) => register(rec, owners, warnings));
  live = dropUnmetDependencies(live, records, byId, warnings);
  for (const reg of [owners.service, owners.command, owners.slash]) for (const [k, r] of reg) if (r.state === "failed") reg.delete(k);
  checkCycles(live, owners.service);

  // 4. config. Section schemas come from live extensions whose code is trusted (a held one could
  // otherwise mark its own keys safe for an untrusted layer); the first declaration of a section wins.
  const sections: SectionSchema[] = [];
  const known = new Set<string>(["extensions"]);
  for (const rec of records) for (const c of rec.manifest?.contributes?.config ?? []) known.add(c.section);
  for (const rec of live) {
    if (!rootTrusted(rec.root)) continue;
    for (const c of rec.manifest!.contributes?.config ?? []) {
      if (sections.some((x) => x.section === c.section)) {
        warnings.push(`extension '${rec.id}' declares config section '${c.section}', which '${sections.find((x) => x.section === c.section)!.owner}' already owns; its schema is ignored`);
        continue;
      }
      const file = path.join(rec.dir, c.schema);
      let schema: object;
      try {
        schema = JSON.parse(fs.readFileSync(file, "utf8")) as object;
      } catch (e) {
        throw new OcError(ErrorCodes.MANIFEST_INVALID, `${file}: cannot read the config schema of '${rec.id}' (${errorMessage(e)})`);
      }
      sections.push({ section: c.section, schema, owner: rec.id, removed: c.removed, aliases: c.aliases });
    }
  }
  sections.push({ section: "extensions", schema: KERNEL_CONFIG_SCHEMA, owner: "kernel" });
  for (const rec of live) {
    if (!rootTrusted(rec.root)) continue;
    for (const r of rec.manifest!.contributes?.requirements ?? []) {
      if (!requirementSections.some((x) => x.section === r.section)) requirementSections.push({ section: r.section, owner: rec.id, schemaFile: path.join(rec.dir, r.schema) });
    }
  }
  if (requirements.status === "applied") {
    const checked = checkSections(requirements.requirements, requirements.file, requirementSections);
    requirements = { ...requirements, requirements: checked.requirements };
    for (const r of checked.refused) warnings.push(`${ErrorCodes.REQUIREMENTS_REFUSED}: ${r}`);
  }
  const pins = checkedPins(req?.config, sections);
  for (const key of pins.refused) {
    warnings.push(`${ErrorCodes.REQUIREMENTS_REFUSED}: ${requirements.file}: the pin '${key}' names a config key no extension declares; that pin is invalid and not applied`);
  }
  const config = loadConfig({
    layers: rawLayers,
    sections,
    pins: pins.valid,
    pinsFile: requirements.file,
    knownSections: [...known],
    tolerant: opts.tolerant,
    env,
    host: opts.hostSettings?.length ? hostLayer(opts.hostSettings) : undefined,
  });
  warnings.push(...config.warnings, ...sayOncePerFile(paths.stateDir, config.oncePerFile));
  // one line per reason the project's own files are the repo tier: on the held line of a config file, else alone
  const surprising = (o: Ownership | undefined) => (o?.reason && o.kind !== "tracked" ? o.reason : undefined);
  const said = new Set<string>();
  for (const h of config.held) {
    const why = surprising(projectOwn.get(path.resolve(h.file)));
    if (why) said.add(why);
    warnings.push(`${h.file}: held until you trust this project (oceancode trust repo on): ${h.keys.join(", ")}${why ? ` [repo tier: ${why}]` : ""}`);
  }
  const rootWhy = repoTrusted ? undefined : surprising(repoRoot?.ownership);
  if (rootWhy && !said.has(rootWhy)) warnings.push(`${rootWhy}: the project's .oceancode/ is the repo tier (its extensions, hooks, skills and MCP servers held) until you trust this project (oceancode trust repo on)`);
  return { records, byId, owners, points, config, requirements, files };
}

/**
 * Add an extension's services, commands and slash commands to the add-only registries. A clash is a
 * coded error that fails this extension (named in a warning), never the boot: the first one keeps it.
 */
function register(rec: ExtRecord, owners: Owners, warnings: string[]): boolean {
  const mine = claims(rec.manifest!);
  const taken = mine.find((c) => owners[c.kind].has(c.name));
  if (taken) {
    const pair = `extensions '${owners[taken.kind].get(taken.name)!.id}' and '${rec.id}' both`;
    const clash =
      taken.kind === "service"
        ? new OcError(ErrorCodes.DUPLICATE_SERVICE, `${pair} provide ${taken.label}`, { hint: `disable one, or declare "replaces" and select it with extensions.replace` })
        : new OcError(ErrorCodes.DUPLICATE_COMMAND, `${pair} contribute the ${taken.label}`, { hint: "disable one of them" });
    rec.state = "failed";
    rec.reason = clash.toLine();
    warnings.push(`${clash.toLine()}; '${rec.id}' is not loaded`);
    return false;
  }
  for (const c of mine) owners[c.kind].set(c.name, rec);
  return true;
}

/**
 * Register the contribution points live extensions declare (bundled first, held ones last: a held
 * extension never takes a name from a trusted one), then check every live extension's contributions
 * against them. A failure marks only that extension failed, with a warning.
 */
async function checkPoints(
live: ExtRecord[],
records: ExtRecord[],
byId: Map<string, ExtRecord>,
rootTrusted: (root: Root) => boolean,
warnings: string[],
): Promise<{ live: ExtRecord[]; points: Map<string, Point> }> {
  const rank = (r: ExtRecord) => (r.root.tier === "bundled" ? 0 : rootTrusted(r.root) ? 1 : 2);
  const ordered = [...live].sort((a, b) => rank(a) - rank(b));
  const holders = ordered.map((r) => ({ id: r.id, dir: r.dir, manifest: r.manifest, prevalidated: r.prevalidated, rec: r }));
  const { points, failed } = registerPoints(holders);
  const declared = new Set(records.flatMap((r) => (r.manifest?.contributionPoints ?? []).map((p) => p.name)));
  for (const h of holders) {
    const err = failed.get(h) ?? (await checkContributions(h, points, declared));
    if (!err) continue;
    h.rec.state = "failed";
    h.rec.reason = err.toLine();
    warnings.push(`extension '${h.id}' (${h.rec.root.tier}) failed: ${err.toLine()}`);
  }
  for (const [name, p] of points) if (byId.get(p.owner)?.state === "failed") points.delete(name);
  return { live: live.filter((r) => r.state !== "failed"), points };
}

/** A held extension whose service, command or slash name a trusted one has loses it (and never breaks the boot). */
function dropHeldCollisions(live: ExtRecord[], rootTrusted: (root: Root) => boolean): ExtRecord[] {
  const names = (r: ExtRecord) => claims(r.manifest!).map((c) => c.label);
  const taken = new Map<string, ExtRecord>();
  for (const r of live) if (rootTrusted(r.root)) for (const n of names(r)) taken.set(n, r);
  return live.filter((r) => {
    if (rootTrusted(r.root)) return true;
    const clash = names(r).find((n) => taken.has(n));
    if (!clash) return true;
    r.state = "shadowed";
    r.reason = `held: untrusted; its ${clash} belongs to the trusted '${taken.get(clash)!.id}' (a held extension never displaces a trusted one)`;
    return false;
  });
}

/** An extension whose required service nobody live provides fails (named, with the reason); the rest boot. */
function dropUnmetDependencies(live: ExtRecord[], records: ExtRecord[], byId: Map<string, ExtRecord>, warnings: string[]): ExtRecord[] {
  for (;;) {
    const provided = new Set(live.flatMap((r) => r.manifest!.provides ?? []));
    const rec = live.find((r) => (r.manifest!.requires ?? []).some((s) => !provided.has(s)));
    if (!rec) return live;
    const s = rec.manifest!.requires!.find((x) => !provided.has(x))!;
    const off = [...byId.values()].find((r) => (r.manifest?.provides ?? []).includes(s)) ?? records.find((r) => (r.manifest?.provides ?? []).includes(s));
    const why = off
      ? `${ErrorCodes.DEPENDENCY_DISABLED}: extension '${rec.id}' requires service '${s}' from extension '${off.id}', which is ${off.state}${off.reason ? ` (${off.reason})` : ""}`
      : `${ErrorCodes.DEPENDENCY_MISSING}: extension '${rec.id}' requires service '${s}', which no installed extension provides`;
    rec.state = "failed";
    rec.reason = why;
    warnings.push(`${why}; '${rec.id}' is not loaded`);
    live = live.filter((r) => r !== rec);
  }
}

function checkCycles(live: ExtRecord[], serviceProvider: Map<string, ExtRecord>): void {
  const color = new Map<string, 0 | 1 | 2>();
  const stack: string[] = [];
  const visit = (rec: ExtRecord): void => {
    color.set(rec.id, 1);
    stack.push(rec.id);
    for (const s of [...(rec.manifest!.requires ?? []), ...(rec.manifest!.optional ?? [])]) {
      const dep = serviceProvider.get(s);
      if (!dep || dep === rec) continue;
      const c = color.get(dep.id) ?? 0;
      if (c === 1) {
        const cycle = [...stack.slice(stack.indexOf(dep.id)), dep.id];
        throw new OcError(ErrorCodes.DEPENDENCY_CYCLE, `extensions '${rec.id}' and '${dep.id}' depend on each other (${cycle.join(" -> ")})`, {
          hint: "break the cycle: one of them must not require the other's service",
        });
      }
      if (c === 0) visit(dep);
    }
    stack.pop();
    color.set(rec.id, 2);
  };
  for (const rec of live) if ((color.get(rec.id) ?? 0) === 0) visit(rec);
}

/** What an extension claims in the add-only registries: its services, commands and slash command names (with aliases). */
function claims(m: Manifest): Array<{ kind: "service" | "command" | "slash"; name: string; label: string }> {
  return [
    ...(m.provides ?? []).map((name) => ({ kind: "service" as const, name, label: `service '${name}'` })),
    ...(m.contributes?.commands ?? []).map((c) => ({ kind: "command" as const, name: c.name, label: `command '${c.name}'` })),
    ...(m.contributes?.slashCommands ?? []).flatMap((c) => [c.name, ...(c.aliases ?? [])].map((name) => ({ kind: "slash" as const, name, label: `slash command '/${name}'` }))),
  ];
}
