/**
 * The safe-output kit: every human-readable line printed from repo or model text goes through it, whether
 * stdout is a terminal or a pipe (a pipe is often a terminal later: `| less -R`, `| tee`, a CI log viewer).
 *
 * The terminal renders text, never commands. Untrusted text (model text, tool output, tool names and
 * inputs, file names, hook and MCP output, notices and errors quoting them) goes through `visible()`
 * before any host writes it to a terminal. Every character a terminal could act on is replaced by a
 * visible stand-in, so an escape sequence shows up as text the user can read instead of running:
 *
 *   ESC ] 52 ; c ; aGk= BEL   ->  ␛]52;c;aGk=␇          (OSC 52: would have set the clipboard)
 *   ESC [ 2 J                 ->  ␛[2J                   (CSI: would have cleared the screen)
 *   U+009B 3 1 m              ->  <U+009B>31m            (8-bit CSI)
 *   U+202E                    ->  <U+202E>               (bidi override: Trojan Source)
 *
 * Replacing the introducer (ESC, or the C1 code point) is enough for every sequence family (CSI incl.
 * private and SGR, OSC ended by BEL or ST, DCS/APC/PM/SOS strings, two-character ESC sequences, the
 * 8-bit forms): what follows it is printable and a terminal shows it as such. The mapping is per
 * character, so it needs no parser state and cannot be confused by a sequence cut short or split across
 * chunks (except CR LF, see VisibleStream).
 *
 * Kept as they are: \n and \t (in `oneLine` mode they become ␤ and ␉), all printable text, emoji and
 * joiners. CR LF becomes \n; a bare CR becomes ␍, because a terminal would move to the start of the line
 * and let the next text overwrite what is already there (a "this is safe" line printed over a command).
 * The stored transcript never goes through this: storage, the ledger and JSON output keep exact text.
 *
 * `json: true` writes the stand-ins of C1, bidi and separator characters as JSON escapes (`\u009b`), so a
 * stream that carries JSON.stringify output stays valid JSON with the exact strings (JSON.stringify already
 * escapes C0, and outside strings its output is ASCII); C0 still becomes Control Pictures. `safeJson()` is
 * JSON.stringify with those escapes applied, for JSON a command prints.
 */

/** C0 controls but \t and \n, DEL, C1, bidi marks/embeddings/overrides/isolates, line and paragraph separators */
const UNSAFE = /\r\n|[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** the same plus \t and \n, for text that must stay on one row */
const UNSAFE_LINE = /\r\n|[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const TEST = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const TEST_LINE = /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

export interface VisibleOptions {
  /** render \n as ␤ and \t as ␉ too (tool names, commands in a header, status lines) */
  oneLine?: boolean;
  /** C1, bidi and separator characters as JSON escapes (`\u202e`) instead of `<U+202E>` */
  json?: boolean;
}

/** The stand-in for one unsafe character (or the pair CR LF). */
function standIn(ch: string, oneLine: boolean, json = false): string {
  if (ch === "\r\n") return oneLine ? "\u2424" : "\n";
  if (ch === "\n") return "\u2424"; // ␤ (only reached in oneLine mode)
  const c = ch.charCodeAt(0);
  if (c < 0x20) return String.fromCharCode(0x2400 + c); // Control Pictures: ␀ … ␛ … ␟ (␍ for a bare CR)
  if (c === 0x7f) return "\u2421"; // ␡
  return json ? `\\u${c.toString(16).padStart(4, "0")}` : `<U+${c.toString(16).toUpperCase().padStart(4, "0")}>`;
}

/** Text safe to write to a terminal: every control and escape character replaced by something visible. */
export function visible(text: string, opts: VisibleOptions = {}): string {
  const one = opts.oneLine === true;
  if (!(one ? TEST_LINE : TEST).test(text)) return text;
  const json = opts.json === true;
  return text.replace(one ? UNSAFE_LINE : UNSAFE, (ch) => standIn(ch, one, json));
}

/** `visible(text, { oneLine: true })` */
export function visibleLine(text: string): string {
  return visible(text, { oneLine: true });
}

/** Does the text hold anything `visible()` would replace? */
export function hasControls(text: string, opts: VisibleOptions = {}): boolean {
  return (opts.oneLine ? TEST_LINE : TEST).test(text);
}

/**
 * `visible()` for text that arrives in pieces (streamed model text). A CR at the end of a piece is held
 * back until the next piece shows whether it starts a CR LF; `end()` releases it.
 */
export class VisibleStream {
  private heldCR = false;
  constructor(private readonly opts: Pick<VisibleOptions, "json"> = {}) {}

  push(chunk: string): string {
    let text = this.heldCR ? `\r${chunk}` : chunk;
    this.heldCR = text.endsWith("\r");
    if (this.heldCR) text = text.slice(0, -1);
    return visible(text, this.opts);
  }

  end(): string {
    const out = this.heldCR ? visible("\r", this.opts) : "";
    this.heldCR = false;
    return out;
  }
}

/** C1, bidi and separators: JSON.stringify leaves them raw (they are legal JSON), a terminal may act on them */
const JSON_UNSAFE = /[\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** JSON.stringify whose output holds no character a terminal acts on; JSON.parse gives back the exact value. */
export function safeJson(value: unknown, space?: number): string {
  const s = JSON.stringify(value, null, space) ?? "null";
  return s.replace(JSON_UNSAFE, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** The kit in one object, for code that prefers one import: text, one line, JSON, a streaming sanitiser. */
export const safeOutput = {
  text: (s: string): string => visible(s),
  line: (s: string): string => visibleLine(s),
  json: safeJson,
  stream: (opts: Pick<VisibleOptions, "json"> = {}): VisibleStream => new VisibleStream(opts),
} as const;
