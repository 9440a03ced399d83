/**
 * Point 4, `triage` (jev.triage): a failed bash command (engine.toolResult, non-zero exit).
 *   - a deterministic env_missing signal (exit 127, "command not found", a missing module): the hint
 *     line appended without a request (one row, answers "deterministic env_missing"); a failing install
 *     command passes (fallback / pass); in shadow the row only (shadow / hint);
 *   - else one choice flaky | env_missing | real_failure over the command and ≤ 12 KB of failing output:
 *     in act flaky → the command re-run once and the re-run reported (a decision row, then an acted row
 *     "rerun exit=<code>"); env_missing → the hint ("a command"); real_failure → pass. Shadow: background.
 */
import type { ExtensionContext } from "../../../kernel/api.js";
import type { ToolCallContext, ToolResult } from "../../engine/api.js";
import type { JevPointModule, JevService } from "../api.js";
import { stateHash } from "../state.js";
import { rowOf } from "./common.js";
import { holdReason } from "./permission-policy.js";
import { envMissing, exitCodeOf, hintLine, OUTPUT_MAX, triageVerdict, TRIAGE_QUESTIONS } from "./triage-policy.js";
import { JevToolUnknown } from "../errors.js";

const POINT = "triage" as const;

function tail(s: string, max: number): string {
  const b = Buffer.from(s, "utf8");
  return b.length <= max ? s : `[truncated ${b.length - max} bytes]${b.subarray(b.length - max).toString("utf8")}`;
}

export function install(ctx: ExtensionContext, jev: JevService): void {
  const engine = ctx.services.tryGet("engine");
  if (!engine) return;
  const rerun = async (call: ToolCallContext): Promise<string> => {
    if (!call.tool) throw JevToolUnknown();
    const out = await call.tool.run(call.call.input, {
      session: call.session.info,
      call: call.call,
      cwd: call.cwd,
      signal: call.signal,
      state: new Map(),
      prepareSpawn: (spec) => engine.hooks.childProcess.call({ ...spec, env: spec.env ?? { ...process.env } }, { sessionId: call.session.info.id }),
    });
    return out.content;
  };

  engine.hooks.toolResult.tap({ name: "jev", stage: "observe" }, async (result: ToolResult, call: ToolCallContext): Promise<ToolResult> => {
    const mode = jev.mode(POINT);
    if (mode === "off" || result.name.toLowerCase() !== "bash" || !result.isError) return result;
    const code = exitCodeOf(result.content);
    if (code === undefined || code === 0) return result;
    const command = typeof call.call.input.command === "string" ? call.call.input.command : "";
    const sid = call.session.info.id;
    const model = jev.settings().model;
    const state = { command, exit_code: code, output: tail(result.content, OUTPUT_MAX) };
    const env = envMissing(command, result.content, code);
    if (env) {
      const install = holdReason(command)?.startsWith("package install") === true;
      const outcome = install ? "fallback" : mode === "shadow" ? "shadow" : "acted";
      const verdict = install ? "pass" : "hint";
      jev.record({ session: sid, point: POINT, mode, outcome, verdict, baseline: "pass", latency_ms: 0, model, state_hash: stateHash(state), state, answers: "deterministic env_missing" });
      if (outcome !== "acted") return result;
      return { ...result, content: `${result.content}\n${hintLine(env.name, code)}` };
    }
    const ask = { point: POINT, sessionId: sid, state, questions: TRIAGE_QUESTIONS };
    const thr = (n: string, f: number) => jev.threshold(n, f);
    if (mode === "shadow") {
      void jev.ask(ask).then((res) => jev.record(rowOf(POINT, sid, mode, res, res.ok ? triageVerdict(res.answers, thr) : "pass", "pass", undefined, model)));
      return result;
    }
    const res = await jev.ask({ ...ask, signal: call.signal });
    const v = res.ok ? triageVerdict(res.answers, thr) : "pass";
    jev.record(rowOf(POINT, sid, mode, res, v, "pass", res.ok ? (v === "pass" ? "fallback" : "acted") : undefined, model));
    if (!res.ok || v === "pass") return result;
    if (v === "hint") return { ...result, content: `${result.content}\n${hintLine(undefined, code)}` };
    let note: string;
    try {
      const again = await rerun(call);
      const c2 = exitCodeOf(again);
      note = `rerun exit=${c2 ?? "?"}`;
      jev.record({ session: sid, point: POINT, mode, outcome: "acted", verdict: "rerun", baseline: "pass", latency_ms: 0, model, state_hash: res.stateHash, state: res.state, answers: note });
      return { ...result, content: `${result.content}\n\njev triage: the failure looked flaky; re-ran the command once:\n${tail(again, OUTPUT_MAX)}`, isError: c2 !== 0 };
    } catch (e) {
      note = `rerun refused: ${e instanceof Error ? e.message : String(e)}`;
      jev.record({ session: sid, point: POINT, mode, outcome: "acted", verdict: "rerun", baseline: "pass", latency_ms: 0, model, state_hash: res.stateHash, state: res.state, answers: note });
      return result;
    }
  });
}

export const triage: JevPointModule = {
  point: POINT,
  install,
  questions: TRIAGE_QUESTIONS,
  verdict: (answers, thr) => triageVerdict(answers, thr),
};
