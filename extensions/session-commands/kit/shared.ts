/** Implementation published by the kit `oceancode/kit/session-commands` (moved out of extensions/session-commands/api.ts, which keeps the types). */
import type { SlashHost } from "../../../kernel/api.js";
import { type PagerSlashHost } from "../api.js";

export function isPagerSlashHost(h: SlashHost): h is PagerSlashHost {
  return typeof (h as { hostKind?: unknown }).hostKind === "string";
}
