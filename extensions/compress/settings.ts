/** The `compress` config section read into CompressSettings (`true`/`false` or an object). */
import { DEFAULT_COMPRESS_SETTINGS, type CompressSettings } from "./api.js";

interface CompressSection {
  enabled?: boolean;
  min_bytes?: number;
  sample_run_lines?: number;
  keep_head?: number;
  keep_tail?: number;
  tools?: string[];
}

export function readSettings(raw: unknown): CompressSettings {
  const d = DEFAULT_COMPRESS_SETTINGS;
  if (typeof raw === "boolean") return { ...d, enabled: raw };
  if (typeof raw !== "object" || raw === null) return { ...d };
  const s = raw as CompressSection;
  return {
    // an object section means "on" unless it says enabled: false
    enabled: s.enabled ?? true,
    minBytes: s.min_bytes ?? d.minBytes,
    sampleRunLines: s.sample_run_lines ?? d.sampleRunLines,
    keepHead: s.keep_head ?? d.keepHead,
    keepTail: s.keep_tail ?? d.keepTail,
    tools: s.tools ?? d.tools,
  };
}
