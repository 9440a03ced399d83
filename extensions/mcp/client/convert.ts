/**
 * An MCP tools/call result -> the engine's ToolOutput, keeping every content type: text as text, images
 * as images (image blocks to providers that take them), embedded resources as their text (a blob is
 * named, not inlined), resource links as a line, audio named; `structuredContent` as JSON text when the
 * result has no text; `isError` stays an error.
 */
import type { ToolImage, ToolOutput } from "../../engine/api.js";

/** The parts of an MCP CallToolResult this reads (the SDK's type is wider and version-dependent). */
export interface McpCallResult {
  content?: unknown[];
  structuredContent?: unknown;
  isError?: boolean;
  /** the pre-2025 shape: `{ toolResult }` */
  toolResult?: unknown;
}

type Block = { type?: unknown; text?: unknown; data?: unknown; mimeType?: unknown; resource?: unknown; uri?: unknown; name?: unknown };

function resourceText(r: Record<string, unknown>): string {
  const uri = typeof r.uri === "string" ? r.uri : "(no uri)";
  if (typeof r.text === "string") return `[resource ${uri}]\n${r.text}`;
  if (typeof r.blob === "string") return `[resource ${uri}: ${typeof r.mimeType === "string" ? r.mimeType : "binary"}, ${Math.floor((r.blob.length * 3) / 4)} bytes, not shown]`;
  return `[resource ${uri}]`;
}

export function toToolOutput(result: McpCallResult): ToolOutput {
  const texts: string[] = [];
  const images: ToolImage[] = [];
  for (const raw of Array.isArray(result.content) ? result.content : []) {
    const b = (raw ?? {}) as Block;
    switch (b.type) {
      case "text":
        texts.push(typeof b.text === "string" ? b.text : "");
        break;
      case "image":
        if (typeof b.data === "string") images.push({ mediaType: typeof b.mimeType === "string" ? b.mimeType : "image/png", data: b.data });
        break;
      case "resource":
        texts.push(resourceText((b.resource ?? {}) as Record<string, unknown>));
        break;
      case "resource_link":
        texts.push(`[resource link ${typeof b.name === "string" ? `${b.name} ` : ""}${typeof b.uri === "string" ? b.uri : ""}]`);
        break;
      case "audio":
        texts.push(`[audio ${typeof b.mimeType === "string" ? b.mimeType : ""} returned; not shown]`);
        break;
      default:
        texts.push(`[${String(b.type)} content]`);
    }
  }
  const hasText = texts.some((t) => t !== "");
  if (!hasText && result.structuredContent !== undefined) texts.push(JSON.stringify(result.structuredContent));
  if (!texts.length && result.toolResult !== undefined) texts.push(typeof result.toolResult === "string" ? result.toolResult : JSON.stringify(result.toolResult));
  const content = texts.join("\n") || (images.length ? "" : "(no content)");
  return { content, ...(images.length ? { images } : {}), ...(result.isError ? { isError: true } : {}) };
}
