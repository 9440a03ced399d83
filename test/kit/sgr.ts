/**
 * The effective style of text in a `capture-pane -e` capture. tmux writes only what changes from one cell
 * to the next, across rows too, so a row's own escapes do not say whether it is bold: replay every SGR
 * from the top of the capture up to the text.
 */
export interface CellStyle {
  bold: boolean;
  italic: boolean;
  underline: boolean;
  /** "31", "90", "38;5;n" … or undefined for the default */
  fg?: string;
  bg?: string;
}

function apply(st: CellStyle, params: string): void {
  const p = params === "" ? ["0"] : params.split(";");
  for (let i = 0; i < p.length; i++) {
    const n = Number(p[i]);
    if (n === 0) Object.assign(st, { bold: false, italic: false, underline: false, fg: undefined, bg: undefined });
    else if (n === 1) st.bold = true;
    else if (n === 22) st.bold = false;
    else if (n === 3) st.italic = true;
    else if (n === 23) st.italic = false;
    else if (n === 4) st.underline = true;
    else if (n === 24) st.underline = false;
    else if (n === 39) st.fg = undefined;
    else if (n === 49) st.bg = undefined;
    else if ((n === 38 || n === 48) && p[i + 1] === "5") {
      const v = `${n};5;${p[i + 2]}`;
      if (n === 38) st.fg = v;
      else st.bg = v;
      i += 2;
    } else if ((n >= 30 && n <= 37) || (n >= 90 && n <= 97)) st.fg = String(n);
    else if ((n >= 40 && n <= 47) || (n >= 100 && n <= 107)) st.bg = String(n);
  }
}

/** The style in effect where `text` first starts in the capture (undefined when it is not there). */
export function styleAt(styled: string, text: string): CellStyle | undefined {
  const st: CellStyle = { bold: false, italic: false, underline: false };
  let plain = "";
  const segments: Array<{ at: number; style: CellStyle }> = [];
  for (const m of styled.matchAll(/\x1b\[([0-9;]*)m|[^\x1b]+|\x1b/g)) {
    if (m[1] !== undefined) apply(st, m[1]);
    else {
      segments.push({ at: plain.length, style: { ...st } });
      plain += m[0];
    }
  }
  const at = plain.indexOf(text);
  if (at === -1) return undefined;
  let found: CellStyle | undefined;
  for (const seg of segments) {
    if (seg.at > at) break;
    found = seg.style;
  }
  return found;
}
