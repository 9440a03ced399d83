/**
 * Real extension folders for kernel tests: a temp HOME, project and "bundled" root, each extension a
 * manifest.json + plain ESM index.js written to disk and imported by the real kernel.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Kernel } from "../../kernel/kernel.js";
import { resolvePaths } from "../../kernel/paths.js";
import type { Logger } from "../../kernel/api.js";
import type { HostSetting } from "../../kernel/config.js";
import { userCheckout } from "../kit/cli.js";

export interface ExtSpec {
  id: string;
  manifest?: Record<string, unknown>;
  /** body of index.js; default: an activate() that records "activate:<id>" */
  code?: string;
  /** extra files, relative to the extension folder */
  files?: Record<string, string>;
  /** write manifest.json verbatim (for manifest-error tests) */
  rawManifest?: string;
}

export interface TestEnv {
  root: string;
  home: string;
  project: string;
  bundled: string;
  managedDir: string;
  env: NodeJS.ProcessEnv;
  logs: string[];
  log: Logger;
  /** write extensions into a base folder's extensions/ (bundled root by default) */
  addExt(spec: ExtSpec, base?: string): string;
  write(file: string, content: string): string;
  discover(opts?: { bare?: boolean; hostSettings?: HostSetting[] }): Promise<Kernel>;
  cleanup(): void;
}

declare global {
  // the extensions under test append to this; tests read it to check call order
  var __ocEvents: string[];
}

export function events(): string[] {
  return (globalThis.__ocEvents ??= []);
}
/** clear in place: extension modules keep a reference to the array */
export function resetEvents(): void {
  events().length = 0;
}

/** index.js that records its activation and taps every kernel hook */
export const RECORDING_CODE = (id: string, extra = "") => `
const ev = (globalThis.__ocEvents ??= []);
export default {
  activate(ctx) {
    ev.push("activate:${id}");
    ctx.kernelHooks.boot.tap({ name: "${id}" }, () => { ev.push("boot:${id}"); });
    ctx.kernelHooks.configResolved.tap({ name: "${id}" }, () => { ev.push("configResolved:${id}"); });
    ctx.kernelHooks.extensionsActivated.tap({ name: "${id}" }, (a) => { ev.push("extensionsActivated:${id}:" + a.active.join(",")); });
    ctx.kernelHooks.shutdown.tap({ name: "${id}" }, (r) => { ev.push("shutdown:${id}:" + r.reason); });
    ${extra}
  },
  deactivate() { ev.push("deactivate:${id}"); },
};
`;

export function baseManifest(id: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { id, version: "1.0.0", kernel: "^0.1.0", main: "index.js", ...extra };
}

export function makeEnv(): TestEnv {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "oc-kernel-"));
  const home = path.join(root, "home");
  const project = path.join(root, "project");
  const bundled = path.join(root, "bundled");
  const managedDir = path.join(root, "managed");
  for (const d of [home, project, bundled, managedDir]) fs.mkdirSync(d, { recursive: true });
  // a git checkout: the project's own files are then untracked, the local tier (kernel/ownership.ts)
  userCheckout(project);
  const env: NodeJS.ProcessEnv = { HOME: home, PATH: process.env.PATH, OC_MANAGED_CONFIG: path.join(managedDir, "managed.json") };
  const logs: string[] = [];
  const log: Logger = {
    debug: () => undefined,
    info: () => undefined,
    warn: (m) => logs.push(`warn: ${m}`),
    error: (m) => logs.push(`error: ${m}`),
  };
  const write = (file: string, content: string): string => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
    return file;
  };
  return {
    root,
    home,
    project,
    bundled,
    managedDir,
    env,
    logs,
    log,
    write,
    addExt(spec, base = bundled) {
      const dir = path.join(base, "extensions", spec.id);
      write(path.join(dir, "manifest.json"), spec.rawManifest ?? JSON.stringify(spec.manifest ?? baseManifest(spec.id), null, 2));
      write(path.join(dir, "index.js"), spec.code ?? RECORDING_CODE(spec.id));
      for (const [rel, content] of Object.entries(spec.files ?? {})) write(path.join(dir, rel), content);
      return dir;
    },
    discover(opts = {}) {
      return Kernel.discover({
        paths: resolvePaths({ home, project, env }),
        env,
        log,
        hostSettings: opts.hostSettings,
        ...(opts.bare ? {} : { bundled: { dir: bundled, codeDir: bundled } }),
      });
    },
    cleanup() {
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Run fn and return the OcError it throws (fails the test when it does not throw). */
export async function caught(fn: () => Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await fn();
  } catch (e) {
    return e as { code: string; message: string };
  }
  throw new Error("expected an error");
}
