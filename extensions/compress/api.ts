/**
 * The published contract `oceancode/api/compress`: the tool-output compressor's settings, its figures,
 * and the service "compress". Types and constants only.
 *
 * With `compress` on, a command's output (bash, job_output) reaches the model with escape sequences and
 * carriage-return frames stripped, repeated lines folded with a count and long runs of similar lines
 * sampled (head, tail, the error-looking lines, a count of what was left out); the verbatim output stays
 * on disk under <data dir>/tool-output/<session>/<call>.txt and the model's text says where. The gauge adds
 * the removed bytes ÷ 4 back (engine.gauge), so the tideline cuts where it would without compress.
 */

/** The resolved `compress` config section (`compress: true` is `{ enabled: true }`). */
export interface CompressSettings {
  enabled: boolean;
  /** outputs smaller than this many bytes are left alone */
  minBytes: number;
  /** a run of at least this many similar lines is sampled */
  sampleRunLines: number;
  /** lines kept at the start and at the end of a sampled run */
  keepHead: number;
  keepTail: number;
  /** the tools whose results are compressed */
  tools: readonly string[];
}

/** What one compression did, in bytes of UTF-8 and in lines of the verbatim text. */
export interface CompressStats {
  bytesBefore: number;
  bytesAfter: number;
  /** bytes the model no longer reads: bytesBefore − bytesAfter (never below 0) */
  removedBytes: number;
  /** of which escape sequences and control characters */
  ansiBytes: number;
  /** of which carriage-return frames a terminal would have overwritten */
  frameBytes: number;
  /** identical lines folded into a count */
  foldedLines: number;
  /** similar lines left out of sampled runs */
  sampledLines: number;
}

/** A session's running figures (the service's `totals`). */
export interface CompressTotals {
  results: number;
  bytesBefore: number;
  bytesAfter: number;
  /** removed bytes ÷ 4, what the gauge adds back over the whole session */
  savedTokens: number;
}

export interface CompressService {
  settings(): CompressSettings;
  /** Compress a text as a tool result would be; `where` names the verbatim copy in the markers. */
  compress(text: string, where: string): { text: string; stats: CompressStats };
  /** This session's figures so far (zeros for a session that compressed nothing). */
  totals(sessionId: string): CompressTotals;
}

export const DEFAULT_COMPRESS_SETTINGS: Readonly<CompressSettings> = {
  enabled: false,
  minBytes: 1024,
  sampleRunLines: 40,
  keepHead: 8,
  keepTail: 8,
  tools: ["bash", "job_output"],
};

/** The guide's estimate: one token per four bytes removed. */
export const BYTES_PER_TOKEN = 4;
