/**
 * Point 1, `permission` (jev.permissions): a residual bash ask is put to Jev as four questions in one
 * request. It runs as a PermissionAdvisor (permissions/api.ts), so the floor, deny rules, dontAsk (a
 * deny) and the guard's asks (residual: false) never reach it. Skipped without a request: a path outside
 * the project, a command over 4,000 chars. The hold list always asks (an allow answer is `held`).
 *   shadow: the ask proceeds at once; the call runs in the background and is recorded.
 *   act:    safe class → allow without the prompt (waiting at most jev.deadline_ms); else the ask as
 *           before, except under headless --auto, where a destructive / egress / system / third-party
 *           answer (or the injection guard) rejects the call with the scores.
 * A person's answer to an advised ask appends a label row; headless replies write none.
 */
import type { ExtensionContext } from "../../../kernel/api.js";
import type { ToolCallContext } from "../../engine/api.js";
import type { PermissionAdvice, PermissionDecision } from "../../permissions/api.js";
import type { JevPointModule, JevService } from "../api.js";
import { stateHash } from "../state.js";
import { headless, lastPrompt, rowOf } from "./common.js";
import { COMMAND_MAX, holdReason, outsidePath, permissionVerdict, PERMISSION_QUESTIONS, scoreLine } from "./permission-policy.js";

const POINT = "permission" as const;

export function install(ctx: ExtensionContext, jev: JevService): void {
  const permissions = ctx.services.tryGet("permissions");
  const engine = ctx.services.tryGet("engine");
  if (!permissions?.addAdvisor || !engine) return;
  /** call id → the advised state's hash (for the label row) */
  const advised = new Map<string, string>();

  const advise = async (call: ToolCallContext, d: PermissionDecision): Promise<PermissionAdvice | undefined> => {
    const mode = jev.mode(POINT);
    if (mode === "off" || d.action !== "ask" || d.residual !== true || call.call.name.toLowerCase() !== "bash") return undefined;
    const command = typeof call.call.input.command === "string" ? call.call.input.command : "";
    const project = call.session.info.cwd || ctx.paths.project;
    const workdir = typeof call.call.input.workdir === "string" ? call.call.input.workdir : call.cwd;
    const sid = call.session.info.id;
    const state = { task: lastPrompt(call.session), command, workdir: workdir === project ? "." : workdir };
    const skip = (why: string) => {
      jev.record({ session: sid, point: POINT, mode, outcome: "fallback", verdict: "ask", baseline: "ask", latency_ms: 0, model: jev.settings().model, state_hash: stateHash(state), state, answers: `skip: ${why}` });
      return undefined;
    };
    const out = outsidePath(command, workdir, project, ctx.paths.home);
    if (out !== undefined) return skip(`a path outside the project (${out})`);
    if (command.length > COMMAND_MAX) return skip(`the command is over ${COMMAND_MAX} chars (a truncated state is never advised)`);
    const held = holdReason(command);
    const ask = { point: POINT, sessionId: sid, state, questions: PERMISSION_QUESTIONS };
    advised.set(call.call.id, stateHash(state));
    const thr = (n: string, f: number) => jev.threshold(n, f);

    if (mode === "shadow") {
      void jev.ask(ask).then((res) => {
        const v = res.ok ? permissionVerdict(res.answers, thr) : "ask";
        jev.record(rowOf(POINT, sid, mode, res, v, "ask", undefined, jev.settings().model));
      });
      return undefined;
    }
    const res = await jev.ask({ ...ask, deadlineMs: jev.settings().deadlineMs, signal: call.signal });
    const auto = headless(call.session)?.auto === true;
    if (!res.ok) {
      jev.record(rowOf(POINT, sid, mode, res, "ask", "ask", undefined, jev.settings().model));
      if (res.outcome === "injection" && auto) return { action: "deny", by: "jev", reason: `jev: the command's state tripped the injection guard; rejected under --auto (${res.reason})` };
      return undefined;
    }
    const v = permissionVerdict(res.answers, thr);
    if (v === "allow" && held) {
      jev.record(rowOf(POINT, sid, mode, res, `held: ${held}`, "ask", "held"));
      return undefined;
    }
    if (v === "allow") {
      jev.record(rowOf(POINT, sid, mode, res, "allow", "ask", "acted"));
      advised.delete(call.call.id);
      return { action: "allow", by: "jev", reason: `jev: inside the safe class (${scoreLine(res.answers)})` };
    }
    if (v === "reject" && auto) {
      jev.record(rowOf(POINT, sid, mode, res, "reject", "ask", "acted"));
      advised.delete(call.call.id);
      return { action: "deny", by: "jev", reason: `jev advised against this command under --auto: it may be destructive, send data out or reach beyond the project (${scoreLine(res.answers)})` };
    }
    jev.record(rowOf(POINT, sid, mode, res, v, "ask", "fallback"));
    return undefined;
  };
  permissions.addAdvisor(advise);

  engine.hooks.permissionAnswered.tap({ name: "jev" }, ({ ctx: call, answer }) => {
    const hash = advised.get(call.call.id);
    if (hash === undefined) return;
    advised.delete(call.call.id);
    if (headless(call.session)) return; // a host's own reply is no label
    jev.label({ session: call.session.info.id, point: POINT, state_hash: hash, label: answer === "reject" ? "deny" : "allow" });
  });
}

export const permission: JevPointModule = {
  point: POINT,
  install,
  questions: PERMISSION_QUESTIONS,
  verdict: (answers, thr) => permissionVerdict(answers, thr),
};
