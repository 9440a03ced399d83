/**
 * One session's export as text or data, shared by `oceancode export` and GET /session/:id/export: settles
 * the writers first (so the step that just ended is included), reads the stored session, and renders it
 * from the ledger's transcripts when they exist. Undefined: storage holds no such session.
 */
import fs from "node:fs";
import path from "node:path";
import type { EngineService } from "../engine/api.js";
import type { StorageService } from "../storage/api.js";
import type { LedgerService } from "../ledger/api.js";
import type { AtifTrajectory } from "./atif.js";

export interface ExportSources {
  storage: StorageService;
  ledger?: LedgerService;
  engine?: EngineService;
  /** oceancode's version, written into the ATIF `agent` block */
  agentVersion: string;
}

export type Rendered = { format: "md"; text: string } | { format: "atif"; trajectory: AtifTrajectory };

export async function renderExport(id: string, format: "md" | "atif", src: ExportSources): Promise<Rendered | undefined> {
  const { storage, ledger, engine } = src;
  await ledger?.settle();
  await storage.settle();
  const stored = await storage.loadSession(id);
  if (!stored) return undefined;
  const dir = ledger?.enabled !== false && ledger ? ledger.dirOf(id) : undefined;
  // the renderers load on first export: the extension activates with every session (its route), exports are rare
  if (format === "md") {
    const { exportMarkdown } = await import("./markdown.js");
    return { format, text: exportMarkdown(stored, dir && fs.existsSync(path.join(dir, "transcript")) ? dir : undefined) };
  }
  const { exportAtif } = await import("./atif.js");
  // the catalogue knows a model's prices once its provider has loaded: load the session's providers first, so
  // the CLI's export (nothing loaded yet) and the server's (providers loaded) give the same costs
  if (engine) {
    const models = new Set([stored.info.model, ...stored.rows.flatMap((r) => (r.role === "assistant" && r.model ? [r.model] : []))]);
    for (const m of models) await engine.describeModel(m).catch(() => undefined);
  }
  const cost = engine
    ? (model: string, u: Parameters<EngineService["models"]["cost"]>[1]) => {
        const m = engine.models.resolve(model);
        return m.known ? engine.models.cost(m, u) : undefined;
      }
    : undefined;
  return { format, trajectory: exportAtif(stored, src.agentVersion, cost, dir) };
}

/** The package's version (extensions/export/ -> the package root's package.json); 0.0.0 when unreadable. */
export function agentVersion(extensionDir: string): string {
  try {
    return (JSON.parse(fs.readFileSync(path.join(extensionDir, "..", "..", "package.json"), "utf8")) as { version: string }).version;
  } catch {
    return "0.0.0";
  }
}
