/**
 * SESSION.md, one living page. Lines are keyed so a fact is edited in place (a file touched again, a
 * command re-run, an error fixed); nothing is ever deleted: a reversed decision stays, struck through.
 * The keyed model is kept beside the page (page.json) so a reopened session edits the same lines.
 */
export const SECTIONS = ["Goal", "Decisions", "Environment", "Errors and fixes", "Code map", "Open questions", "Next step", "Files touched", "Commands"] as const;
export type Section = (typeof SECTIONS)[number];

export interface PageLine {
  key: string;
  text: string;
}

export interface PageData {
  sessionId: string;
  sections: Record<string, PageLine[]>;
  /** decision key -> how many times it was reversed (for unique keys of the struck lines) */
  reversals?: Record<string, number>;
}

export class SessionPage {
  private index = new Map<string, { section: Section; line: PageLine }>();

  constructor(readonly data: PageData) {
    for (const s of SECTIONS) data.sections[s] ??= [];
    for (const s of SECTIONS) for (const l of data.sections[s]!) this.index.set(l.key, { section: s, line: l });
  }

  static empty(sessionId: string): SessionPage {
    return new SessionPage({ sessionId, sections: {} });
  }

  has(key: string): boolean {
    return this.index.has(key);
  }

  get(key: string): string | undefined {
    return this.index.get(key)?.line.text;
  }

  /** Append a line, or replace the keyed line's text in place. Returns true when something changed. */
  upsert(section: Section, key: string, text: string): boolean {
    const hit = this.index.get(key);
    if (hit) {
      if (hit.line.text === text) return false;
      hit.line.text = text;
      return true;
    }
    const line = { key, text };
    this.data.sections[section]!.push(line);
    this.index.set(key, { section, line });
    return true;
  }

  /** Record a decision; an earlier decision with the same key is struck through, never deleted. */
  decide(key: string, text: string, turn: number): void {
    const k = `decision:${key}`;
    const old = this.index.get(k);
    const stamped = `${text} (t${turn})`;
    if (old) {
      if (old.line.text === stamped) return;
      const n = ((this.data.reversals ??= {})[key] ?? 0) + 1;
      this.data.reversals[key] = n;
      old.line.text = `~~${old.line.text}~~ reversed in t${turn}`;
      this.index.delete(k);
      old.line.key = `${k}#${n}`;
      this.index.set(old.line.key, old);
    }
    this.upsert("Decisions", k, stamped);
  }

  /** `extra`: contributed sections (LedgerService.registerSection), rendered after the ledger's own. */
  render(extra: ReadonlyArray<{ title: string; lines: readonly string[] }> = []): string {
    const out = [`# SESSION.md`, "", `The living page of session \`${this.data.sessionId}\`. Each line is stamped with its turn (t<n>). Edited, never rewritten: reversed decisions stay struck through.`, ""];
    for (const s of SECTIONS) {
      out.push(`## ${s}`, "");
      const lines = this.data.sections[s]!;
      if (lines.length === 0) out.push("_nothing yet_");
      for (const l of lines) out.push(`- ${l.text}`);
      out.push("");
    }
    for (const x of extra) out.push(`## ${x.title}`, "", ...x.lines, "");
    return out.join("\n");
  }
}
