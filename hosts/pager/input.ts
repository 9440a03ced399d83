/**
 * Reading keys the way terminals and automation send them (pure helpers for the pager's key handler).
 * Bracketed pastes are taken out before ink sees the input (tty-input.ts); everything else is typing.
 * Text and Enter can arrive in one chunk (`tmux send-keys 'hello' Enter`, a busy SSH link), so a typed
 * chunk is split: CR (what Enter sends) submits, LF (ctrl+j) is a newline.
 */

export type TypedPart = { kind: "text"; text: string } | { kind: "enter" } | { kind: "newline" };

/** Split a typed chunk at its line breaks: CR or CR LF is Enter, a lone LF (ctrl+j) a newline. */
export function splitTyped(input: string): TypedPart[] {
  const out: TypedPart[] = [];
  for (const piece of input.split(/(\r\n|\r|\n)/)) {
    if (piece === "\r" || piece === "\r\n") out.push({ kind: "enter" });
    else if (piece === "\n") out.push({ kind: "newline" });
    else if (piece) out.push({ kind: "text", text: piece });
  }
  return out;
}

/** Is the composer's text exactly `/<name>` of a known command (trailing spaces allowed)? */
export function knownCommand(value: string, names: readonly string[]): string | undefined {
  const m = /^\/(\S+)\s*$/.exec(value);
  return m && names.includes(m[1]!) ? m[1] : undefined;
}
