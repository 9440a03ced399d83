/** Implementation published by the kit `oceancode/kit/hooks` (moved out of extensions/hooks/api.ts, which keeps the types). */
import { HOOK_EVENTS, type HookEvent } from "../api.js";

export function isHookEvent(s: string): s is HookEvent {
  return (HOOK_EVENTS as readonly string[]).includes(s);
}
