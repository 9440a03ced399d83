/**
 * Our rows -> an Anthropic Messages request, with prompt-cache markers placed so that a growing window
 * only appends: the request for step n+1 is the request for step n plus new blocks at the end.
 *
 * Markers (at most 3 of the API's 4): the last system block (covers tools + system), the last block of
 * the last message (the moving breakpoint: this request's write), and the last block of the user message
 * before it (exactly where the previous request's moving breakpoint sat, so its write is read back even
 * when this step appended many blocks).
 */
import type Anthropic from "@anthropic-ai/sdk";
import type { ModelRequest, Row } from "../engine/api.js";

type MessageParam = Anthropic.MessageParam;
type Block = Anthropic.ContentBlockParam;
type TextBlock = Anthropic.TextBlockParam;
export type CacheTtl = "1h" | "5m" | "off";

export function toMessages(rows: readonly Row[]): MessageParam[] {
  const out: Array<{ role: "user" | "assistant"; content: Block[] }> = [];
  const pending = new Map<string, string>(); // tool_use ids awaiting a result -> tool name
  const known = new Set<string>();
  const add = (role: "user" | "assistant", blocks: Block[]) => {
    const last = out[out.length - 1];
    if (last && last.role === role) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  };
  // an assistant turn whose tool_use got no result (an interrupted step) must still be answered
  const closeOrphans = (): Block[] => {
    const blocks: Block[] = [];
    for (const [id] of pending) blocks.push({ type: "tool_result", tool_use_id: id, content: "(no result: the call was interrupted)", is_error: true });
    pending.clear();
    return blocks;
  };
  for (const row of rows) {
    switch (row.role) {
      case "user": {
        const blocks: Block[] = [...closeOrphans(), text(row.text)];
        for (const c of row.context ?? []) if (c) blocks.push(text(c));
        // images the user attached (a pager @image.png) follow the text
        for (const img of row.images ?? []) blocks.push(imageBlock(img));
        add("user", blocks);
        break;
      }
      case "note":
        add("user", [...closeOrphans(), text(row.text)]);
        break;
      case "assistant": {
        const orphans = closeOrphans();
        if (orphans.length) add("user", orphans);
        const blocks: Block[] = [];
        if (row.text) blocks.push({ type: "text", text: row.text });
        for (const c of row.toolCalls) {
          blocks.push({ type: "tool_use", id: c.id, name: c.name, input: c.input });
          pending.set(c.id, c.name);
          known.add(c.id);
        }
        if (!blocks.length) blocks.push({ type: "text", text: "(no content)" });
        add("assistant", blocks);
        break;
      }
      case "tool": {
        const blocks: Block[] = [];
        for (const r of row.results) {
          const content = r.content === "" ? "(no output)" : r.content;
          if (known.has(r.callId)) {
            // images (an MCP tool's image content) follow the text inside the tool_result
            const body = r.images?.length ? [text(content), ...r.images.map(imageBlock)] : content;
            blocks.push(r.isError ? { type: "tool_result", tool_use_id: r.callId, content: body, is_error: true } : { type: "tool_result", tool_use_id: r.callId, content: body });
            pending.delete(r.callId);
          } else {
            // its tool_use left the window: keep the output as text (the API refuses an orphan tool_result)
            blocks.push(text(`[earlier ${r.name} result${r.isError ? ", an error" : ""}]\n${content}`));
          }
        }
        // tool_result blocks must open the user message that follows the tool_use
        blocks.unshift(...closeOrphans());
        add("user", blocks);
        break;
      }
    }
  }
  // the API requires the conversation to open with a user message
  if (out[0]?.role === "assistant") out.unshift({ role: "user", content: [text("(earlier conversation left the window)")] });
  return out;
}

function text(t: string): TextBlock {
  return { type: "text", text: t === "" ? "(empty)" : t };
}

const IMAGE_TYPES = new Set(["image/jpeg", "image/png", "image/gif", "image/webp"]);
/** A tool result's image as an image block; a media type the API does not take is named as text instead. */
function imageBlock(img: { mediaType: string; data: string }): Anthropic.ImageBlockParam | TextBlock {
  if (!IMAGE_TYPES.has(img.mediaType)) return text(`[an image of type ${img.mediaType} was returned; this provider takes jpeg, png, gif or webp]`);
  return { type: "image", source: { type: "base64", media_type: img.mediaType as "image/png", data: img.data } };
}

function mark(block: Block | Anthropic.ToolUnion | undefined, ttl: CacheTtl): void {
  if (!block || ttl === "off") return;
  (block as { cache_control?: Anthropic.CacheControlEphemeral }).cache_control = ttl === "1h" ? { type: "ephemeral", ttl: "1h" } : { type: "ephemeral" };
}

export function toAnthropicRequest(req: ModelRequest, ttl: CacheTtl): Anthropic.MessageCreateParamsStreaming {
  const system: TextBlock[] = req.system.filter((s) => s !== "").map((s) => ({ type: "text", text: s }));
  const tools: Anthropic.Tool[] = req.tools.map((t) => ({
    name: t.name,
    description: t.description,
    input_schema: t.inputSchema as Anthropic.Tool.InputSchema,
  }));
  const messages = toMessages(req.rows);

  if (system.length) mark(system[system.length - 1], ttl);
  else mark(tools[tools.length - 1], ttl);
  const last = messages[messages.length - 1];
  if (last) mark(lastBlock(last), ttl);
  for (let i = messages.length - 2; i >= 0; i--) {
    if (messages[i]!.role === "user") {
      mark(lastBlock(messages[i]!), ttl);
      break;
    }
  }
  return {
    model: req.model.name,
    max_tokens: req.maxOutputTokens,
    ...(system.length ? { system } : {}),
    ...(tools.length ? { tools } : {}),
    messages,
    stream: true,
  };
}

function lastBlock(m: MessageParam): Block | undefined {
  return Array.isArray(m.content) ? (m.content[m.content.length - 1] as Block | undefined) : undefined;
}
