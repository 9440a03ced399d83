/** claude-code/<model>: the Claude Code route, the settings mirror and `oceancode login` / `logout`. */
import fs from "node:fs";
import path from "node:path";
import type { ExtensionContext } from "../../kernel/api.js";
import { type EngineService } from "../engine/api.js";
import { isClaudeCliRoute } from "../engine/kit.js";
import type { LedgerService } from "../ledger/api.js";
import type { TidelineService } from "../tideline/api.js";
import { RouteStates } from "./state.js";
import { locateClaude } from "./locate.js";
import { createClaudeCodeProvider, EXTRA_KEY, type RequestExtra } from "./provider.js";
import { mirrorKey, readMirror, reloadNotice, settingsFiles, watchSettings, type Mirror } from "./settings.js";
import { loginCommand, logoutCommand } from "./commands.js";

export default {
  activate(ctx: ExtensionContext) {
    ctx.registerCommand("login", (argv, io) => loginCommand(ctx.env, argv, io));
    ctx.registerCommand("logout", (argv, io) => logoutCommand(ctx.env, argv, io));
    const engine = ctx.services.tryGet("engine");
    if (!engine) return; // a command-only activation
    const bin = () => locateClaude(ctx.env);
    const files = settingsFiles(ctx.paths.home, ctx.paths.project);
    let mirror: Mirror = readMirror(files, bin() !== undefined);
    const served = new Set<string>();
    const stop = watchSettings(files, () => {
      const next = readMirror(files, bin() !== undefined);
      const changed = mirrorKey(next) !== mirrorKey(mirror);
      mirror = next;
      if (!changed) return; // an unchanged rewrite is silent
      for (const sid of served) engine.notice(sid, "info", reloadNotice(next));
      ctx.log.info(reloadNotice(next));
    });
    ctx.kernelHooks.shutdown.tap({ name: ctx.id }, () => stop()); // persistent: false already lets the process exit

    // the session's directory rides on the request (a provider sees no session)
    engine.hooks.modelRequest.tap({ name: ctx.id }, (req, sctx) => {
      if (!isClaudeCliRoute(req.model.id)) return req;
      served.add(sctx.session.info.id);
      const tideline = ctx.services.tryGet("tideline");
      const line = tideline ? tideline.meter(sctx.session).line?.line : undefined;
      const extra: RequestExtra = { cwd: sctx.session.info.cwd, ...(line !== undefined ? { line } : {}) };
      return { ...req, extra: { ...req.extra, [EXTRA_KEY]: extra } };
    });

    const provider = createClaudeCodeProvider({
      bin,
      env: ctx.env,
      configDir: () => ctx.env.CLAUDE_CONFIG_DIR || path.join(ctx.paths.home, ".claude"),
      compose: (spec, sessionId) => engine.hooks.childProcess.call(spec, { sessionId, external: true }),
      mirror: () => mirror,
      page: (sid) => {
        const ledger = ctx.services.tryGet("ledger");
        if (!ledger?.enabled) return undefined;
        try {
          return fs.readFileSync(path.join(ledger.dirOf(sid), "SESSION.md"), "utf8");
        } catch {
          return undefined;
        }
      },
      permissionMode: () => (ctx.config.get("claude_code.permission_mode") as string | undefined) || undefined,
      coldStart: (sid, why) => engine.notice(sid, "info", why),
      project: ctx.paths.project,
      states: new RouteStates(path.join(ctx.paths.stateDir, "claude-code")),
    });
    for (const m of provider.models?.() ?? []) engine.models.add(m);
    engine.providers.register(provider, ctx.id);
  },
};
