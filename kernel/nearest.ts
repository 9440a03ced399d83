/** The closest of `candidates` to a mistyped `word` (edit distance, or a prefix/plural slip), if any is close. */
export function nearest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  const w = word.toLowerCase();
  for (const c of candidates) {
    const d = distance(w, c.toLowerCase());
    if (d < bestD) [best, bestD] = [c, d];
  }
  const limit = Math.max(2, Math.floor(word.length / 3));
  return best !== undefined && bestD <= limit ? best : undefined;
}

/**
 * Up to `max` of `candidates` close to `word`, nearest first (ties keep the candidates' order): the same
 * closeness as `nearest`, and a candidate that starts with or contains the word counts as close too.
 */
export function nearestMany(word: string, candidates: readonly string[], max = 3): string[] {
  const w = word.toLowerCase();
  const limit = Math.max(2, Math.floor(word.length / 3));
  const scored: Array<{ c: string; d: number; i: number }> = [];
  const seen = new Set<string>();
  candidates.forEach((c, i) => {
    if (seen.has(c)) return;
    seen.add(c);
    const l = c.toLowerCase();
    const d = distance(w, l);
    // a word a candidate contains (`sonnet` in `claude-sonnet-4-6`) is close however long the rest is
    const score = d <= limit ? d : w.length >= 3 && l.includes(w) ? limit + 0.5 : Infinity;
    if (score !== Infinity) scored.push({ c, d: score, i });
  });
  return scored
    .sort((a, b) => a.d - b.d || a.i - b.i)
    .slice(0, max)
    .map((s) => s.c);
}

/** Levenshtein distance, two rows. */
export function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length]!;
}
