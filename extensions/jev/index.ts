/**
 * The Jev decision layer (docs/jev.md): resolves the jev section layer by layer (config.ts), provides
 * the "jev" service (JevService, api.ts), installs every decision point listed in points/all.ts (each
 * taps the hook it advises, behind the deterministic rules), adds one `inspect` row per point and
 * registers `oceancode jev`. Off unless both the global and the project config consent.
 */
import path from "node:path";
import type { ExtensionContext } from "../../kernel/api.js";
import type { JevPointModule } from "./api.js";
import { jevCommand } from "./cli.js";
import { resolveJevConfig } from "./config.js";
import { createLog } from "./log.js";
import { POINT_MODULES } from "./points/all.js";
import { createService } from "./service.js";

/** The ledger root without the ledger service (a CLI command): ledger.dir or <data dir>/session-ledger. */
function ledgerRootOf(ctx: ExtensionContext): string {
  const dir = ctx.config.get("ledger.dir");
  if (typeof dir !== "string" || dir === "") return path.join(ctx.paths.dataDir, "session-ledger");
  const d = dir === "~" ? ctx.paths.home : dir.startsWith("~/") ? path.join(ctx.paths.home, dir.slice(2)) : dir;
  return path.resolve(ctx.paths.project, d);
}

/** Warnings already logged in this process (a kernel may activate the extension more than once). */
const warnedOnce = new Set<string>();

export default {
  activate(ctx: ExtensionContext) {
    const cfg = resolveJevConfig(ctx.config.layers, ctx.env);
    for (const w of cfg.warnings) {
      if (warnedOnce.has(w)) continue;
      warnedOnce.add(w);
      ctx.log.warn(w);
    }
    const root = ledgerRootOf(ctx);
    const ledger = () => ctx.services.tryGet("ledger");
    const dirOf = (sid: string): string | undefined => {
      const l = ledger();
      return l ? l.dirOf(sid) : path.join(root, sid);
    };
    const log = createLog(dirOf, (s) => ctx.log.warn(s));
    const jev = createService(cfg, log);
    // shadow asks run off the critical path; a closing session waits briefly for them so their rows land
    const inflight = new Set<Promise<unknown>>();
    const track = (p: Promise<unknown>): void => {
      const tracked = p.then(
        () => new Promise((r) => setImmediate(r)),
        () => undefined,
      );
      inflight.add(tracked);
      void tracked.finally(() => inflight.delete(tracked));
    };
    jev.track = track;
    const ask = jev.ask.bind(jev);
    jev.ask = (req) => {
      const p = ask(req);
      track(p);
      return p;
    };
    ctx.services.tryGet("engine")?.hooks.sessionEnd.tap({ name: "jev" }, async () => {
      if (inflight.size) await Promise.race([Promise.allSettled([...inflight]), new Promise((r) => setTimeout(r, 3000).unref())]);
    });
    ctx.provide("jev", jev);

    const modules = POINT_MODULES.filter((m): m is JevPointModule => typeof m === "object");
    ctx.registerCommand("jev", (argv, io) => jevCommand(argv, io, { jev, modules, ledgerRoot: ledger()?.root ?? root, warnings: cfg.warnings }));
    ctx.services.tryGet("inspect")?.addRows(() =>
      jev.status().points.map((p) => ({ kind: "jev", id: p.point, layer: p.mode, source: jev.status().endpoint, reason: p.why })),
    );
    if (!cfg.enabled) return;
    for (const m of POINT_MODULES) {
      try {
        if (typeof m === "function") m(ctx, jev);
        else m.install(ctx, jev);
      } catch (e) {
        ctx.log.warn(`jev: a decision point failed to install (${e instanceof Error ? e.message : String(e)}); it stays off`);
      }
    }
  },
};
