/** The composer's editing model: a text value, a cursor offset, and the prompt history. Pure functions. */
import { visible } from "../terminal/sanitize.js";

export interface ComposerState {
  value: string;
  cursor: number;
  /** index into history while browsing (history.length = the draft) */
  hist: number;
  draft: string;
}

export const emptyComposer = (histLen = 0): ComposerState => ({ value: "", cursor: 0, hist: histLen, draft: "" });

export function insert(s: ComposerState, text: string): ComposerState {
  // pasted text: CR/CRLF become newlines; tabs stay; other controls and escapes are shown (and sent) as
  // their visible stand-ins, so what the user sees is what the model gets
  const t = visible(text.replace(/\r\n?/g, "\n"));
  const value = s.value.slice(0, s.cursor) + t + s.value.slice(s.cursor);
  return { ...s, value, cursor: s.cursor + t.length };
}

export function backspace(s: ComposerState): ComposerState {
  if (s.cursor === 0) return s;
  return { ...s, value: s.value.slice(0, s.cursor - 1) + s.value.slice(s.cursor), cursor: s.cursor - 1 };
}

export function del(s: ComposerState): ComposerState {
  if (s.cursor >= s.value.length) return s;
  return { ...s, value: s.value.slice(0, s.cursor) + s.value.slice(s.cursor + 1) };
}

export function move(s: ComposerState, delta: number): ComposerState {
  return { ...s, cursor: Math.max(0, Math.min(s.value.length, s.cursor + delta)) };
}

function lineStart(v: string, at: number): number {
  return v.lastIndexOf("\n", at - 1) + 1;
}
function lineEnd(v: string, at: number): number {
  const i = v.indexOf("\n", at);
  return i < 0 ? v.length : i;
}
export function home(s: ComposerState): ComposerState {
  return { ...s, cursor: lineStart(s.value, s.cursor) };
}
export function end(s: ComposerState): ComposerState {
  return { ...s, cursor: lineEnd(s.value, s.cursor) };
}

/** Cursor up/down inside a multi-line value; undefined when already on the first/last line. */
export function vertical(s: ComposerState, dir: -1 | 1): ComposerState | undefined {
  const start = lineStart(s.value, s.cursor);
  const col = s.cursor - start;
  if (dir < 0) {
    if (start === 0) return undefined;
    const prevStart = lineStart(s.value, start - 1);
    return { ...s, cursor: Math.min(prevStart + col, start - 1) };
  }
  const e = lineEnd(s.value, s.cursor);
  if (e >= s.value.length) return undefined;
  const nextEnd = lineEnd(s.value, e + 1);
  return { ...s, cursor: Math.min(e + 1 + col, nextEnd) };
}

/** Browse the history: -1 older, +1 newer. The draft is kept while browsing. */
export function browse(s: ComposerState, history: readonly string[], dir: -1 | 1): ComposerState {
  const hist = Math.max(0, Math.min(history.length, s.hist + dir));
  if (hist === s.hist) return s;
  const draft = s.hist === history.length ? s.value : s.draft;
  const value = hist === history.length ? draft : history[hist]!;
  return { value, cursor: value.length, hist, draft };
}

/** Enter pressed: a trailing backslash means "newline" (the \ + enter convention). */
export function enterMeansNewline(s: ComposerState): boolean {
  return s.cursor > 0 && s.value[s.cursor - 1] === "\\";
}
export function backslashNewline(s: ComposerState): ComposerState {
  return insert(backspace(s), "\n");
}

/** The `/` completion query: the text after `/` while the value is a single word starting with `/`. */
export function slashQuery(value: string): string | undefined {
  const m = /^\/([^\s]*)$/.exec(value);
  return m ? m[1] : undefined;
}

/** Split "/name args…" into name and args. */
export function parseSlash(text: string): { name: string; args: string } | undefined {
  const m = /^\/([A-Za-z0-9:_-]+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  return m ? { name: m[1]!, args: (m[2] ?? "").trim() } : undefined;
}
