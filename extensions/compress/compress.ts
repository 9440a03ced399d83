/**
 * The compressor itself: pure text in, text out. Four passes over a command's output, each one only
 * removing what a terminal would not show or what the model can get back from the verbatim file:
 *   1. escape sequences (colours, cursor moves, OSC titles/links) and stray control characters;
 *   2. carriage-return frames: of `a\rb\rc` only the last frame a terminal leaves on screen is kept;
 *   3. a run of identical lines is one line and a count;
 *   4. a long run of similar lines (same shape once numbers, hashes and durations are masked) keeps its
 *      head and tail, the lines that look like errors or warnings, and a count of what was left out with
 *      the line range in the verbatim file.
 * Line numbers in the markers are the verbatim file's (1-based), so `read` with an offset finds them.
 */
import type { CompressSettings, CompressStats } from "./api.js";

// CSI (ESC [ ... final), OSC (ESC ] ... BEL or ESC \), other two-byte escapes, and the 8-bit CSI
// eslint-disable-next-line no-control-regex
const ESCAPES = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[PX^_][^\x1b]*(?:\x1b\\)?|[@-Z\\-_]|[ -/]*[0-~])|\x9b[0-?]*[ -/]*[@-~]/g;
// control characters a terminal does not print (tab, newline and carriage return are handled apart)
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g;
const HAS_CONTROLS = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/;
/** Marks a frame that erased the line before it (private use: never in a command's output we keep). */
const ERASE = "\uE000";
/** Lines that are never sampled away, whatever run they sit in. */
const IMPORTANT = /\b(?:error|warning|fatal)(?:\[\w+\])?:|\berror TS\d|\bError\b|\bERROR\b|ERR!|\bFAIL(?:ED|URE)?\b|\bWARN(?:ING)?\b|\bpanicked\b|Traceback|Exception\b|Assertion|[✗✘×]|^npm (?:error|warn)\b|\bnot ok\b|command not found|No such file or directory/;
/** A gap shorter than this keeps its lines (a marker would be longer than what it stands for). */
const MIN_GAP_LINES = 3;

export interface CompressResult {
  text: string;
  stats: CompressStats;
}

/** Strip escape sequences, then keep each line's last carriage-return frame. */
export function stripFrames(text: string): { text: string; ansiBytes: number; frameBytes: number } {
  const before = Buffer.byteLength(text);
  // cursor-to-column-1 (a spinner's ESC[1G) is a carriage return; with an erase after it the frame starts clean
  const esc = text.includes("\x1b") || text.includes("\x9b");
  const framed = esc ? text.replace(/(?:\r|\x1b\[1?G)\x1b\[[02]?K/g, `\r${ERASE}`).replace(/\x1b\[1?G/g, "\r").replace(ESCAPES, "") : text;
  const noEsc = HAS_CONTROLS.test(framed) ? framed.replace(CONTROLS, (c) => (c === "\b" ? "\b" : "")) : framed;
  const ansiBytes = before - Buffer.byteLength(noEsc);
  const lines = noEsc.split("\n");
  for (let i = 0; i < lines.length; i++) {
    let l = lines[i]!;
    if (l.endsWith("\r")) l = l.slice(0, -1); // CRLF
    if (l.includes("\r")) l = lastFrame(l);
    else if (l.includes(ERASE)) l = l.split(ERASE).join("");
    if (l.includes("\b")) l = backspaced(l);
    lines[i] = l;
  }
  const out = lines.join("\n");
  return { text: out, ansiBytes, frameBytes: Buffer.byteLength(noEsc) - Buffer.byteLength(out) };
}

/** What a terminal shows of `a\rb`: each frame overwrites the start of the one before. */
function lastFrame(line: string): string {
  let screen = "";
  for (const frame of line.split("\r")) {
    if (frame.startsWith(ERASE)) screen = frame.slice(1);
    else screen = frame.length >= screen.length ? frame : frame + screen.slice(frame.length);
  }
  return screen.split(ERASE).join("").trimEnd();
}

function backspaced(line: string): string {
  const out: string[] = [];
  for (const ch of line) {
    if (ch === "\b") out.pop();
    else out.push(ch);
  }
  return out.join("");
}

/** A line's shape: numbers, hex ids, durations and sizes masked, so `Compiling foo v1.2.3` ~ `Compiling bar v0.1.0`. */
export function shapeOf(line: string): string {
  let i = 0;
  while (i < line.length && (line[i] === " " || line[i] === "\t")) i++;
  let j = i;
  while (j < line.length && line[j] !== " " && line[j] !== "\t") j++;
  // the first word says what kind of line it is; a path keeps only its directory (files of one folder are alike)
  let first = line.slice(i, j);
  if (first.includes("/") || first.includes("\\")) first = first.replace(/[^/\\]+$/, "");
  if (/\d/.test(first)) first = first.replace(/\b(?=[0-9a-f]*\d)[0-9a-f]{7,64}\b/gi, "#").replace(/\d+(?:[.,:]\d+)*/g, "0");
  return `${i}|${first}`;
}

interface Line {
  text: string;
  /** 1-based line number in the verbatim text */
  no: number;
  /** how many identical lines follow it in the verbatim text (folded into a count) */
  repeats: number;
}

const foldMark = (n: number) => `[compress: the line above repeats ${n} more time${n === 1 ? "" : "s"}]`;
const sampleMark = (n: number, from: number, to: number, where: string) => `[compress: ${n} similar line${n === 1 ? "" : "s"} left out here (lines ${from}-${to} of ${where})]`;

/** Pass 3: identical consecutive lines folded into one with a count, when that is shorter. */
function foldRepeats(lines: Line[]): { lines: Line[]; folded: number } {
  const out: Line[] = [];
  let folded = 0;
  for (let i = 0; i < lines.length; ) {
    let j = i + 1;
    while (j < lines.length && lines[j]!.text === lines[i]!.text) j++;
    const extra = j - i - 1;
    const text = lines[i]!.text;
    // a run of blank lines becomes one blank line, without a marker
    if (extra > 0 && (text.trim() === "" || extra * (text.length + 1) > foldMark(extra).length + 1)) {
      out.push({ ...lines[i]!, repeats: text.trim() === "" ? -extra : extra });
      folded += extra;
    } else for (let k = i; k < j; k++) out.push(lines[k]!);
    i = j;
  }
  return { lines: out, folded };
}

/** Pass 4: long runs of lines of one shape keep head, tail and the important lines between. */
function sampleRuns(lines: Line[], s: CompressSettings, where: string): { lines: string[]; sampled: number } {
  const out: string[] = [];
  const emit = (l: Line) => {
    out.push(l.text);
    if (l.repeats > 0) out.push(foldMark(l.repeats));
  };
  let sampled = 0;
  const shapes = lines.map((l) => shapeOf(l.text));
  for (let i = 0; i < lines.length; ) {
    let j = i + 1;
    while (j < lines.length && shapes[j] === shapes[i]) j++;
    const run = lines.slice(i, j);
    i = j;
    if (run.length < s.sampleRunLines || run.length <= s.keepHead + s.keepTail) {
      run.forEach(emit);
      continue;
    }
    run.slice(0, s.keepHead).forEach(emit);
    let gap: Line[] = [];
    const flush = () => {
      if (gap.length < MIN_GAP_LINES) {
        gap.forEach(emit);
        gap = [];
        return;
      }
      const first = gap[0]!.no;
      const last = gap[gap.length - 1]!;
      const to = last.no + Math.abs(last.repeats);
      out.push(sampleMark(to - first + 1, first, to, where));
      sampled += to - first + 1;
      gap = [];
    };
    for (const l of run.slice(s.keepHead, run.length - s.keepTail)) {
      if (IMPORTANT.test(l.text)) flush(), emit(l);
      else gap.push(l);
    }
    flush();
    run.slice(run.length - s.keepTail).forEach(emit);
  }
  return { lines: out, sampled };
}

/**
 * Compress one output. `where` names the verbatim copy in the markers (a path). The result's
 * `removedBytes` is what the model no longer reads (the gauge adds it back ÷ 4).
 */
export function compressText(text: string, s: CompressSettings, where: string): CompressResult {
  const before = Buffer.byteLength(text);
  const stripped = stripFrames(text);
  const lines = stripped.text.split("\n").map((t, i) => ({ text: t.replace(/[ \t]+$/, ""), no: i + 1, repeats: 0 }));
  const f = foldRepeats(lines);
  const r = sampleRuns(f.lines, s, where);
  const out = r.lines.join("\n");
  const after = Buffer.byteLength(out);
  return {
    text: out,
    stats: { bytesBefore: before, bytesAfter: after, removedBytes: Math.max(0, before - after), ansiBytes: stripped.ansiBytes, frameBytes: stripped.frameBytes, foldedLines: f.folded, sampledLines: r.sampled },
  };
}
