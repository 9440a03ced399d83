/**
 * What a line the user sends is, before anything is sent: `!cmd` (a shell command run here), `#text`
 * (a memory note), a `/word` (a command, a skill, or an unknown name refused here), or a message. Pure.
 */

export type Classified = { kind: "bang"; command: string } | { kind: "memory"; text: string } | { kind: "slash"; name: string } | { kind: "message" };

/** `/name` as a command word: letters, digits and `_ . : -`, no second `/` (so `/usr/bin/x` is text). */
const SLASH_WORD = /^\/([A-Za-z0-9][A-Za-z0-9_.:-]*)(?=\s|$)/;

export function classify(text: string): Classified {
  const t = text.trim();
  if (t.startsWith("!") && t.slice(1).trim()) return { kind: "bang", command: t.slice(1).trim() };
  // one line only: a pasted markdown document that opens with a heading is a message
  if (/^#(?!#)/.test(t) && !t.includes("\n") && t.slice(1).trim()) return { kind: "memory", text: t.slice(1).trim() };
  const m = SLASH_WORD.exec(t);
  if (m) return { kind: "slash", name: m[1]! };
  return { kind: "message" };
}

/**
 * Is `/name` something this pager cannot know to be wrong? Plugin-qualified (`plugin:skill`) and MCP
 * prompt names (`mcp__…`) are resolved by their extensions, which warn when nothing matches.
 */
export function resolvedElsewhere(name: string): boolean {
  return name.includes(":") || name.startsWith("mcp__");
}

/** Edit distance with swapped neighbours counting one (`/hepl` is one slip from `/help`); names are short. */
export function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

/** What other tools call these; the nearest thing here (e.g. Claude Code's /cost is our /context). */
const ALIASES: Record<string, string> = { cost: "context", usage: "context", compact: "tideline", quit: "exit", new: "clear", status: "context" };

/** Up to three known names close to `name`: an alias first, then prefix matches, then by edit distance. */
export function didYouMean(name: string, known: readonly string[]): string[] {
  const n = name.toLowerCase();
  const out: string[] = [];
  const alias = ALIASES[n];
  if (alias && known.includes(alias)) out.push(alias);
  for (const k of known) if (!out.includes(k) && (k.startsWith(n) || n.startsWith(k)) && n.length >= 2) out.push(k);
  const near = known
    .filter((k) => !out.includes(k))
    .map((k) => ({ k, d: distance(n, k.toLowerCase()) }))
    .filter((x) => x.d <= Math.max(1, Math.floor(Math.max(n.length, x.k.length) / 3)))
    .sort((a, b) => a.d - b.d || a.k.localeCompare(b.k));
  for (const x of near) out.push(x.k);
  return out.slice(0, 3);
}

/** The notice for an unknown `/name`: nothing was sent. */
export function unknownSlashText(name: string, known: readonly string[]): string {
  const near = didYouMean(name, known);
  const hint = near.length ? `did you mean ${near.map((k) => `/${k}`).join(", ")}? ` : "";
  return `unknown command /${name}: nothing was sent. ${hint}(/help lists the commands; to ask the model, write it without the leading /)`;
}
