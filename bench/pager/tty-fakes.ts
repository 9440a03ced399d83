/** What the pager benches share: a stdin the pager takes for a TTY, and the summary of a list of timings. */
import { PassThrough } from "node:stream";

export function fakeStdin(): NodeJS.ReadStream {
  const s = new PassThrough() as unknown as NodeJS.ReadStream & { isTTY: boolean; setRawMode(b: boolean): unknown; ref(): unknown; unref(): unknown };
  s.isTTY = true;
  s.setRawMode = () => s;
  s.ref = () => s;
  s.unref = () => s;
  return s;
}

export function stats(xs: number[]): { mean: number; p50: number; p95: number; max: number } {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0;
  return { mean: xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length), p50: q(0.5), p95: q(0.95), max: s[s.length - 1] ?? 0 };
}
