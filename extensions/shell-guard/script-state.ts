/**
 * What one command of a script changes for the commands after it, as the walker tracks it: the
 * directory (`cd`, `pushd`, `popd`), aliases (`alias x='…'`), and the environment names it exports
 * (`export X=…`, `declare -x`, `set -a`), which take later readers off the safe list.
 */
import path from "node:path";
import type { Node } from "web-tree-sitter";
import type { Resolved } from "./words.js";
import { safeEnvName } from "./safelist.js";

export interface ScriptState {
  cwd: string;
  cwdKnown: boolean;
  aliases: Map<string, string>;
  taint: string | undefined;
}

/** After a peeled command ran: cd / pushd / popd, alias definitions, set -a. `home` is $HOME as the script sees it. */
export function afterCommand(state: ScriptState, words: Resolved[], home: string): void {
  const name = words[0]?.value ?? "";
  if (name === "cd" || name === "pushd" || name === "popd") {
    const to = words.slice(1).filter((w) => !/^-[LPe@]+$/.test(w.value));
    if (name === "popd" || to[0]?.known === false || to[0]?.value === "-" || to[0]?.value.startsWith("+")) state.cwdKnown = false;
    else if (!to.length) state.cwd = home;
    else state.cwd = path.resolve(state.cwd, to[0]!.value);
  }
  if (name === "alias") {
    for (const w of words.slice(1)) {
      const m = /^([^=\s]+)=(.*)$/s.exec(w.value);
      if (m) state.aliases.set(m[1]!, m[2]!);
    }
  }
  if (name === "set" && words.slice(1).some((w) => /^-[a-zA-Z]*a/.test(w.value) || w.value === "allexport")) state.taint ??= "set -a";
}

/** `export X=…` / `declare -x X`: the first exported name off the fixed list, if any. */
export function exportedName(node: Node): string | undefined {
  const kw = node.firstChild?.text ?? "";
  const flags = node.namedChildren.filter((c) => c?.type === "word").map((c) => c!.text);
  if (kw !== "export" && !flags.some((f) => /^-[a-zA-Z]*x/.test(f))) return undefined;
  for (const c of node.namedChildren) {
    const name = c?.type === "variable_assignment" ? (c.childForFieldName("name")?.text ?? "") : c?.type === "variable_name" ? c.text : "";
    if (name && !safeEnvName(name)) return name;
  }
  return undefined;
}
