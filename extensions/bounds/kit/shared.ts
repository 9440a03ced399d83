/** Implementation published by the kit `oceancode/kit/bounds` (moved out of extensions/bounds/api.ts, which keeps the types). */
/** A bound's value: a number above 0 (decimals allowed: 0.5 dollars, 0.25 minutes). Undefined when invalid. */
export function parseBound(text: string): number | undefined {
  const t = text.trim().replace(/^\$/, "");
  if (!/^\d+(\.\d+)?$|^\.\d+$/.test(t)) return undefined;
  const n = Number(t);
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

/** $1.23 (four decimals under a cent, so a tiny spend is not shown as $0.00). */
export function formatUsd(n: number): string {
  return n > 0 && n < 0.01 ? `$${n.toFixed(4)}` : `$${n.toFixed(2)}`;
}
