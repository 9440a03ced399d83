/** Implementation published by the kit `oceancode/kit/engine` (moved out of extensions/engine/contract/rows.ts, which keeps the types). */
import { type Usage } from "../contract/rows.js";

export function emptyUsage(): Usage {
  return { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
}
