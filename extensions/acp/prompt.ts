/**
 * session/prompt: one engine turn, its events streamed as session/update (text, tool calls and their
 * ends, usage), answered with the stopReason. session/cancel aborts the turn's controller: the engine
 * stops the step and kills a running tool's process group, and the prompt ends "cancelled".
 */
import { RequestError } from "@agentclientprotocol/sdk";
import type { PromptRequest, PromptResponse } from "@agentclientprotocol/sdk";
import { type SessionEvent } from "../engine/api.js";
import { discardCauseText } from "../engine/kit.js";
import { promptText, stopReason } from "./map.js";
import type { AcpHost, AcpSession } from "./state.js";
import { currentMode } from "./sessions.js";
import { diffContent, planUpdate, textChunk, toolCallEnd, toolCallStart } from "./updates.js";

export async function runPrompt(host: AcpHost, params: PromptRequest, requestSignal: AbortSignal): Promise<PromptResponse> {
  const s = host.sessions.get(params.sessionId);
  if (!s) throw RequestError.sessionNotFound(params.sessionId);
  if (s.turn) throw RequestError.invalidRequest({ sessionId: params.sessionId }, "a prompt is already running in this session; cancel it first (session/cancel)");
  const text = promptText(params.prompt);
  if (!text.trim()) throw RequestError.invalidParams(undefined, "the prompt has no text");
  const controller = new AbortController();
  s.turn = controller;
  let ended: () => void = () => undefined;
  s.turnEnded = new Promise<void>((resolve) => (ended = resolve));
  // a $/cancel_request for the prompt itself stops the turn as session/cancel does
  const onRequestAbort = () => controller.abort();
  requestSignal.addEventListener("abort", onRequestAbort, { once: true });
  const contextWindow = await host.engine
    .describeModel(s.session.info.model)
    .then((m) => m.contextWindow)
    .catch(() => 0);
  // host.update keeps event order; the last one sent settles after every earlier one (awaited before the answer)
  let sending: Promise<void> = Promise.resolve();
  const send = (u: Parameters<AcpHost["update"]>[1]) => {
    sending = host.update(params.sessionId, u);
  };
  const meter = { contextWindow, gauge: 0 };
  // the todo list as `plan` updates, in order with the prompt's other updates (the floor is no plan: skipped)
  let lastPlan = "";
  const unplan = host.todos?.subscribe((list) => {
    if (list.sessionId !== params.sessionId) return;
    const u = planUpdate(list);
    const key = JSON.stringify(u);
    if (key === lastPlan || (list.floor && lastPlan === "")) return;
    lastPlan = key;
    send(u);
  });
  const onEvent = (e: SessionEvent) => {
    if (e.sessionId !== params.sessionId) return; // a sub-agent's events stay inside its parent's tool call
    forward(host, s, e, meter, send);
  };
  // plan_exit approved during the prompt leaves the plan agent: the editor is told the mode that holds now
  const modeBefore = host.permissions ? currentMode(host, s) : undefined;
  try {
    const result = await host.engine.prompt(s.session, text, { signal: controller.signal, onEvent });
    await sending;
    const modeAfter = host.permissions ? currentMode(host, s) : undefined;
    if (modeAfter !== modeBefore && modeAfter !== undefined) await host.update(params.sessionId, { sessionUpdate: "current_mode_update", currentModeId: modeAfter });
    if (result.reason === "error") throw RequestError.internalError({ turn: result.turn }, result.error ?? "the turn failed");
    if (result.reason === "blocked") {
      // a hook refused the prompt: the editor shows why as the agent's answer
      await host.update(params.sessionId, textChunk("agent_message_chunk", `[prompt blocked: ${result.error ?? "by a hook"}]`));
    }
    return { stopReason: controller.signal.aborted ? "cancelled" : stopReason(result.reason) };
  } finally {
    unplan?.();
    requestSignal.removeEventListener("abort", onRequestAbort);
    s.turn = undefined;
    s.open.clear();
    s.shown.clear();
    s.asked.clear();
    ended();
  }
}

/** The window size the last step left, and the model's context window, for usage_update. */
interface Meter {
  contextWindow: number;
  gauge: number;
}

function forward(host: AcpHost, s: AcpSession, e: SessionEvent, meter: Meter, send: (u: Parameters<AcpHost["update"]>[1]) => void): void {
  switch (e.type) {
    case "text_delta":
      send(textChunk("agent_message_chunk", e.text));
      break;
    case "discard":
      // ACP cannot take streamed text back: say that what follows replaces it
      send(textChunk("agent_message_chunk", `\n[${e.reason === "retry" ? "retrying" : "discarded"}: ${discardCauseText(e.cause)}]\n`));
      break;
    case "tool_call_start":
      s.open.set(e.call.id, e.call);
      s.shown.set(e.call.id, diffContent(e.call, s.session.info.cwd)); // read now, before the call changes the file
      send(toolCallStart(e.call, s.session.info.cwd, s.shown.get(e.call.id)));
      break;
    case "tool_call_end":
      s.open.delete(e.call.id);
      send(toolCallEnd(e.result, s.shown.get(e.call.id)));
      s.shown.delete(e.call.id);
      break;
    case "step_end":
      meter.gauge = e.gaugeTokens;
      break;
    case "usage":
      // follows each step_end with the session's totals: the window in use, its size, and the cost so far
      if (meter.contextWindow > 0) send({ sessionUpdate: "usage_update", used: meter.gauge, size: meter.contextWindow, cost: { amount: e.totals.costUsd, currency: "USD" } });
      break;
    case "notice":
      // stdout is the protocol's: info goes to the log (stderr); warnings and errors are shown to the user as thoughts
      if (e.level === "info") host.log.info(`acp: ${e.text}`);
      else send({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: `[${e.level}] ${e.text}\n` } });
      break;
    default:
      break;
  }
}

/** session/cancel: stop the session's running turn (no-op when none runs). */
export function cancelTurn(host: AcpHost, sessionId: string): void {
  host.sessions.get(sessionId)?.turn?.abort();
}
