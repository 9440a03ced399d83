/**
 * A large bracketed paste is shown in the composer as one chip, `[Pasted text #n +N lines]`, and sent
 * whole: the chip is replaced by the pasted text when the line is sent (and in history recalls, since the
 * chips of a session are kept).
 */

/** Past either bound a paste becomes a chip. */
export const CHIP_LINES = 10;
export const CHIP_CHARS = 1000;

export function isLargePaste(text: string): boolean {
  return text.length > CHIP_CHARS || text.split("\n").length > CHIP_LINES;
}

export function chipLabel(n: number, text: string): string {
  const lines = text.replace(/\n$/, "").split("\n").length;
  return lines > 1 ? `[Pasted text #${n} +${lines} lines]` : `[Pasted text #${n} ${text.length} chars]`;
}

/** The session's chips: label -> pasted text. */
export class PasteChips {
  private readonly texts = new Map<string, string>();
  private count = 0;

  /** A chip for `text` (remembered), to insert in place of it. */
  add(text: string): string {
    const label = chipLabel(++this.count, text);
    this.texts.set(label, text);
    return label;
  }

  /** `value` with every chip it holds replaced by its text. */
  expand(value: string): string {
    if (!this.texts.size || !value.includes("[Pasted text #")) return value;
    return value.replace(/\[Pasted text #\d+ [^\]]+\]/g, (label) => this.texts.get(label) ?? label);
  }
}
