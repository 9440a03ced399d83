/** The host sanitizer: every control and escape sequence family becomes visible text; text stays text. */
import { describe, expect, it } from "vitest";
import { Writable } from "node:stream";
import { hasControls, safeJson, visible, visibleLine, VisibleStream } from "../../hosts/terminal/sanitize.js";
import { sanitizingLogger, terminalSafe } from "../../hosts/terminal/writer.js";

const ESC = "\x1b";
const BEL = "\x07";
/** what a terminal could act on: C0 (no \t \n), DEL, C1, bidi controls, line/paragraph separators */
const ACTIVE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

describe("visible(): escape sequences render as text", () => {
  const cases: Array<[string, string, string]> = [
    ["OSC 52 clipboard ended by BEL", `${ESC}]52;c;aGVsbG8=${BEL}`, "␛]52;c;aGVsbG8=␇"],
    ["OSC 0 title ended by ST", `${ESC}]0;pwned${ESC}\\`, "␛]0;pwned␛\\"],
    ["OSC 2 title", `${ESC}]2;x${BEL}`, "␛]2;x␇"],
    ["OSC 8 hyperlink", `${ESC}]8;;https://evil.example${ESC}\\click${ESC}]8;;${ESC}\\`, "␛]8;;https://evil.example␛\\click␛]8;;␛\\"],
    ["SGR colour", `${ESC}[31;1mred${ESC}[0m`, "␛[31;1mred␛[0m"],
    ["CSI clear screen and home", `${ESC}[2J${ESC}[H`, "␛[2J␛[H"],
    ["CSI cursor movement", `${ESC}[5A${ESC}[10;3H${ESC}[K`, "␛[5A␛[10;3H␛[K"],
    ["CSI private mode (alt screen, hide cursor)", `${ESC}[?1049h${ESC}[?25l`, "␛[?1049h␛[?25l"],
    ["DCS string", `${ESC}P1$r0m${ESC}\\`, "␛P1$r0m␛\\"],
    ["APC, PM, SOS strings", `${ESC}_apc${ESC}\\${ESC}^pm${ESC}\\${ESC}Xsos${ESC}\\`, "␛_apc␛\\␛^pm␛\\␛Xsos␛\\"],
    ["two-character ESC sequences (RIS, DECSC, charset)", `${ESC}c${ESC}7${ESC}(0`, "␛c␛7␛(0"],
    ["8-bit CSI", "\x9b2J\x9b31m", "<U+009B>2J<U+009B>31m"],
    ["8-bit OSC ended by 8-bit ST", "\x9d0;t\x9c", "<U+009D>0;t<U+009C>"],
    ["8-bit DCS, NEL", "\x90q\x9c\x85", "<U+0090>q<U+009C><U+0085>"],
    ["bidi override (Trojan Source)", "if (a\u202e } \u2066// x\u2069", "if (a<U+202E> } <U+2066>// x<U+2069>"],
    ["bidi embeddings and marks", "\u202a\u202b\u202c\u202d\u200e\u200f\u061c", "<U+202A><U+202B><U+202C><U+202D><U+200E><U+200F><U+061C>"],
    ["isolates", "\u2066\u2067\u2068\u2069", "<U+2066><U+2067><U+2068><U+2069>"],
    ["line and paragraph separators", "a\u2028b\u2029c", "a<U+2028>b<U+2029>c"],
    ["NUL, BEL, backspace, form feed, vertical tab", "a\x00b\x07c\x08d\x0ce\x0bf", "a␀b␇c␈d␌e␋f"],
    ["DEL", "rm\x7f", "rm␡"],
  ];
  for (const [name, input, want] of cases) {
    it(name, () => {
      const out = visible(input);
      expect(out).toBe(want);
      expect(out).not.toMatch(ACTIVE);
      expect(hasControls(input)).toBe(true);
    });
  }

  it("every C0, DEL and C1 code point is replaced, except \\t and \\n", () => {
    for (let c = 0; c <= 0x9f; c++) {
      if (c >= 0x20 && c < 0x7f) continue;
      const ch = String.fromCharCode(c);
      const out = visible(`x${ch}y`);
      if (ch === "\n" || ch === "\t") expect(out).toBe(`x${ch}y`);
      else expect(out, `U+${c.toString(16)}`).not.toMatch(ACTIVE);
      expect(visibleLine(`x${ch}y`), `U+${c.toString(16)}`).not.toMatch(/[\x00-\x1f\x7f-\x9f]/);
    }
  });
});

describe("visible(): text stays as it was", () => {
  it("leaves ASCII, UTF-8 text, CJK, emoji and joiner sequences untouched", () => {
    const text = "héllo wörld — ✓ 日本語 👩‍💻 🏳️‍🌈 👍🏽 naïve café ﷺ שלום مرحبا\n\tindented";
    expect(visible(text)).toBe(text);
    expect(hasControls(text)).toBe(false);
  });

  it("keeps \\n and \\t; CR LF becomes \\n; a bare CR is shown as ␍ so it cannot overwrite a line", () => {
    expect(visible("a\tb\nc")).toBe("a\tb\nc");
    expect(visible("one\r\ntwo\r\n")).toBe("one\ntwo\n");
    expect(visible("rm -rf /\rls -la   ")).toBe("rm -rf /␍ls -la   ");
  });

  it("oneLine mode shows \\n and \\t too", () => {
    expect(visibleLine("git push\norigin\tmain\r\n")).toBe("git push␤origin␉main␤");
    expect(hasControls("a\nb")).toBe(false);
    expect(hasControls("a\nb", { oneLine: true })).toBe(true);
  });

  it("a literal ␛ typed in text stays (it is already harmless)", () => {
    expect(visible("␛[31m")).toBe("␛[31m");
  });
});

describe("VisibleStream", () => {
  it("joins a CR LF split across chunks and releases a held CR at the end", () => {
    const s = new VisibleStream();
    const out = [s.push("line one\r"), s.push("\nline two\r"), s.push("over"), s.push("end\r"), s.end()].join("");
    expect(out).toBe("line one\nline two␍overend␍");
  });

  it("renders sequences split across chunks as text (no parser state to confuse)", () => {
    const s = new VisibleStream();
    const out = [s.push(`a${ESC}`), s.push("]52;c;"), s.push(`eA==${BEL}b`), s.end()].join("");
    expect(out).toBe("a␛]52;c;eA==␇b");
  });
});

describe("safeJson (extensions/obs/safe-output.ts)", () => {
  it("escapes what JSON.stringify leaves raw (C1, DEL, bidi, separators) and parses back to the exact value", () => {
    const value = { a: "\u009b2J\u007f\u202e\u2066\u2028x", b: [`${ESC}]0;t${BEL}`] };
    const s = safeJson(value, 2);
    expect(s).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/);
    expect(s).toContain("\\u009b");
    expect(JSON.parse(s)).toEqual(value);
  });
});

describe("terminalSafe / sanitizingLogger (hosts/terminal/writer.ts)", () => {
  function sink(isTTY: boolean): { stream: NodeJS.WritableStream; text: () => string } {
    const parts: string[] = [];
    const stream = Object.assign(
      new Writable({
        write(chunk: Buffer | string, _enc, cb) {
          parts.push(chunk.toString());
          cb();
        },
      }),
      { isTTY },
    );
    return { stream, text: () => parts.join("") };
  }

  it("a terminal gets visible text (a UTF-8 character split across writes survives); a data format's pipe gets the exact bytes", async () => {
    const tty = sink(true);
    const safe = terminalSafe(tty.stream);
    expect(safe).not.toBe(tty.stream);
    const bytes = Buffer.from(`${ESC}]0;t${BEL} é\n`);
    safe.write(bytes.subarray(0, bytes.length - 2)); // ends inside "é"
    safe.write(bytes.subarray(bytes.length - 2));
    await new Promise<void>((r) => safe.end(r));
    expect(tty.text()).toBe("␛]0;t␇ é\n");
    const pipe = sink(false);
    expect(terminalSafe(pipe.stream, { exactWhenRedirected: true })).toBe(pipe.stream);
  });

  it("a pipe gets visible text too, with JSON escapes for C1 and bidi: JSON output stays exact once parsed", async () => {
    const pipe = sink(false);
    const safe = terminalSafe(pipe.stream);
    expect(safe).not.toBe(pipe.stream);
    const value = { name: `x${ESC}]52;c;aGk=${BEL}\u009b31m\u202eevil`, ok: true };
    safe.write(`${JSON.stringify(value)}\n`);
    safe.write(`plain ${ESC}[2J line\n`);
    await new Promise<void>((r) => safe.end(r));
    const [json, plain] = pipe.text().split("\n");
    expect(pipe.text()).not.toMatch(/[\u001b\u0007\u0080-\u009f\u202e]/);
    expect(JSON.parse(json!)).toEqual(value);
    expect(plain).toBe("plain ␛[2J line");
  });

  it("log lines keep the kernel's format with the message made visible", () => {
    const err = sink(false);
    const log = sanitizingLogger(false, err.stream);
    log.warn(`bad ${ESC}[2J`);
    log.info("hidden unless verbose");
    expect(err.text()).toBe("oceancode: warning: bad ␛[2J\n");
  });
});
