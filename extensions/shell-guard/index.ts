/**
 * Shell guard extension: provides the classifier as service "shell-guard" and taps the engine's
 * authorizeToolCall at STAGE_FLOOR (floor: deny, no mode reopens it). When no permissions extension
 * decided earlier, it also asks at STAGE_GUARD for the catastrophic / unknowable shapes.
 */
import type { ExtensionContext } from "../../kernel/api.js";
import type { ToolCallContext, AuthorizeResult } from "../engine/api.js";
import type { ShellGuardService, ClassifyOptions, Classification } from "./api.js";

/** The classifier (~100 KB with its tables), loaded on the first command to classify: a session that runs no bash never compiles it. */
const classifier = () => import("./classify.js");

function commandOf(call: ToolCallContext): string | undefined {
  if (call.call.name !== "bash" && call.claude.toolName !== "Bash") return undefined;
  const c = call.call.input.command ?? call.claude.toolInput.command;
  return typeof c === "string" ? c : undefined;
}

export default {
  async activate(ctx: ExtensionContext) {
    const shell = (): ClassifyOptions => {
      const s = ctx.config.section<{ safe_list_extra?: string[] }>("shell");
      return { safeListExtra: Array.isArray(s.safe_list_extra) ? s.safe_list_extra.filter((x) => typeof x === "string") : [] };
    };
    // the floor, policy and guard taps classify the same command: keep the last few results
    const cache = new Map<string, Promise<Classification>>();
    const service: ShellGuardService = {
      classify: (command, opts) => {
        const o = { home: ctx.paths.home, project: ctx.paths.project, ...shell(), ...opts };
        const key = JSON.stringify([command, o.cwd, o.project, o.home, o.safeListExtra, o.allow, o.deny]);
        let hit = cache.get(key);
        if (!hit) {
          hit = classifier().then((m) => m.classifyCommand(command, o));
          if (cache.size >= 64) cache.delete(cache.keys().next().value!);
          cache.set(key, hit);
        }
        return hit;
      },
    };
    ctx.provide("shell-guard", service);
    const engine = ctx.services.tryGet("engine");
    if (!engine) return;
    const opts = (call: ToolCallContext): ClassifyOptions => ({ cwd: call.cwd, project: call.session.info.cwd, home: ctx.paths.home });
    engine.hooks.authorizeToolCall.tap({ name: ctx.id, stage: "floor" }, async (call): Promise<AuthorizeResult | undefined> => {
      const command = commandOf(call);
      if (command === undefined) return undefined;
      const c = await service.classify(command, opts(call));
      const floor = c.segments.find((s) => s.kind === "floor");
      if (floor) return { action: "deny", reason: `${floor.reason}: ${floor.text}`, by: ctx.id, rule: "dangerous floor" };
      return undefined;
    });
    engine.hooks.authorizeToolCall.tap({ name: ctx.id, stage: "guard" }, async (call): Promise<AuthorizeResult | undefined> => {
      const command = commandOf(call);
      if (command === undefined) return undefined;
      const c = await service.classify(command, opts(call));
      const guard = c.segments.find((s) => s.kind === "guard");
      if (guard) return { action: "ask", reason: `${guard.reason}: ${guard.text}`, by: ctx.id, rule: "shell guard", autoApprove: false };
      return undefined;
    });
  },
};
