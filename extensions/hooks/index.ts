/**
 * The hooks extension: discovers hook files through the walk (reader "hooks"), holds the ones that
 * are not trusted, and runs the rest on the engine's hooks (see taps.ts for the ordering).
 * `oceancode hooks ...` only reads and edits files; it runs no handler.
 * In a session (run, pager) every source whose hooks are not running — invalid, unreadable, held
 * untrusted — is named once on the log (notices.ts). A plugin enabled, disabled or trusted, or the
 * project's master switch flipped, while a session runs reaches the next dispatch (registry.fresh).
 */
import path from "node:path";
import { readPluginStoreFile, type ExtensionContext, type CommandIO, type SlashHost, type Root } from "../../kernel/api.js";
import type { HookOutcomeRecord } from "./api.js";
import { hooksReader, READER_ID, type SourceItem } from "./sources.js";
import { HookRegistry, applyTrust, report, formatReport } from "./registry.js";
import { hooksCommand } from "./cli.js";
import { hookRoutes } from "./routes.js";
import { installTaps, EXT_ID } from "./taps.js";
import { Transcripts, TRANSCRIPT_RETENTION_DAYS } from "./transcript.js";
import { SourceNotices } from "./notices.js";
import { LiveFiles } from "./live.js";
import { KERNEL_VERSION } from "../../kernel/api.js";

let registry: HookRegistry | undefined;

export default {
  async activate(ctx: ExtensionContext) {
    ctx.registerReader(hooksReader);
    const trust = ctx.services.tryGet("trust");
    // repo trust is read fresh from the store, so a `trust repo on` elsewhere applies at the next reload
    const trusted = async (root: Root): Promise<boolean> => (root.tier === "repo" && trust ? trust.repoTrusted(root.project) : ctx.isTrusted(root));
    const repoTrusted = () => (trust ? trust.repoTrusted(ctx.paths.project) : false);
    // the switches that may flip mid-session (a shell, the pager) live in these two files under ~/.oceancode
    const installedJson = path.join(ctx.paths.userOcDir, "plugins", "installed.json");
    const live = new LiveFiles([installedJson, trust?.file ?? path.join(ctx.paths.userOcDir, "trust.json")]);
    const loader = () =>
      applyTrust(ctx.walk<SourceItem>(READER_ID), trusted, { everythingOff: trust?.get(ctx.paths.project).everything_off === true, store: readPluginStoreFile(installedJson) });
    const reg = new HookRegistry(loader, live);
    registry = reg;
    await reg.reload();

    ctx.registerCommand("hooks", (argv: string[], io: CommandIO) => hooksCommand(argv, io, async () => report(await reg.reload(), repoTrusted())));
    ctx.registerSlash("hooks", async (args: string, host: SlashHost) => {
      const a = args.trim();
      if (a === "reload" || a === "r") await reg.reload();
      else if (a !== "") {
        host.reply("usage: /hooks [reload]");
        return;
      }
      host.reply(formatReport(report(reg.sources, repoTrusted())).join("\n"));
    });

    // serve: the guide's five routes (GET /hooks, POST /hooks, /hooks/reload, /hooks/remove, /trust/repo)
    const routes = ctx.services.tryGet("routes");
    if (routes) for (const r of hookRoutes({ reload: async () => report(await reg.reload(), repoTrusted()), trust, project: ctx.paths.project, home: ctx.paths.home })) routes.add(r, ctx.id);

    // `oceancode inspect`: one row per hook source, loaded or held (files are read, nothing runs)
    ctx.services.tryGet("inspect")?.addRows(async () =>
      report(await reg.reload(), repoTrusted()).sources.map((s) => ({
        kind: "hooks",
        id: s.plugin ? `${s.plugin}:${path.basename(s.path)}` : s.path,
        layer: s.tier,
        source: s.path,
        state: s.status,
        ...(s.error ? { reason: s.error } : s.skipped ? { reason: `skipped: ${s.skipped} unsupported handlers` } : {}),
        value: s.handlers.length,
      })),
    );

    const engine = ctx.services.tryGet("engine");
    if (!engine) return;
    const storage = ctx.services.tryGet("storage");
    const notices = new SourceNotices((line) => ctx.log.warn(line));
    const transcripts = new Transcripts({
      root: path.join(ctx.paths.dataDir, "projects"),
      version: KERNEL_VERSION,
      tools: engine.tools,
      ...(storage
        ? {
            storedRows: async (id: string) => {
              await storage.settle();
              return (await storage.loadSession(id))?.rows;
            },
          }
        : {}),
    });
    let inSession = false;
    // before the SessionStart handlers run (stage `handlers`), so the notice comes first
    engine.hooks.sessionStart.tap({ name: EXT_ID, stage: "prepare" }, ({ session }) => {
      if (!inSession) {
        const n = transcripts.sweep(session.info.cwd, session.info.id);
        if (n > 0) ctx.log.info(`removed ${n} hook transcript(s) not written for ${TRANSCRIPT_RETENTION_DAYS} days`);
      }
      inSession = true;
      notices.report(reg.sources);
    });
    installTaps({
      engine,
      project: ctx.paths.project,
      env: ctx.env,
      sources: () => reg.sources,
      // a plugin toggled or the master switch flipped since the last dispatch reaches this one
      refresh: async () => {
        if (!(await reg.fresh())) return;
        ctx.log.info("hooks re-applied (plugins/installed.json or trust.json changed)");
        if (inSession) notices.report(reg.sources);
      },
      record: (sessionId: string, r: HookOutcomeRecord) => storage?.recordEvent(sessionId, "hook", { ...r }),
      trace: (r: HookOutcomeRecord) =>
        ctx.log.info(`hook ${r.event}${r.tool ? `(${r.tool})` : ""} -> ${r.decision}${r.reason ? `: ${r.reason.split("\n")[0]}` : ""} [${r.tier} ${r.source}: ${r.handler}]`),
      notice: (sessionId: string, text: string, level: "info" | "warn" = "info") => engine.notice(sessionId, level, `hook: ${text}`),
      transcripts,
      warn: (text: string) => ctx.log.warn(text),
    });
    reg.watch([path.join(ctx.paths.project, ".claude"), path.join(ctx.paths.home, ".claude")], 250, (err) => {
      if (err) ctx.log.warn(`hooks reload failed: ${String(err)}`);
      else {
        ctx.log.info("hooks reloaded (a Claude Code settings file changed)");
        if (inSession) notices.report(reg.sources);
      }
    });
  },
  deactivate() {
    registry?.close();
    registry = undefined;
  },
};
export { EXT_ID };
