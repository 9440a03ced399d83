/**
 * Our rows -> chat completions messages. Pure and append-only: the messages for a longer window start
 * with the messages for a shorter one, so OpenAI's automatic prefix cache (and local servers' KV cache) hits.
 */
import type OpenAI from "openai";
import type { ModelRequest, Row } from "../engine/api.js";

type Message = OpenAI.Chat.ChatCompletionMessageParam;

export function toChatMessages(system: readonly string[], rows: readonly Row[]): Message[] {
  const out: Message[] = [];
  const sys = system.filter((s) => s !== "").join("\n\n");
  if (sys) out.push({ role: "system", content: sys });
  const pending = new Set<string>();
  const known = new Set<string>();
  // every tool_call must be answered before the conversation goes on
  const closeOrphans = () => {
    for (const id of pending) out.push({ role: "tool", tool_call_id: id, content: "(no result: the call was interrupted)" });
    pending.clear();
  };
  const user = (text: string) => {
    closeOrphans();
    const last = out[out.length - 1];
    // consecutive user messages merge: some local chat templates require alternating roles
    if (last?.role === "user" && typeof last.content === "string") last.content += `\n\n${text}`;
    else out.push({ role: "user", content: text });
  };
  for (const row of rows) {
    switch (row.role) {
      case "user":
        // this route sends text only: an attached image is named, not sent
        user([row.text, ...(row.context ?? []).filter(Boolean), ...(row.images ?? []).map((i) => `[an ${i.mediaType} image was attached; this provider route takes text only]`)].join("\n\n") || "(empty)");
        break;
      case "note":
        user(row.text || "(empty)");
        break;
      case "assistant": {
        closeOrphans();
        const calls = row.toolCalls.map((c) => {
          pending.add(c.id);
          known.add(c.id);
          return { id: c.id, type: "function" as const, function: { name: c.name, arguments: JSON.stringify(c.input) } };
        });
        out.push(calls.length ? { role: "assistant", content: row.text || null, tool_calls: calls } : { role: "assistant", content: row.text });
        break;
      }
      case "tool":
        for (const r of row.results) {
          const content = `${r.isError ? "Error: " : ""}${r.content || "(no output)"}`;
          if (known.has(r.callId)) {
            out.push({ role: "tool", tool_call_id: r.callId, content });
            pending.delete(r.callId);
          } else user(`[earlier ${r.name} result]\n${content}`);
        }
        break;
    }
  }
  return out;
}

export function toChatRequest(req: ModelRequest, opts: { officialEndpoint: boolean }): OpenAI.Chat.ChatCompletionCreateParamsStreaming {
  const tools: OpenAI.Chat.ChatCompletionTool[] = req.tools.map((t) => ({
    type: "function",
    function: { name: t.name, description: t.description, parameters: t.inputSchema },
  }));
  return {
    model: req.model.name,
    messages: toChatMessages(req.system, req.rows),
    ...(tools.length ? { tools } : {}),
    // api.openai.com wants max_completion_tokens (reasoning models refuse max_tokens); local servers know max_tokens
    ...(opts.officialEndpoint ? { max_completion_tokens: req.maxOutputTokens } : { max_tokens: req.maxOutputTokens }),
    stream: true,
    stream_options: { include_usage: true },
  };
}
