/**
 * A model of provider prompt caching for the fakes: the request is a list of blocks; a prefix is cached
 * when an earlier request wrote it. Anthropic mode writes only at cache_control breakpoints and looks
 * back up to 20 blocks from each; automatic mode (OpenAI) caches every block boundary.
 */
import { createHash } from "node:crypto";
import { estimateTokens } from "./common.js";

export interface PrefixBlock {
  /** canonical JSON of the block without its cache marker */
  json: string;
  /** the block carried a cache_control marker */
  breakpoint: boolean;
}

export interface CacheOutcome {
  totalTokens: number;
  readTokens: number;
  writeTokens: number;
  /** uncached input tokens */
  inputTokens: number;
}

const LOOKBACK = 20;

export class PrefixCache {
  private readonly written = new Set<string>();
  constructor(
    private readonly mode: "breakpoints" | "automatic",
    /** prefixes shorter than this are never cached (the real APIs use 1024) */
    private readonly minTokens = 0,
  ) {}

  apply(blocks: PrefixBlock[]): CacheOutcome {
    const hashes: string[] = [];
    const cum: number[] = [];
    let h = createHash("sha1").digest("hex");
    let tokens = 0;
    for (const b of blocks) {
      h = createHash("sha1").update(h).update(b.json).digest("hex");
      tokens += estimateTokens(b.json);
      hashes.push(h);
      cum.push(tokens);
    }
    const at = (i: number) => (i < 0 ? 0 : cum[i]!);
    let hit = -1;
    const points = this.mode === "automatic" ? blocks.map((_, i) => i) : blocks.flatMap((b, i) => (b.breakpoint ? [i] : []));
    if (this.mode === "automatic") {
      for (let i = blocks.length - 1; i >= 0; i--) if (this.written.has(hashes[i]!)) { hit = i; break; }
    } else {
      for (const p of points) for (let j = p; j >= Math.max(0, p - LOOKBACK); j--) if (this.written.has(hashes[j]!)) { hit = Math.max(hit, j); break; }
    }
    const lastPoint = points.length ? points[points.length - 1]! : -1;
    const readTokens = at(hit);
    const writeTokens = this.mode === "breakpoints" && lastPoint > hit && at(lastPoint) >= this.minTokens ? at(lastPoint) - readTokens : 0;
    for (const p of points) if (at(p) >= this.minTokens) this.written.add(hashes[p]!);
    return { totalTokens: tokens, readTokens, writeTokens, inputTokens: tokens - readTokens - writeTokens };
  }
}
