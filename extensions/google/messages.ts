/**
 * Our rows -> Gemini `contents`. Pure and append-only: the contents for a longer window start with the
 * contents for a shorter one (a merged user turn only gains parts at its end), so Gemini's implicit
 * prefix cache hits.
 *
 * Call ids: Gemini 3 sends an id with each functionCall and wants it back on the functionResponse;
 * older models send none, so the provider makes one up (SYNTHETIC_ID_PREFIX) and that one is never sent
 * back: there the API pairs responses with calls by order and name.
 */
import type { Content, GenerateContentParameters, Part } from "@google/genai/web";
import type { ModelRequest, Row } from "../engine/api.js";

/** ids the provider made up for calls that came without one */
export const SYNTHETIC_ID_PREFIX = "gemini_call_";
/** Google's documented placeholder for a call whose thought signature is gone (a resumed session on Gemini 3) */
export const SKIP_SIGNATURE = "skip_thought_signature_validator";

/** inlineData media types the Gemini API takes for images */
const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/webp", "image/heic", "image/heif"]);

export interface ContentOptions {
  /** the thought signature the model sent with a call id (kept by the provider for this process) */
  signature(callId: string): string | undefined;
  /** Gemini 3 refuses a function call without a signature in the current turn */
  needsSignature: boolean;
}

function wireId(id: string): string | undefined {
  return id.startsWith(SYNTHETIC_ID_PREFIX) ? undefined : id;
}

function text(t: string): Part {
  return { text: t === "" ? "(empty)" : t };
}

function image(img: { mediaType: string; data: string }): Part {
  if (!IMAGE_TYPES.has(img.mediaType)) return text(`[an image of type ${img.mediaType} was attached; Gemini takes png, jpeg, webp, heic or heif]`);
  return { inlineData: { mimeType: img.mediaType, data: img.data } };
}

export function toContents(rows: readonly Row[], opts: ContentOptions): Content[] {
  const out: Content[] = [];
  const pending = new Map<string, string>(); // call id -> tool name, awaiting a functionResponse
  const known = new Set<string>();
  const add = (role: "user" | "model", parts: Part[]) => {
    const last = out[out.length - 1];
    if (last && last.role === role) last.parts!.push(...parts);
    else out.push({ role, parts });
  };
  // every functionCall must be answered in the next user turn, one functionResponse each
  const closeOrphans = (): Part[] => {
    const parts: Part[] = [];
    for (const [id, name] of pending) parts.push({ functionResponse: { ...(wireId(id) ? { id } : {}), name, response: { error: "(no result: the call was interrupted)" } } });
    pending.clear();
    return parts;
  };
  for (const row of rows) {
    switch (row.role) {
      case "user": {
        const parts = [...closeOrphans(), text(row.text)];
        for (const c of row.context ?? []) if (c) parts.push(text(c));
        for (const img of row.images ?? []) parts.push(image(img));
        add("user", parts);
        break;
      }
      case "note":
        add("user", [...closeOrphans(), text(row.text)]);
        break;
      case "assistant": {
        const orphans = closeOrphans();
        if (orphans.length) add("user", orphans);
        const parts: Part[] = [];
        if (row.text) parts.push({ text: row.text });
        row.toolCalls.forEach((c, i) => {
          const id = wireId(c.id);
          const part: Part = { functionCall: { ...(id ? { id } : {}), name: c.name, args: c.input } };
          // the signature rides on the first call of a step (Gemini puts it there for parallel calls)
          const sig = opts.signature(c.id) ?? (opts.needsSignature && i === 0 ? SKIP_SIGNATURE : undefined);
          if (sig) part.thoughtSignature = sig;
          parts.push(part);
          pending.set(c.id, c.name);
          known.add(c.id);
        });
        if (!parts.length) parts.push({ text: "(no content)" });
        add("model", parts);
        break;
      }
      case "tool": {
        const parts: Part[] = [];
        const images: Part[] = [];
        for (const r of row.results) {
          const content = r.content === "" ? "(no output)" : r.content;
          if (known.has(r.callId) && pending.has(r.callId)) {
            const id = wireId(r.callId);
            parts.push({ functionResponse: { ...(id ? { id } : {}), name: r.name, response: r.isError ? { error: content } : { output: content } } });
            pending.delete(r.callId);
            // a tool's images (an MCP tool's image content) follow the responses as inline data
            for (const img of r.images ?? []) images.push(image(img));
          } else {
            // its call left the window: the output as text (a functionResponse without its call is refused)
            parts.push(text(`[earlier ${r.name} result${r.isError ? ", an error" : ""}]\n${content}`));
          }
        }
        parts.unshift(...closeOrphans());
        add("user", [...parts, ...images]);
        break;
      }
    }
  }
  // the API wants the conversation to open with a user turn
  if (out[0]?.role === "model") out.unshift({ role: "user", parts: [text("(earlier conversation left the window)")] });
  return out;
}

export function toGeminiRequest(req: ModelRequest, opts: ContentOptions): GenerateContentParameters {
  const system = req.system.filter((s) => s !== "").join("\n\n");
  const functionDeclarations = req.tools.map((t) => ({ name: t.name, description: t.description, parametersJsonSchema: t.inputSchema }));
  return {
    model: req.model.name,
    contents: toContents(req.rows, opts),
    config: {
      ...(system ? { systemInstruction: { parts: [{ text: system }] } } : {}),
      ...(functionDeclarations.length ? { tools: [{ functionDeclarations }] } : {}),
      maxOutputTokens: req.maxOutputTokens,
      // the engine runs the tools and owns the loop; one request per step
      automaticFunctionCalling: { disable: true },
      automaticContinuation: false,
    },
  };
}
