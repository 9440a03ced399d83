import { type TidelineSpec } from "./api.js";
import { parseTidelineSpec } from "./kit/shared.js";
import { TidelineSpecInvalid } from "./errors.js";

/** The throwing form the run host calls: `--tideline` values are refused with one line and the usage. */
export function parseSpec(text: string): TidelineSpec {
  const p = parseTidelineSpec(text);
  if (!p.ok) throw TidelineSpecInvalid({ problem: p.error });
  return p.spec;
}
