/** Inline markdown tokens (marked's lexer output) as styled spans. */
import type { Token } from "marked";
import type { Look, Paint, Span } from "./style.js";

const CODE: Look = { fg: "brightBlue" };

function withLook(base: Look | undefined, add: Look): Look {
  return { ...(base ?? {}), ...add };
}

/** Spans for inline tokens under `look` (the style of the block around them). */
export function inlineSpans(tokens: readonly Token[] | undefined, paint: Paint, look?: Look): Span[] {
  const out: Span[] = [];
  const add = (text: string, l: Look | undefined) => {
    if (text) out.push(l ? { text, look: l } : { text });
  };
  for (const t of tokens ?? []) {
    switch (t.type) {
      case "strong":
        out.push(...inlineSpans(t.tokens, paint, withLook(look, { bold: true })));
        break;
      case "em":
        out.push(...inlineSpans(t.tokens, paint, withLook(look, { italic: true })));
        break;
      case "del":
        out.push(...inlineSpans(t.tokens, paint, withLook(look, { strike: true })));
        break;
      case "codespan":
        add(String(t.text), withLook(look, CODE));
        break;
      case "br":
        add("\n", look);
        break;
      case "link": {
        const href = String(t.href ?? "");
        const linkLook = withLook(look, { underline: true, fg: "blue", link: href });
        const inner = inlineSpans(t.tokens, paint, linkLook);
        out.push(...inner);
        const shown = inner.map((s) => s.text).join("");
        // without OSC 8 the target is said after the text (unless the text is the target)
        if (!paint.links && href && shown !== href && shown !== href.replace(/^mailto:/, "")) add(` (${href})`, withLook(look, { dim: true }));
        break;
      }
      case "image":
        add(`[image: ${String(t.text || "")}]`, withLook(look, { dim: true }));
        if (t.href) add(` (${String(t.href)})`, withLook(look, { dim: true }));
        break;
      case "text":
        if ("tokens" in t && Array.isArray(t.tokens) && t.tokens.length) out.push(...inlineSpans(t.tokens, paint, look));
        else add(decodeEntities(String(t.text)), look);
        break;
      case "escape":
        add(String(t.text), look);
        break;
      default:
        // html and anything unknown: its source text, as typed
        add(String((t as { raw?: string }).raw ?? ""), look);
    }
  }
  return out;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", apos: "'", nbsp: " " };

/** The few named entities models write (marked's lexer leaves them as typed). */
function decodeEntities(s: string): string {
  if (!s.includes("&")) return s;
  return s.replace(/&(amp|lt|gt|quot|#39|apos|nbsp);/g, (_, n: string) => ENTITIES[n] ?? _);
}
