/**
 * States: named fields, never a concatenated prompt. A state's JSON is capped at JEV_STATE_CAP bytes: the
 * longest string fields are cut to a head and a tail around `[truncated N bytes]` until it fits. The
 * state hash is sha256 over the canonical JSON (sorted keys) of the FULL state, before truncation.
 */
import { createHash } from "node:crypto";
import { JEV_STATE_CAP, type JevState } from "./api.js";

/** JSON with object keys sorted at every level. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(",")}]`;
  if (v && typeof v === "object") {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .filter((k) => o[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(v) ?? "null";
}

export function stateHash(state: unknown): string {
  return createHash("sha256").update(canonicalJson(state)).digest("hex");
}

const bytes = (s: string) => Buffer.byteLength(s, "utf8");

/** Keep `keep` bytes of `s`: its head and tail around the marker (cut on code points). */
export function headTail(s: string, keep: number): string {
  const total = bytes(s);
  if (total <= keep) return s;
  const chars = Array.from(s);
  const half = Math.max(0, Math.floor(keep / 2));
  let head = "";
  let hb = 0;
  for (const c of chars) {
    const b = bytes(c);
    if (hb + b > half) break;
    head += c;
    hb += b;
  }
  let tail = "";
  let tb = 0;
  for (let i = chars.length - 1; i >= 0; i--) {
    const b = bytes(chars[i]!);
    if (tb + b > half) break;
    tail = chars[i]! + tail;
    tb += b;
  }
  return `${head}[truncated ${total - hb - tb} bytes]${tail}`;
}

/** Every string leaf with its path. */
function strings(v: unknown, path: (string | number)[] = [], out: Array<{ path: (string | number)[]; len: number }> = []) {
  if (typeof v === "string") out.push({ path, len: bytes(v) });
  else if (Array.isArray(v)) v.forEach((x, i) => strings(x, [...path, i], out));
  else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) strings(x, [...path, k], out);
  return out;
}

function setAt(root: unknown, path: (string | number)[], value: string): void {
  let cur = root as Record<string | number, unknown>;
  for (let i = 0; i < path.length - 1; i++) cur = cur[path[i]!] as Record<string | number, unknown>;
  cur[path[path.length - 1]!] = value;
}
function getAt(root: unknown, path: (string | number)[]): string {
  let cur = root as Record<string | number, unknown>;
  for (const p of path) cur = cur[p] as Record<string | number, unknown>;
  return cur as unknown as string;
}

/** Fit a state under `cap` bytes of JSON by head/tail truncating its longest strings. */
export function fitState(state: JevState, cap = JEV_STATE_CAP): { state: JevState; truncated: boolean; bytes: number } {
  let size = bytes(JSON.stringify(state));
  if (size <= cap) return { state, truncated: false, bytes: size };
  const copy = structuredClone(state) as JevState;
  for (let round = 0; round < 64 && size > cap; round++) {
    const leaves = strings(copy).sort((a, b) => b.len - a.len);
    const top = leaves[0];
    if (!top || top.len < 64) break;
    const over = size - cap;
    // cut the longest string by what is over plus room for the marker; JSON escapes are caught by the next round
    const keep = Math.max(0, top.len - over - 48);
    setAt(copy, top.path, headTail(getAt(copy, top.path), keep));
    size = bytes(JSON.stringify(copy));
  }
  return { state: copy, truncated: true, bytes: size };
}
