/**
 * Script languages on the safe list: a sed script or an awk program is read-only only when none of
 * its features can run a program, write a file or read one the command line does not show (sed
 * e/w/W/r/R and s///e, s///w; awk system(), pipes, redirection, getline). Unknown syntax is not safe.
 */

/** Why a sed script is not read-only, or undefined when it only prints. */
export function sedScriptRisk(script: string): string | undefined {
  const n = script.length;
  let i = 0;
  const skipSpace = (): void => {
    while (i < n && /[\s;]/.test(script[i]!)) i++;
  };
  /** read a delimited part ending at an unescaped `d`; false when unterminated or the delimiter hides in a bracket */
  const part = (d: string, regex: boolean): boolean => {
    while (i < n) {
      const c = script[i]!;
      if (c === "\\") {
        i += 2;
        continue;
      }
      if (regex && c === "[") {
        const end = script.indexOf("]", i + 2);
        if (end > 0 && script.slice(i, end).includes(d)) return false;
      }
      if (c === d) {
        i++;
        return true;
      }
      if (c === "\n" && !regex) return false;
      i++;
    }
    return false;
  };
  const address = (): boolean => {
    const c = script[i];
    if (c === undefined) return true;
    if (/\d/.test(c)) {
      while (i < n && /[\d~]/.test(script[i]!)) i++;
    } else if (c === "$") i++;
    else if (c === "/" || c === "\\") {
      const d = c === "\\" ? script[i + 1] : "/";
      i += c === "\\" ? 2 : 1;
      if (!d || !part(d, true)) return false;
      while (i < n && /[IM]/.test(script[i]!)) i++;
    }
    return true;
  };
  while (i < n) {
    skipSpace();
    if (i >= n) break;
    if (!address()) return "a sed address the guard cannot read";
    if (script[i] === ",") {
      i++;
      if (script[i] === "+" || script[i] === "~") i++;
      if (!address()) return "a sed address the guard cannot read";
    }
    while (script[i] === " " || script[i] === "!") i++;
    const cmd = script[i];
    if (cmd === undefined) break;
    i++;
    if ("{}=dDgGhHnNpPxzF".includes(cmd)) continue;
    if (cmd === "#") {
      while (i < n && script[i] !== "\n") i++;
      continue;
    }
    if ("lLqQ".includes(cmd)) {
      while (i < n && /[\d ]/.test(script[i]!)) i++;
      continue;
    }
    if (":btT".includes(cmd)) {
      while (i < n && script[i] !== ";" && script[i] !== "\n") i++;
      continue;
    }
    if ("aic".includes(cmd)) {
      // text to the end of the line (a\ continues onto the next)
      while (i < n && script[i] !== "\n") i += script[i] === "\\" ? 2 : 1;
      continue;
    }
    if (cmd === "s" || cmd === "y") {
      const d = script[i];
      if (!d || d === "\\" || d === "\n") return `a sed ${cmd} command the guard cannot read`;
      i++;
      if (!part(d, cmd === "s") || !part(d, false)) return `a sed ${cmd} command the guard cannot read`;
      if (cmd === "s") {
        const flags = /^[0-9gpiImMe w]*/.exec(script.slice(i))?.[0] ?? "";
        const f = flags.replace(/\s.*$/s, "");
        if (f.includes("e")) return "sed s///e runs the pattern space as a command";
        if (f.includes("w")) return "sed s///w writes a file";
        i += f.length;
      }
      continue;
    }
    if (cmd === "e") return "sed e runs a command";
    if (cmd === "w" || cmd === "W") return `sed ${cmd} writes a file`;
    if (cmd === "r" || cmd === "R") return `sed ${cmd} reads a file the command line does not name`;
    return `sed command '${cmd}' is not known to be read-only`;
  }
  return undefined;
}

/** Why an awk program is not read-only: anything that could run, write or read by a name at run time. */
export function awkProgramRisk(program: string): string | undefined {
  if (/\bsystem\s*\(/.test(program)) return "awk system() runs a command";
  if (program.includes("|")) return "awk | pipes to or from a command";
  if (program.includes(">")) return "awk > may redirect output to a file";
  if (/\bgetline\b/.test(program)) return "awk getline reads from a file or a command";
  if (/@\s*(load|include|namespace)|\b(close|fflush)\s*\(/.test(program)) return "awk loads code or manages files";
  if (/\bENVIRON\b|\bPROCINFO\b/.test(program)) return "awk reads the environment";
  return undefined;
}
