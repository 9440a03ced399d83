/**
 * The rules extension: registers the walk reader "rules", provides the `rules` service, adds one
 * `instruction` row per file to `oceancode inspect`, and taps engine.userPrompt to put the memory block
 * into the context of a session's first prompt. The system prompt is never touched, so it stays
 * byte-identical across projects and sessions (one cached prefix); the memory is read when the prompt
 * starts, so an edit applies from the next session (or a resumed session whose rows lack the block).
 * It also taps engine.toolResult: a directory of the worktree a tool touches for the first time brings
 * its own instruction files into that tool's result (nested.ts).
 * A plugin's rules load only while the plugin is enabled (installed.json, read at each load) and the
 * project's master switch (trust.json `everything_off`) is on; instruction files are not capabilities and stay.
 */
import path from "node:path";
import { readPluginStoreFile, type ExtensionContext } from "../../kernel/api.js";
import { visibleLine } from "../obs/kit.js";
import type { TrustService } from "../trust/api.js";
import type { EngineService, Session } from "../engine/api.js";
import type { InspectService } from "../inspect/api.js";
import { MEMORY_HEADER, type RulesService } from "./api.js";
import { toolPaths } from "../tools/kit.js";
import { loadMemory, untrustedByDefault } from "./load.js";
import { nestedReminder } from "./nested.js";
import { READER_ID, liveRuleItems, rulesReader, worktreeRoot, type RuleItem } from "./sources.js";

const DONE = "rules:done";
/** A warning quotes repo text: one line through the kernel's safe-output kit (a host's logger may print as is) */
export const printable = (s: string): string => visibleLine(s);
const SCOPE = "rules:scope";
const DIRS = "rules:dirs";

/** Does the session already carry the block (this process injected it, or a stored row has it)? */
export function carriesMemory(session: Pick<Session, "rows" | "ext">): boolean {
  if (session.ext.get(DONE) === true) return true;
  return session.rows.some((r) => r.role === "user" && (r.context ?? []).some((c) => c.startsWith(MEMORY_HEADER)));
}

export default {
  activate(ctx: ExtensionContext) {
    ctx.registerReader(rulesReader);
    const warned = new Set<string>();
    // once per problem per process: a loop or a refused import is reported, the rest still loads
    const warn = (list: readonly string[]) => {
      for (const w of list) {
        if (warned.has(w)) continue;
        warned.add(w);
        ctx.log.warn(printable(w));
      }
    };
    // the checkout's memory files are repo text until `trust repo on` (read fresh: a trust change lands on the next load)
    const repoUntrusted = (): string | undefined => (ctx.services.tryGet("trust")?.repoTrusted(ctx.paths.project) === true ? undefined : untrustedByDefault("repo"));
    const service: RulesService = {
      load(opts) {
        // plugins toggled and the master switch flipped since the walk (both files under ~/.oceancode only;
        // read only when some plugin has rules)
        const found = ctx.walk<RuleItem>(READER_ID);
        const walked = found.some((w) => w.root.plugin)
          ? liveRuleItems(
              found,
              readPluginStoreFile(path.join(ctx.paths.userOcDir, "plugins", "installed.json")),
              ctx.services.tryGet("trust")?.get(ctx.paths.project).everything_off === true,
            )
          : found;
        const trustedPlugins = new Set(found.flatMap((w) => (w.root.plugin?.trusted === true ? [w.root.plugin.name] : [])));
        const untrustedLayer = (layer: string): string | undefined => {
          if (layer === "repo") return repoUntrusted();
          return layer.startsWith("plugin:") && !trustedPlugins.has(layer.slice(7)) ? untrustedByDefault(layer) : undefined;
        };
        const mem = loadMemory({ project: ctx.paths.project, home: ctx.paths.home, walked, untrustedLayer, ...(opts?.scopeCache ? { scopeCache: opts.scopeCache } : {}) });
        warn(mem.warnings);
        return mem;
      },
    };
    ctx.provide("rules", service);

    ctx.services.tryGet("inspect")?.addRows(() =>
      service.load().files.map((f) => ({ kind: "instruction", id: f.id, layer: f.layer, source: f.file, state: f.state, ...(f.scope ? { value: f.scope } : {}) })),
    );

    const engine = ctx.services.tryGet("engine");
    if (!engine) return;
    engine.hooks.userPrompt.tap({ name: ctx.id, stage: "enrich" }, (input, tctx) => {
      const session = tctx.session;
      // STAGE_ENRICH runs after the hooks extension's UserPromptSubmit (STAGE_POLICY), so a blocked prompt is seen here
      if (input.blocked || carriesMemory(session)) return input;
      session.ext.set(DONE, true);
      let scopeCache = session.ext.get(SCOPE) as Map<string, boolean> | undefined;
      if (!scopeCache) session.ext.set(SCOPE, (scopeCache = new Map()));
      const { block } = service.load({ scopeCache });
      return block ? { ...input, context: [block, ...input.context] } : input;
    });
    // a tool that first touches a directory of the worktree below (or beside) the working directory
    // gets that directory's instruction files appended to its result, once per directory per session
    const root = worktreeRoot(ctx.paths.project);
    engine.hooks.toolResult.tap({ name: ctx.id, stage: "enrich" }, (result, tc) => {
      // a denied or failed call touched nothing (a deny rule on a folder must not bring its files in)
      if (result.isError) return result;
      const touched = toolPaths(tc.call.name, tc.call.input, { cwd: tc.cwd, project: ctx.paths.project, home: ctx.paths.home }).map((t) => t.path);
      if (!touched.length) return result;
      let reminded = tc.session.ext.get(DIRS) as Set<string> | undefined;
      if (!reminded) tc.session.ext.set(DIRS, (reminded = new Set()));
      const untrusted = repoUntrusted();
      const nested = nestedReminder(touched, { root, cwd: ctx.paths.project, home: ctx.paths.home, reminded, ...(untrusted ? { untrusted } : {}) });
      warn(nested.warnings);
      return nested.block ? { ...result, content: `${result.content}\n\n${nested.block}` } : result;
    });
  },
};
