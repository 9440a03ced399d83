/**
 * Point 1's deterministic parts and its policy, pure (for `jev verdicts` and tests):
 *   - the hold list: commands that always ask whatever Jev answers;
 *   - the lexical check for paths outside the project (docs/jev.md "Paths outside the project");
 *   - the four questions and the safe class.
 */
import path from "node:path";
import type { JevAnswer, JevQuestion } from "../api.js";

export const PERMISSION_QUESTIONS: Readonly<Record<string, JevQuestion>> = {
  destructive: {
    type: "noul",
    instructions: "Would running `command` in `workdir` delete, overwrite or corrupt data that is not trivially regenerated?",
    criteria: { true: "it removes or overwrites files, history, databases or other data", false: "it only reads, builds, tests or creates new files" },
  },
  egress: {
    type: "noul",
    instructions: "Would running `command` send data from this machine to another host (upload, post, push, publish, remote shell)?",
    criteria: { true: "it sends data out over the network", false: "no data leaves the machine (downloads of dependencies aside)" },
  },
  reversible: {
    type: "score",
    instructions: "How easily could the effects of running `command` in `workdir` be undone?",
    criteria: ["not: the effects cannot be undone", "partly: some effects need manual work to undo", "easily: nothing or only regenerable files change"],
  },
  blast_radius: {
    type: "choice",
    instructions: "What is the widest scope that running `command` in `workdir` can affect?",
    options: ["single-file", "project", "system", "third-party"],
  },
};

/** The command limit: a longer one is not advised (its state would be truncated). */
export const COMMAND_MAX = 4000;

const seg = (cmd: string) => cmd.split(/&&|\|\||;|\||\n/).map((s) => s.trim()).filter(Boolean);

/** Split a command into words (quotes removed, no expansion). */
export function words(s: string): string[] {
  const out: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g;
  for (let m; (m = re.exec(s)); ) out.push(m[1] ?? m[2] ?? m[3] ?? "");
  return out;
}

const INTERPRETERS = new Set(["python", "python2", "python3", "node", "bash", "sh", "zsh", "dash", "ksh", "fish", "ruby", "perl", "php", "deno", "bun", "tsx", "ts-node", "lua", "Rscript", "pwsh"]);
const PKG = new Set(["npm", "pnpm", "yarn", "bun", "pip", "pip3", "pipx", "cargo", "apt", "apt-get", "brew", "gem", "go", "dnf", "yum", "apk", "pacman", "uv", "poetry", "composer", "conda"]);
const INSTALL_VERBS = new Set(["install", "i", "add", "ci", "get", "upgrade"]);

/** Why a command is on the hold list (always asks), or undefined. */
export function holdReason(command: string): string | undefined {
  for (const s of seg(command)) {
    let w = words(s);
    while (w.length && (/^[A-Za-z_][A-Za-z0-9_]*=/.test(w[0]!) || ["sudo", "env", "command", "exec", "nohup", "time", "npx"].includes(w[0]!))) w = w.slice(1);
    const [c, a1, a2] = [w[0] ?? "", w[1] ?? "", w[2] ?? ""];
    const base = path.basename(c);
    if (PKG.has(base) && (INSTALL_VERBS.has(a1) || (base === "uv" && a1 === "pip" && a2 === "install"))) return `package install (${base} ${a1})`;
    if ((base === "python" || base === "python3") && a1 === "-m" && a2 === "pip" && w.includes("install")) return "package install (pip)";
    if (["npm", "pnpm", "yarn", "cargo", "gem", "twine", "poetry"].includes(base) && (a1 === "publish" || a1 === "push" || a1 === "upload")) return `publish (${base} ${a1})`;
    if (base === "git") {
      // skip git's global options (-C <dir>, -c <k=v>, --git-dir=…) to find the subcommand
      let i = 1;
      while (i < w.length && w[i]!.startsWith("-")) i += ["-C", "-c", "--git-dir", "--work-tree", "--namespace"].includes(w[i]!) ? 2 : 1;
      if (w[i] === "push") return "git push";
    }
    if (base === "rm" && w.slice(1).some((x) => /^-[a-zA-Z]*[rR]/.test(x) || x === "--recursive")) return "recursive rm";
    if (["ssh", "scp", "sftp", "rsync", "telnet", "nc", "ncat"].includes(base)) return `remote shell or copy (${base})`;
    if (base === "curl" && w.some((x, i) => ["-T", "--upload-file", "-F", "--form"].includes(x) || /^(-d|--data)/.test(x) || (x === "-X" && /^(POST|PUT|PATCH|DELETE)$/i.test(w[i + 1] ?? "")) || /^-X(POST|PUT|PATCH|DELETE)$/i.test(x) || /^--request=?(POST|PUT)/i.test(x))) return "uploading curl";
    if (base === "wget" && w.some((x) => /^--(post|body|method)/.test(x))) return "uploading wget";
    if (INTERPRETERS.has(base.replace(/\d+(\.\d+)*$/, "")) || INTERPRETERS.has(base)) {
      const arg = w.slice(1).find((x) => !x.startsWith("-"));
      const inline = w.slice(1).some((x) => x === "-c" || x === "-e" || x === "-m" || x === "--eval");
      if (arg && !inline) return `interpreter on a file (${base} ${arg})`;
    }
  }
  return undefined;
}

function inside(abs: string, project: string): boolean {
  const rel = path.relative(project, abs);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/** The first word of the command (or the workdir) that names a path outside the project, lexically. */
export function outsidePath(command: string, workdir: string, project: string, home: string): string | undefined {
  if (!inside(path.resolve(project, workdir), project)) return `workdir ${workdir}`;
  for (const raw of words(command)) {
    let w = raw.replace(/^\d*(>>|>|<)&?/, "");
    if (!w || w.includes("://") || w === "/dev/null") continue;
    const kv = /^(?:--?[A-Za-z0-9_-]+|[A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(w);
    if (kv) w = kv[1]!;
    else if (/^-[A-Za-z]\//.test(w)) w = w.slice(2);
    if (!w || w.includes("://") || w === "/dev/null") continue;
    if (/^\$/.test(w) && w.includes("/")) return raw;
    if (!(w.startsWith("/") || w.startsWith("~") || w.includes("/") || w === "..")) continue;
    const abs = w === "~" || w.startsWith("~/") ? path.join(home, w.slice(1)) : w.startsWith("~") ? "/" : path.resolve(workdir, w);
    if (!inside(abs, project)) return raw;
  }
  return undefined;
}

const noul = (a: JevAnswer | undefined) => (a?.type === "noul" ? a.noul : 1);

/**
 * The policy: "allow" inside the safe class (not destructive, no egress, easily undone, single-file or
 * project blast radius); "reject" when the answer says destructive, egress, system or third-party (under
 * headless --auto that rejects the call); else "ask".
 */
export function permissionVerdict(answers: Readonly<Record<string, JevAnswer>>, thr: (name: string, fallback: number) => number): "allow" | "ask" | "reject" {
  const d = noul(answers.destructive);
  const e = noul(answers.egress);
  const r = answers.reversible?.type === "score" ? answers.reversible.score : 0;
  const b = answers.blast_radius?.type === "choice" ? answers.blast_radius.choice : "system";
  if (d >= thr("permission_destructive", 0.2) || e >= thr("permission_egress", 0.2) || b === "system" || b === "third-party") return "reject";
  if (r >= thr("permission_reversible", 1.5) && (b === "single-file" || b === "project")) return "allow";
  return "ask";
}

/** The scores, for the model's feedback and the notice. */
export function scoreLine(answers: Readonly<Record<string, JevAnswer>>): string {
  const a = answers;
  const f = (x: number) => x.toFixed(2);
  return [
    a.destructive?.type === "noul" ? `destructive=${f(a.destructive.noul)}` : "",
    a.egress?.type === "noul" ? `egress=${f(a.egress.noul)}` : "",
    a.reversible?.type === "score" ? `reversible=${f(a.reversible.score)}/2` : "",
    a.blast_radius?.type === "choice" ? `blast_radius=${a.blast_radius.choice} (${f(a.blast_radius.confidence)})` : "",
  ]
    .filter(Boolean)
    .join(" ");
}
