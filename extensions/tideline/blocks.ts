/**
 * Blocks and cuts, pure and per session. A block is a run of steps; it closes once the gauge has grown
 * by `block` tokens since it opened. While the gauge is at or over the line, the oldest closed block
 * leaves the window; the block being filled is never cut, so the window overshoots the line by at most
 * one block. Block boundaries sit at step ends, so a cut never separates a tool call from its result.
 * Work per step is O(blocks), which is about line / block (a handful), never O(session length).
 */
export interface Block {
  /** the first row seq that belongs to this block */
  firstSeq: number;
  /** the gauge when the block opened (rebased after every cut) */
  openGauge: number;
}

export interface CutResult {
  cuts: number;
  /** every row up to this seq is past the tideline */
  cutSeq: number;
}

export class BlockTracker {
  blocks: Block[] = [];
  cutSeq = 0;
  cuts = 0;
  /** the window's size after the last step and its cuts (estimated until the next step measures it) */
  gauge = 0;

  /**
   * One step ended. `gauge` is its measured window size, `promptTokens` what its request cost (used as
   * the baseline of the very first block), `firstSeq` the step's first row, `nextSeq` the seq after its last row.
   */
  afterStep(gauge: number, promptTokens: number, firstSeq: number, nextSeq: number, line: number, block: number): CutResult {
    this.gauge = gauge;
    if (this.blocks.length === 0) this.blocks.push({ firstSeq: Math.max(this.cutSeq + 1, Math.min(firstSeq, nextSeq)), openGauge: Math.min(promptTokens, gauge) });
    const open = this.blocks[this.blocks.length - 1]!;
    if (gauge - open.openGauge >= block) this.blocks.push({ firstSeq: nextSeq, openGauge: gauge });
    let n = 0;
    while (this.gauge >= line && this.blocks.length >= 2) {
      this.cutOldest();
      n++;
    }
    return { cuts: n, cutSeq: this.cutSeq };
  }

  /** The provider refused the request as too long: every closed block leaves before the one retry. */
  cutAllClosed(): CutResult {
    let n = 0;
    while (this.blocks.length >= 2) {
      this.cutOldest();
      n++;
    }
    return { cuts: n, cutSeq: this.cutSeq };
  }

  /**
   * A cut placed by estimate when no closed block exists (a reopened session's first request was refused
   * as too long): every row up to `seq` leaves; the blocks left start after it.
   */
  cutTo(seq: number, removedTokens: number): CutResult {
    if (seq <= this.cutSeq) return { cuts: 0, cutSeq: this.cutSeq };
    this.cutSeq = seq;
    this.gauge = Math.max(0, this.gauge - removedTokens);
    for (const b of this.blocks) b.firstSeq = Math.max(b.firstSeq, seq + 1);
    this.cuts++;
    return { cuts: 1, cutSeq: seq };
  }

  /**
   * Elision at a cut made the window smaller than the cut alone: each entry is a row's seq and the tokens
   * its elided form saves. The gauge drops by all of it, and every block that opens after such a row
   * opens that much lower, so the next cut's size is right before a step measures the window again.
   */
  shrink(savings: ReadonlyArray<{ seq: number; tokens: number }>): void {
    for (const s of savings) {
      if (!(s.tokens > 0)) continue;
      this.gauge = Math.max(0, this.gauge - s.tokens);
      for (const b of this.blocks) if (b.firstSeq > s.seq) b.openGauge = Math.max(0, b.openGauge - s.tokens);
    }
  }

  private cutOldest(): void {
    const gone = this.blocks.shift()!;
    const next = this.blocks[0]!;
    const size = Math.max(0, next.openGauge - gone.openGauge);
    // an estimate cut (cutTo) may already sit past this block's start: a cut never moves back
    this.cutSeq = Math.max(this.cutSeq, next.firstSeq - 1);
    this.gauge = Math.max(0, this.gauge - size);
    for (const b of this.blocks) b.openGauge -= size;
    this.cuts++;
  }
}

/** Index of the first row with seq > cutSeq (rows are in seq order): O(log n). */
export function firstAfter(rows: ReadonlyArray<{ seq: number }>, cutSeq: number): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (rows[mid]!.seq <= cutSeq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The pointer line that opens the window after a cut, worded as the guide gives it. */
export function pointerLine(cutSeq: number, ledgerDir: string | undefined): string {
  const where = ledgerDir ?? "the session ledger";
  return (
    `[Earlier content of this session is past the tideline: every row up to seq ${cutSeq} left this window. ` +
    `The verbatim record is ${where}/transcript/ (one file per turn) and SESSION.md carries the merged state. ` +
    `Read those files when you need anything from before this point; nothing was summarized or lost.]`
  );
}
