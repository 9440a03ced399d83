/**
 * Modes as rules layered last. They never reopen the dangerous floor or a deny rule (those are
 * settled before the mode is consulted); dontAsk turns every remaining ask into a deny.
 */
import type { Rule } from "./rules.js";

export const MODES = ["default", "acceptEdits", "dontAsk", "bypassPermissions", "plan"] as const;
export type Mode = (typeof MODES)[number];

export function isMode(v: unknown): v is Mode {
  return typeof v === "string" && (MODES as readonly string[]).includes(v);
}

function r(text: string, keepsTool = false): Rule {
  const [tool, ...rest] = text.split(" ");
  const action = rest.pop() as Rule["action"];
  return { tool: tool!, pattern: rest.join(" "), action, text, layer: "mode", ...(keepsTool ? { keepsTool } : {}) };
}

export function modeRules(mode: Mode): Rule[] {
  switch (mode) {
    case "acceptEdits":
      return [r("edit * allow")];
    case "bypassPermissions":
      return [r("* * allow")];
    case "plan":
      // read-only, except the plan files; bash keeps the read-only safe list
      return [r("edit * deny"), r("edit .oceancode/plans/* allow"), r("bash * deny", true), r("webfetch * ask")];
    default:
      return [];
  }
}
