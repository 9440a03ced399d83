/**
 * The core tools extension: bash (+ background jobs), read, write, edit, grep, glob, ls, registered with the
 * engine's tool registry when a session host activates "onSession".
 */
import type { ExtensionContext } from "../../kernel/api.js";
import type { JobsService, Refs } from "./api.js";
import { forgetJobsOf, killJobsOf, runningJobsOf } from "./jobs.js";
import { endAllGroups } from "./process.js";
import { createTools, toolsOptions } from "./tools.js";
import { fileRoutes } from "./routes.js";

interface ToolsSection {
  max_output_chars?: number;
  max_output_bytes?: number;
  bash_timeout_ms?: number;
  ripgrep?: boolean;
}

export default {
  activate(ctx: ExtensionContext) {
    const section = ctx.config.section<ToolsSection>("tools");
    const refs = ctx.config.section<Refs>("refs");
    const opts = toolsOptions({
      project: ctx.paths.project,
      home: ctx.paths.home,
      dataDir: ctx.paths.dataDir,
      refs,
      ...(section.max_output_chars !== undefined ? { maxOutputChars: section.max_output_chars } : {}),
      ...(section.max_output_bytes !== undefined ? { maxOutputBytes: section.max_output_bytes } : {}),
      ...(section.bash_timeout_ms !== undefined ? { bashTimeoutMs: section.bash_timeout_ms } : {}),
      ...(section.ripgrep !== undefined ? { useRipgrep: section.ripgrep } : {}),
    });
    const engine = ctx.services.get("engine");
    for (const tool of createTools(opts)) engine.tools.register(tool, ctx.id);
    const jobs: JobsService = {
      running: (id) => runningJobsOf(id).map((j) => ({ id: j.id, command: j.command, ...(j.pid !== undefined ? { pid: j.pid } : {}), startedAt: j.startedAt })),
      killSession: (id) => killJobsOf(id),
    };
    ctx.provide("jobs", jobs);
    // the project-file routes of a server (list, find, read), under the same rules as the read tool
    const routes = ctx.services.tryGet("routes");
    if (routes) for (const r of fileRoutes(ctx.paths.project)) routes.add(r, ctx.id);
    engine.hooks.sessionEnd.tap({ name: ctx.id }, ({ session }) => forgetJobsOf(session.info.id));
    // the host is ending (a run's last step, a signal, serve stopping): no process group it started outlives it
    ctx.kernelHooks.shutdown.tap({ name: ctx.id }, async () => {
      await endAllGroups();
    });
  },
};
