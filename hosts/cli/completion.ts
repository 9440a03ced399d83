/**
 * `oceancode completion bash|zsh|fish`: a shell completion script generated from data only (the host
 * commands' flag tables, the global flags, every contributed command and its manifest's flags). The dynamic
 * parts (model names from contributes.models, this directory's session ids) are asked of the CLI when the
 * user presses tab (`oceancode __complete models|sessions`), so the script stays small and current.
 *
 * A host-level command (hosts/cli), not an extension's: run's and attach's flag tables and the global flags
 * live in the host, and no extension can read them.
 */
import type { CommandDoc, FlagDoc } from "./help.js";
import { flagSpellings } from "./suggest.js";

export interface CompletionCommand {
  name: string;
  summary: string;
  flags: readonly FlagDoc[];
}

export const SHELLS = ["bash", "zsh", "fish"] as const;
export type Shell = (typeof SHELLS)[number];

export const COMPLETION_USAGE = "oceancode completion bash|zsh|fish";
export const COMPLETION_DOC: CommandDoc = { name: "completion", usage: COMPLETION_USAGE, summary: "print a shell completion script (bash, zsh, fish): commands, flags, model names, session ids" };
/** What `completion --help` adds after the flags: one install line per shell. */
export const COMPLETION_INSTALL = [
  "Install:",
  "  bash   source <(oceancode completion bash)          # in ~/.bashrc",
  "  zsh    source <(oceancode completion zsh)           # in ~/.zshrc, after compinit",
  "  fish   oceancode completion fish > ~/.config/fish/completions/oceancode.fish",
].join("\n");

/** Flags whose value is a model name or a session id (completed by calling back), or a path. */
const MODEL_FLAGS = ["-m", "--model"];
const SESSION_FLAGS = ["-r", "--resume", "-s", "--session"];
const DIR_FLAGS = ["--dir", "--directory", "--home", "--root"];

const shq = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
/** A word safe inside a generated script (manifest text never reaches a shell unquoted). */
const word = (s: string) => /^[A-Za-z0-9_.:@%+=,/-]+$/.test(s);

function valueFlags(cmds: readonly CompletionCommand[], globals: readonly FlagDoc[]): string[] {
  const all = [...globals, ...cmds.flatMap((c) => c.flags)].filter((f) => f.value !== undefined && !f.value.startsWith("["));
  return [...new Set(flagSpellings(all))].filter(word);
}

function bash(cmds: readonly CompletionCommand[], globals: readonly FlagDoc[]): string {
  const names = cmds.map((c) => c.name).filter(word);
  const cases = cmds
    .filter((c) => word(c.name))
    .map((c) => `    ${c.name}) flags=${shq([...flagSpellings(c.flags), "--help"].filter(word).join(" "))} ;;`)
    .join("\n");
  return `# oceancode completion for bash: source <(oceancode completion bash)
_oceancode() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="" cmd="" i flags
  (( COMP_CWORD > 0 )) && prev="\${COMP_WORDS[COMP_CWORD-1]}"
  for (( i = 1; i < COMP_CWORD; i++ )); do
    case "\${COMP_WORDS[i]}" in
      ${valueFlags(cmds, globals).join("|")}) (( i++ )) ;;
      -*) ;;
      *) cmd="\${COMP_WORDS[i]}"; break ;;
    esac
  done
  case "$prev" in
    ${MODEL_FLAGS.join("|")}) COMPREPLY=( $(compgen -W "$(oceancode __complete models 2>/dev/null)" -- "$cur") ); return ;;
    ${SESSION_FLAGS.join("|")}) COMPREPLY=( $(compgen -W "$(oceancode __complete sessions 2>/dev/null)" -- "$cur") ); return ;;
    ${DIR_FLAGS.join("|")}) COMPREPLY=( $(compgen -d -- "$cur") ); return ;;
    --db|--out|--in) COMPREPLY=( $(compgen -f -- "$cur") ); return ;;
  esac
  if [[ -z "$cmd" ]]; then
    if [[ "$cur" == -* ]]; then COMPREPLY=( $(compgen -W ${shq(flagSpellings(globals).filter(word).join(" "))} -- "$cur") )
    else COMPREPLY=( $(compgen -W ${shq(names.join(" "))} -- "$cur") ); fi
    return
  fi
  if [[ "$cmd" == completion && "$cur" != -* ]]; then COMPREPLY=( $(compgen -W ${shq(SHELLS.join(" "))} -- "$cur") ); return; fi
  case "$cmd" in
${cases}
    *) flags="--help" ;;
  esac
  COMPREPLY=( $(compgen -W "$flags" -- "$cur") )
}
complete -F _oceancode oceancode
`;
}

function zsh(cmds: readonly CompletionCommand[], globals: readonly FlagDoc[]): string {
  const esc = (s: string) => s.replace(/[\\:'[\]]/g, (c) => `\\${c}`).replace(/\n/g, " ");
  const described = cmds.filter((c) => word(c.name)).map((c) => `'${c.name}:${esc(c.summary).replace(/'/g, "")}'`);
  const cases = cmds
    .filter((c) => word(c.name))
    .map((c) => `      ${c.name}) flags=(${[...flagSpellings(c.flags), "--help"].filter(word).join(" ")}) ;;`)
    .join("\n");
  return `#compdef oceancode
# oceancode completion for zsh: source <(oceancode completion zsh)  (after compinit)
_oceancode() {
  local cur="\${words[CURRENT]}" prev="\${words[CURRENT-1]}" cmd="" i
  local -a flags cmds
  for (( i = 2; i < CURRENT; i++ )); do
    case "\${words[i]}" in
      ${valueFlags(cmds, globals).join("|")}) (( i++ )) ;;
      -*) ;;
      *) cmd="\${words[i]}"; break ;;
    esac
  done
  case "$prev" in
    ${MODEL_FLAGS.join("|")}) compadd -- \${(f)"$(oceancode __complete models 2>/dev/null)"}; return ;;
    ${SESSION_FLAGS.join("|")}) compadd -- \${(f)"$(oceancode __complete sessions 2>/dev/null)"}; return ;;
    ${DIR_FLAGS.join("|")}) _files -/; return ;;
    --db|--out|--in) _files; return ;;
  esac
  if [[ -z "$cmd" ]]; then
    if [[ "$cur" == -* ]]; then compadd -- ${flagSpellings(globals).filter(word).join(" ")}
    else cmds=(${described.join(" ")}); _describe command cmds; fi
    return
  fi
  if [[ "$cmd" == completion ]]; then compadd -- ${SHELLS.join(" ")}; return; fi
  case "$cmd" in
${cases}
      *) flags=(--help) ;;
  esac
  compadd -- $flags
}
if (( $+functions[compdef] )); then compdef _oceancode oceancode; fi
`;
}

function fish(cmds: readonly CompletionCommand[], globals: readonly FlagDoc[]): string {
  const fq = (s: string) => `'${s.replace(/\\/g, "\\\\").replace(/'/g, "\\'").replace(/\n/g, " ")}'`;
  const lines = [
    "# oceancode completion for fish: oceancode completion fish > ~/.config/fish/completions/oceancode.fish",
    "complete -c oceancode -f",
    `set -l __oc_cmds ${cmds.map((c) => c.name).filter(word).join(" ")}`,
  ];
  const flagLine = (cond: string, f: FlagDoc) => {
    const longs = [f.name, ...(f.aliases ?? [])].filter((n) => n.startsWith("--") && word(n)).map((n) => `-l ${n.slice(2)}`);
    const shorts = (f.aliases ?? []).filter((n) => /^-[A-Za-z]$/.test(n)).map((n) => `-s ${n.slice(1)}`);
    if (!longs.length && !shorts.length) return undefined;
    const names = [f.name, ...(f.aliases ?? [])];
    const arg = names.some((n) => MODEL_FLAGS.includes(n))
      ? " -x -a '(oceancode __complete models 2>/dev/null)'"
      : names.some((n) => SESSION_FLAGS.includes(n))
        ? " -x -a '(oceancode __complete sessions 2>/dev/null)'"
        : f.value !== undefined && !f.value.startsWith("[")
          ? " -r"
          : "";
    return `complete -c oceancode -n ${fq(cond)} ${[...shorts, ...longs].join(" ")}${arg} -d ${fq(f.summary)}`;
  };
  for (const c of cmds) if (word(c.name)) lines.push(`complete -c oceancode -n 'not __fish_seen_subcommand_from $__oc_cmds' -a ${c.name} -d ${fq(c.summary)}`);
  for (const f of globals) {
    const l = flagLine("not __fish_seen_subcommand_from $__oc_cmds", f);
    if (l) lines.push(l);
  }
  for (const c of cmds) {
    if (!word(c.name)) continue;
    for (const f of c.flags) {
      const l = flagLine(`__fish_seen_subcommand_from ${c.name}`, f);
      if (l) lines.push(l);
    }
  }
  lines.push(`complete -c oceancode -n '__fish_seen_subcommand_from completion' -a '${SHELLS.join(" ")}'`);
  return `${lines.join("\n")}\n`;
}

/** The script for one shell. */
export function completionScript(shell: Shell, cmds: readonly CompletionCommand[], globals: readonly FlagDoc[]): string {
  return shell === "bash" ? bash(cmds, globals) : shell === "zsh" ? zsh(cmds, globals) : fish(cmds, globals);
}
