/**
 * Code colours: lowlight (highlight.js grammars, the common set) gives a hast tree, which becomes one
 * row of spans per code line. The grammars are loaded on first need, off the start path (about 70 ms):
 * `loadHighlighter()` starts it; until it is done code shows uncoloured. Only the code fence's language
 * tag picks a grammar (no guessing: auto-detection runs every grammar over the text).
 */
import type { Colour, Look, Span } from "./style.js";

interface HastText {
  type: "text";
  value: string;
}
interface HastElement {
  type: "element";
  properties?: { className?: unknown };
  children: HastNode[];
}
type HastNode = HastText | HastElement | { type: string; children?: HastNode[] };
interface Lowlight {
  highlight(lang: string, code: string): { children: HastNode[] };
  registered(lang: string): boolean;
}

let instance: Lowlight | undefined;
let loading: Promise<void> | undefined;

/** Load the grammars once (later calls return the same promise). */
export function loadHighlighter(): Promise<void> {
  loading ??= import("lowlight").then((m) => {
    instance = m.createLowlight(m.common) as unknown as Lowlight;
  });
  return loading;
}

export function highlighterReady(): boolean {
  return instance !== undefined;
}

const CLASS_FG: Record<string, Colour> = {
  keyword: "magenta",
  "selector-tag": "magenta",
  built_in: "cyan",
  type: "cyan",
  class: "cyan",
  string: "green",
  regexp: "green",
  symbol: "green",
  char: "green",
  addition: "green",
  number: "yellow",
  literal: "yellow",
  "template-variable": "yellow",
  comment: "gray",
  quote: "gray",
  meta: "gray",
  doctag: "gray",
  title: "blue",
  function: "blue",
  section: "blue",
  "selector-id": "blue",
  attr: "cyan",
  attribute: "cyan",
  property: "cyan",
  variable: "red",
  "template-tag": "red",
  name: "red",
  tag: "red",
  deletion: "red",
  bullet: "yellow",
  link: "blue",
};

function lookOf(classes: unknown, parent: Look | undefined): Look | undefined {
  if (!Array.isArray(classes)) return parent;
  for (const c of classes) {
    if (typeof c !== "string" || !c.startsWith("hljs-")) continue;
    const name = c.slice(5);
    const fg = CLASS_FG[name] ?? CLASS_FG[name.split(".")[0]!];
    if (fg) return { fg, ...(name === "comment" ? { italic: true } : {}) };
  }
  return parent;
}

/**
 * The code as rows of coloured spans, or undefined when there is no grammar for `lang` (or the grammars
 * are not loaded yet): the caller shows it uncoloured.
 */
export function highlightRows(code: string, lang: string | undefined): Span[][] | undefined {
  const hl = instance;
  const name = (lang ?? "").trim().toLowerCase().split(/[\s{,]/)[0] ?? "";
  if (!hl || !name || !hl.registered(name)) return undefined;
  let tree: { children: HastNode[] };
  try {
    tree = hl.highlight(name, code);
  } catch {
    return undefined;
  }
  const rows: Span[][] = [[]];
  const walk = (nodes: readonly HastNode[], look: Look | undefined) => {
    for (const n of nodes) {
      if (n.type === "text") {
        const parts = (n as HastText).value.split("\n");
        parts.forEach((p, i) => {
          if (i > 0) rows.push([]);
          if (p) rows[rows.length - 1]!.push(look ? { text: p, look } : { text: p });
        });
      } else if (n.type === "element") {
        const el = n as HastElement;
        walk(el.children, lookOf(el.properties?.className, look));
      } else if ("children" in n && n.children) walk(n.children, look);
    }
  };
  walk(tree.children, undefined);
  return rows;
}
