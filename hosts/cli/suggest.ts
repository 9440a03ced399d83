/**
 * Did-you-mean for usage errors: the nearest commands, flags, session ids (edit distance, kernel/nearest.ts).
 * One kit, so every usage error the CLI prints words its hint the same way.
 */
import { nearestMany } from "../../kernel/nearest.js";
import type { FlagDoc } from "./help.js";

/** " (did you mean a or b?)" for the candidates nearest `word`, or "" when none is close. */
export function didYouMean(word: string, candidates: readonly string[], max = 2): string {
  const near = nearestMany(word, candidates, max);
  return near.length ? ` (did you mean ${near.join(" or ")}?)` : "";
}

/** Every spelling of a table's flags. */
export function flagSpellings(flags: readonly FlagDoc[]): string[] {
  return flags.flatMap((f) => [f.name, ...(f.aliases ?? [])]);
}

/** The hint for an unknown flag (`--modle=x` is read as `--modle`). */
export function flagHint(arg: string, flags: readonly FlagDoc[]): string {
  const eq = arg.indexOf("=");
  const flag = arg.startsWith("--") && eq > 0 ? arg.slice(0, eq) : arg;
  // a one-letter flag is too short to guess from: only long flags get a hint
  return flag.startsWith("--") ? didYouMean(flag, flagSpellings(flags).filter((n) => n.startsWith("--"))) : "";
}

/**
 * A contributed command's word that is no flag its manifest declares but is close to one (`--jsno`): the
 * host says so before running the command. A flag far from every declared one is left to the command,
 * which may take flags its manifest does not list.
 */
export function mistypedFlag(args: readonly string[], flags: readonly FlagDoc[]): { arg: string; hint: string } | undefined {
  const known = new Set(flagSpellings(flags));
  const takesValue = new Set(flags.filter((f) => f.value !== undefined).flatMap((f) => [f.name, ...(f.aliases ?? [])]));
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--") return undefined;
    if (takesValue.has(a)) {
      i++;
      continue;
    }
    if (!a.startsWith("--") || a === "--help") continue;
    const name = a.includes("=") ? a.slice(0, a.indexOf("=")) : a;
    if (known.has(name)) continue;
    const hint = flagHint(name, flags);
    if (hint) return { arg: a, hint };
  }
  return undefined;
}
