/**
 * Other ecosystems' walk roots. The kernel knows none: trusted extensions declare them
 * (`contributes.walkRoots`: a project folder and a home folder per ecosystem; `contributes.pluginRoots`:
 * a module that lists that ecosystem's installed plugins). Only bundled and user-tier extensions count:
 * the walk runs before the trust gate, so nothing a checkout or a plugin ships can widen what is read,
 * and no repo-supplied code runs. The plugin module is imported only when its index file exists.
 */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Manifest } from "./manifest.js";
import type { EcosystemRoots, PluginRootRecord, Tier } from "./walk.js";
import type { Paths } from "./paths.js";
import { ErrorCodes, OcError } from "./errors.js";

export interface EcosystemDeclarer {
  id: string;
  tier: Tier;
  codeDir: string;
  manifest?: Manifest;
}

/** What a `contributes.pluginRoots` module exports. */
export interface PluginRootsModule {
  pluginRoots(paths: { home: string; project: string; userOcDir: string }): PluginRootRecord[];
}

const underHome = (home: string, p: string) => path.join(home, p.replace(/^~\//, ""));

function isRecord(r: unknown): r is PluginRootRecord {
  const x = r as Record<string, unknown> | null;
  return !!x && typeof x.ecosystem === "string" && typeof x.name === "string" && typeof x.dir === "string" && typeof x.enabled === "boolean";
}

export async function declaredEcosystems(
  declarers: readonly EcosystemDeclarer[],
  paths: Paths,
  warn: (msg: string) => void,
): Promise<{ roots: EcosystemRoots[]; plugins: PluginRootRecord[] }> {
  const roots: EcosystemRoots[] = [];
  const plugins: PluginRootRecord[] = [];
  for (const d of declarers) {
    if (d.tier !== "bundled" && d.tier !== "user") continue;
    for (const r of d.manifest?.contributes?.walkRoots ?? []) {
      const taken = r.ecosystem === "oceancode" || roots.some((x) => x.ecosystem === r.ecosystem);
      if (taken) warn(`extension '${d.id}' declares walk roots for the ecosystem '${r.ecosystem}', which ${r.ecosystem === "oceancode" ? "the kernel" : "another extension"} already owns; ignored`);
      else roots.push({ ecosystem: r.ecosystem, repo: r.repo, user: r.user });
    }
    const pr = d.manifest?.contributes?.pluginRoots;
    if (!pr || !fs.existsSync(underHome(paths.home, pr.whenExists))) continue;
    try {
      const mod = (await import(pathToFileURL(path.join(d.codeDir, pr.module)).href)) as Partial<PluginRootsModule>;
      if (typeof mod.pluginRoots !== "function") throw new OcError(ErrorCodes.MANIFEST_INVALID, `${pr.module} exports no pluginRoots()`);
      const found = mod.pluginRoots({ home: paths.home, project: paths.project, userOcDir: paths.userOcDir });
      for (const r of Array.isArray(found) ? found : []) if (isRecord(r) && r.ecosystem !== "oceancode") plugins.push(r);
    } catch (e) {
      warn(`extension '${d.id}': its plugin roots (${pr.module}) failed and are skipped: ${(e as Error).message}`);
    }
  }
  return { roots, plugins };
}
