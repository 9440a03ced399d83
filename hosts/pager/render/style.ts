/**
 * Our own SGR, added to text that is already display-safe. A span is text plus the look it gets; each
 * span is written as its open codes, the text, and a full reset, so no style can leak into the next span
 * or row, whatever was cut where. With colour off (NO_COLOR) bold, italic and underline stay; colours go.
 */
import stringWidth from "string-width";

export type Colour = "red" | "green" | "yellow" | "blue" | "magenta" | "cyan" | "gray" | "white" | "brightBlue" | "brightCyan" | "brightGreen" | "brightRed";
export type Background = "addWord" | "delWord" | "add" | "del" | "code";

export interface Look {
  bold?: boolean;
  dim?: boolean;
  italic?: boolean;
  underline?: boolean;
  strike?: boolean;
  fg?: Colour;
  bg?: Background;
  /** an OSC 8 target (only written when the paint allows links) */
  link?: string;
}

export interface Span {
  text: string;
  look?: Look;
}

/** How output is painted: colours on or off, OSC 8 links on or off. */
export interface Paint {
  color: boolean;
  links: boolean;
}

const FG: Record<Colour, string> = {
  red: "31",
  green: "32",
  yellow: "33",
  blue: "34",
  magenta: "35",
  cyan: "36",
  white: "37",
  gray: "90",
  brightRed: "91",
  brightGreen: "92",
  brightBlue: "94",
  brightCyan: "96",
};
// 256-colour backgrounds: dark red/green rows for a diff, brighter for the changed words
const BG: Record<Background, string> = { del: "48;5;52", add: "48;5;22", delWord: "48;5;88", addWord: "48;5;28", code: "48;5;236" };

export const RESET = "\x1b[0m";

export function sgrOpen(look: Look, paint: Paint): string {
  const codes: string[] = [];
  if (look.bold) codes.push("1");
  if (look.dim && paint.color) codes.push("2");
  if (look.italic) codes.push("3");
  if (look.underline) codes.push("4");
  if (look.strike) codes.push("9");
  if (paint.color && look.fg) codes.push(FG[look.fg]);
  if (paint.color && look.bg) codes.push(BG[look.bg]);
  // one sequence per attribute: ink re-reads styled text and keeps only simple sequences whole
  return codes.map((c) => `\x1b[${c}m`).join("");
}

/** Only plain web and mail targets become links; anything else (javascript:, file:, odd bytes) stays text. */
export function safeLinkTarget(url: string): string | undefined {
  if (!/^(https?:\/\/|mailto:)[\x21-\x7e]+$/.test(url)) return undefined;
  return url.length > 2000 ? undefined : url;
}

/** One span as terminal text. */
export function paintSpan(s: Span, paint: Paint): string {
  if (!s.text) return "";
  const look = s.look;
  if (!look) return s.text;
  const open = sgrOpen(look, paint);
  const target = paint.links && look.link ? safeLinkTarget(look.link) : undefined;
  let body = open ? `${open}${s.text}${RESET}` : s.text;
  if (target) body = `\x1b]8;;${target}\x1b\\${body}\x1b]8;;\x1b\\`;
  return body;
}

export function paintSpans(spans: readonly Span[], paint: Paint): string {
  let out = "";
  for (const s of spans) out += paintSpan(s, paint);
  return out;
}

/** Terminal cells of plain (unpainted) text. Fast path for ASCII, string-width for the rest. */
export function cells(text: string): number {
  // eslint-disable-next-line no-control-regex
  if (/^[\x20-\x7e]*$/.test(text)) return text.length;
  return stringWidth(text);
}

/** Strip our SGR and OSC 8 from painted text (tests, widths of painted rows). */
export function unpaint(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\x1b\[[0-9;]*m|\x1b\]8;;[^\x1b]*\x1b\\/g, "");
}
