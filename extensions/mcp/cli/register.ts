/**
 * Registers `oceancode mcp` (add, list, enable, disable, remove). The extension's index calls
 * registerMcpCommand(ctx, { trust }) in activate, after ctx.registerReader(pluginReader).
 */
import path from "node:path";
import { writeFileAtomic, type CommandIO, type ExtensionContext } from "../../../kernel/api.js";
import { emptyTrust, TrustFileError, type ProjectTrust, type TrustService } from "../../trust/api.js";
import { resolveInputFromContext } from "../sources/context.js";
import { readTrust } from "../sources/index.js";
import { isObj } from "../sources/shapes.js";
import type { DoctorRow, ServerEntry } from "../api.js";
import { mcpCommand, type McpCliDeps } from "./command.js";
import fs from "node:fs";

export interface RegisterDeps {
  /** the trust service (optional: without it trust.json is edited here, atomically) */
  trust?: TrustService;
  /** `mcp doctor`: dial each ready entry with a short budget (the client's doctor) */
  doctor?: (entries: ServerEntry[]) => Promise<DoctorRow[]>;
}

/** trust.json edited directly (another --home, or no trust service): same shape, atomic, a corrupt file refused. */
function updateTrustFile(home: string, project: string, change: (t: ProjectTrust) => void): ProjectTrust {
  const file = path.join(home, ".oceancode", "trust.json");
  let all: Record<string, unknown> = {};
  try {
    const text = fs.readFileSync(file, "utf8");
    if (text.trim() !== "") {
      const v = JSON.parse(text) as unknown;
      if (!isObj(v)) throw new TrustFileError(file, "the top level must be an object keyed by project path");
      all = v;
    }
  } catch (e) {
    if (e instanceof TrustFileError) throw e;
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw new TrustFileError(file, (e as Error).message);
  }
  const key = path.resolve(project);
  const t = { ...emptyTrust(), ...readTrust(path.dirname(file), key) };
  change(t);
  all[key] = { ...(isObj(all[key]) ? all[key] : {}), ...t };
  writeFileAtomic(file, `${JSON.stringify(all, null, 2)}\n`);
  return t;
}

export function mcpCliDeps(ctx: ExtensionContext, deps: RegisterDeps = {}): McpCliDeps {
  return {
    resolveInput: (project, home) => ({ ...resolveInputFromContext(ctx, project, home), warn: () => undefined }),
    updateTrust: (home, project, change) =>
      deps.trust && path.resolve(home) === ctx.paths.home ? deps.trust.update(project, change) : updateTrustFile(home, project, change),
    ...(deps.doctor ? { doctor: deps.doctor } : {}),
  };
}

export function registerMcpCommand(ctx: ExtensionContext, deps: RegisterDeps = {}): void {
  const cli = mcpCliDeps(ctx, deps);
  ctx.registerCommand("mcp", (argv: string[], io: CommandIO) => mcpCommand(argv, io, cli));
}
