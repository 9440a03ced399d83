/**
 * Permissions extension: rules + modes + the external-directory ask as an authorizeToolCall tap at
 * STAGE_POLICY (deny and ask bail; allow lets later taps such as PreToolUse hooks still speak),
 * tools with a `*` deny removed from the request (modelRequest), "always" answers saved as rules
 * (permissionAnswered), and `oceancode permissions check`. The checkout's .claude settings only tighten
 * until the project is trusted (trust service).
 */
import type { ExtensionContext } from "../../kernel/api.js";
import type { ToolCallContext, AuthorizeResult } from "../engine/api.js";
import type { ShellGuardService } from "../shell-guard/api.js";
import type { Refs } from "../tools/api.js";
import type { PermissionsService, PermissionMode, PermissionDecision, PermissionAdvisor } from "./api.js";
import { gatherRules, claudeDefaultMode } from "./sources.js";
import { decide, removedTools, exactAllowRule } from "./decide.js";
import { isMode, type Mode } from "./modes.js";
import { saveRule } from "./save.js";
import { toolKey, type Rule } from "./rules.js";
import { runCheckCommand } from "./check.js";
import { permissionRoutes } from "./routes.js";
import { ruleRoutes } from "./rule-routes.js";
import type { SessionOverrides } from "../engine/api.js";

/**
 * Managed requirements can disable bypassPermissions. The kernel's verified copy is used, never the file
 * re-read: it could have changed since its signature was checked.
 */
function bypassDisabled(ctx: ExtensionContext): { disabled: boolean; file?: string } {
  const section = ctx.requirements<{ disableBypassPermissionsMode?: boolean }>("permissions");
  return section?.disableBypassPermissionsMode === true ? { disabled: true, file: ctx.introspect().requirements.file } : { disabled: false };
}

/** The string a rule matches: the command for bash, the path for file tools. */
function subjectOf(call: ToolCallContext): string {
  const i = call.call.input;
  for (const k of ["command", "file_path", "path", "filePath", "url", "pattern"]) if (typeof i[k] === "string") return i[k] as string;
  try {
    return call.tool?.ruleSubject?.(i, call.cwd) ?? JSON.stringify(i);
  } catch {
    return JSON.stringify(i);
  }
}

export default {
  activate(ctx: ExtensionContext) {
    const project = ctx.paths.project;
    const home = ctx.paths.home;
    // the checkout's .claude settings are tighten-only until the project is trusted (no trust service: untrusted)
    const repoTrusted = ctx.services.tryGet("trust")?.repoTrusted(project) ?? false;
    const set = gatherRules(ctx.config, project, home, repoTrusted);
    const claudeMode = claudeDefaultMode(project, home, repoTrusted).mode;
    const rules: Rule[] = set.rules;
    for (const w of set.warnings) ctx.log.warn(w);
    const guard = checkedGuard(ctx.services.tryGet("shell-guard"));
    const shellCfg = ctx.config.section<{ safe_list_extra?: unknown }>("shell");
    const safeListExtra = Array.isArray(shellCfg.safe_list_extra) ? shellCfg.safe_list_extra.filter((s): s is string => typeof s === "string") : [];
    const refs = (ctx.config.get("refs") ?? {}) as Refs;

    const resolveMode = (requested: string): { mode: PermissionMode; note?: string } => {
      if (!isMode(requested)) return { mode: "default", note: `unknown permission mode '${requested}'; using default` };
      if (requested === "bypassPermissions") {
        const b = bypassDisabled(ctx);
        if (b.disabled) return { mode: "default", note: `bypassPermissions is disabled by ${b.file}; using default` };
      }
      return { mode: requested };
    };
    const configured = (): string => {
      const v = ctx.config.get("permission_mode");
      return typeof v === "string" ? v : (claudeMode ?? "default");
    };
    const modeOf = (overrides?: SessionOverrides): PermissionMode => {
      const o = overrides?.permission_mode;
      return resolveMode(typeof o === "string" ? o : configured()).mode;
    };
    const check = async (tool: string, subject: string, opts: { cwd?: string; mode?: PermissionMode; unconfined?: boolean } = {}): Promise<PermissionDecision> =>
      decide({ tool, subject, cwd: opts.cwd ?? project, project, home, mode: (opts.mode ?? modeOf()) as Mode, rules, refs, safeListExtra, guard, ...(opts.unconfined ? { unconfined: true } : {}) });

    const advisors: PermissionAdvisor[] = [];
    const exactRule = (command: string): boolean => exactAllowRule(rules, command) !== undefined;
    const service: PermissionsService = { check, modeOf, resolveMode, warnings: () => [...set.warnings], addAdvisor: (a) => void advisors.push(a), exactRule };
    ctx.provide("permissions", service);
    ctx.registerCommand("permissions", (argv, io) => runCheckCommand(argv, io, service, configured(), () => ctx.services.tryGet("sandbox")));
    const routes = ctx.services.tryGet("routes");
    if (routes) for (const r of [...permissionRoutes(service, () => ctx.services.tryGet("storage")), ...ruleRoutes({ service, rules, project, home })]) routes.add(r, ctx.id);

    const engine = ctx.services.tryGet("engine");
    if (!engine) return;
    engine.hooks.authorizeToolCall.tap({ name: ctx.id, stage: "rules" }, async (call): Promise<AuthorizeResult | undefined> => {
      const d = await decide({
        tool: call.call.name,
        subject: subjectOf(call),
        cwd: call.cwd,
        project: call.session.info.cwd || project,
        home,
        mode: modeOf(call.session.info.overrides),
        rules,
        refs,
        safeListExtra,
        guard,
        ...(call.call.input.dangerouslyDisableSandbox === true ? { unconfined: true } : {}),
      });
      if (d.action === "allow") {
        // the provenance of this allow (the engine's approval; the sandbox confines what no person approved)
        const exact = toolKey(call.call.name) === "bash" && exactAllowRule(rules, subjectOf(call)) !== undefined;
        call.allowHint = { source: d.layer === "mode" ? "mode" : d.layer === "default" ? "default" : "rule", rule: d.rule, ...(exact ? { exact: true } : {}) };
        return undefined;
      }
      const rule = d.file ? `${d.rule} (${d.layer}: ${d.file})` : `${d.rule} (${d.layer})`;
      if (d.action === "deny") return { action: "deny", reason: d.reason, by: ctx.id, rule };
      // advisors (the Jev layer) see the asks, after the floor, the rules and the mode settled everything else
      for (const advise of advisors) {
        let a;
        try {
          a = await advise(call, d);
        } catch (e) {
          ctx.log.warn(`a permission advisor failed (${e instanceof Error ? e.message : String(e)}); the ask proceeds`);
        }
        // an advised allow is like a rule allow: later taps (PreToolUse hooks) still speak
        if (a?.action === "allow") {
          call.allowHint = { source: "rule", rule: `advisor ${a.by}` };
          return undefined;
        }
        if (a?.action === "deny") return { action: "deny", reason: a.reason, by: a.by, rule };
      }
      return { action: "ask", reason: d.reason, by: ctx.id, rule, ...(d.always ? { always: d.always } : {}), ...(d.autoApprove !== undefined ? { autoApprove: d.autoApprove } : {}) };
    });
    engine.hooks.permissionAnswered.tap({ name: ctx.id }, ({ ctx: call, decision, answer }) => {
      if (answer !== "always" || decision.action !== "ask" || !decision.always) return;
      const file = saveRule(call.session.info.cwd || project, decision.always);
      const parsed = decision.always.split(" ");
      const action = parsed.pop() as Rule["action"];
      rules.push({ tool: toolKey(parsed[0]!), pattern: parsed.slice(1).join(" ") || "*", action, text: decision.always, layer: "project", file });
      ctx.log.info(`saved "${decision.always}" to ${file}`);
      // the transcript names the rule that was saved, not just the command that was answered
      engine.notice(call.session.info.id, "info", `saved rule "${decision.always}" to ${file}`);
    });
    engine.hooks.modelRequest.tap({ name: ctx.id, stage: "policy" }, (req, step) => {
      const gone = removedTools(req.tools.map((t) => t.name), rules, modeOf(step.session.info.overrides) as Mode);
      return gone.size ? { ...req, tools: req.tools.filter((t) => !gone.has(t.name)) } : req;
    });
  },
};

/**
 * A replacement shell-guard must implement ShellGuardService (oceancode/api/shell-guard). One that does not
 * fails every bash decision with a message naming the contract (authorizeToolCall fails closed: denied),
 * not a raw "classify is not a function".
 */
function checkedGuard(guard: ShellGuardService | undefined): ShellGuardService | undefined {
  if (!guard || typeof (guard as Partial<ShellGuardService>).classify === "function") return guard;
  return {
    classify: () =>
      Promise.reject(new Error("the 'shell-guard' service has no classify(command, opts): a replacement must implement ShellGuardService from oceancode/api/shell-guard")),
  };
}
