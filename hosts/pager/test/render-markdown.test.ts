/** The markdown renderer: markdown in, painted terminal rows out (hosts/pager/render). */
import { beforeAll, describe, expect, it } from "vitest";
import stringWidth from "string-width";
import { renderMarkdown } from "../render/markdown.js";
import { loadHighlighter } from "../render/highlight.js";
import { unpaint, type Paint } from "../render/style.js";
import { fitColumns } from "../render/table.js";
import { linksFromEnv } from "../render/links.js";
import { MarkdownStream, TAIL_LINES } from "../render/stream.js";

const COLOR: Paint = { color: true, links: false };
const PLAIN: Paint = { color: false, links: false };
const md = (src: string, width = 60, paint = COLOR) => renderMarkdown(src, { width, paint });
const text = (rows: string[]) => rows.map(unpaint);
/** every escape sequence in the output: only our SGR and (when on) OSC 8 may appear */
const OURS = /^(\x1b\[[0-9;]*m|\x1b\]8;;[\x21-\x7e]*\x1b\\)$/;
const escapes = (rows: string[]) => rows.join("\n").match(/\x1b(\[[0-9;]*[A-Za-z]|\][^\x07\x1b]*(\x07|\x1b\\)?|.)/g) ?? [];

beforeAll(async () => {
  await loadHighlighter();
});

describe("markdown → terminal rows", () => {
  it("headings and emphasis lose their markers and gain bold/italic", () => {
    const rows = md("# Top\n\n## Second\n\nSome **bold** and *italic* and `code` and ~~gone~~.");
    expect(text(rows)).toEqual(["Top", "", "Second", "", "Some bold and italic and code and gone."]);
    expect(rows[0]).toContain("\x1b[1m");
    expect(rows[0]).toContain("\x1b[4m"); // h1 underlined
    expect(rows[4]).toContain("\x1b[1mbold\x1b[0m");
    expect(rows[4]).toContain("\x1b[3mitalic\x1b[0m");
    expect(rows[4]).toContain("\x1b[94mcode\x1b[0m");
    expect(rows[4]).toContain("\x1b[9mgone\x1b[0m");
  });

  it("lists: bullets by depth, numbers aligned, task boxes; wrapped items hang under their text", () => {
    const rows = text(md("- one\n- two is a long item that has to wrap onto the next row\n  - nested\n\n1. a\n2. b\n\n- [x] done\n- [ ] open", 30));
    expect(rows).toEqual(["• one", "• two is a long item that has", "  to wrap onto the next row", "  ◦ nested", "", "1. a", "2. b", "", "☑ done", "☐ open"]);
  });

  it("a quote sits behind a bar, in italics, never as the '> ' of the prompt echo", () => {
    const rows = md("> quoted **text**\n> second line");
    expect(text(rows)).toEqual(["│ quoted text", "│ second line"]);
    expect(rows[0]).toMatch(/^\x1b\[90m│ \x1b\[0m\x1b\[3mquoted /);
    for (const r of text(rows)) expect(r.startsWith(">")).toBe(false);
  });

  it("links: OSC 8 only when the paint allows; otherwise the target in brackets; odd schemes never linked", () => {
    const off = md("see [docs](https://example.com/a) now");
    expect(text(off)).toEqual(["see docs (https://example.com/a) now"]);
    expect(off.join("")).not.toContain("\x1b]8");
    const on = md("see [docs](https://example.com/a) now", 60, { color: true, links: true });
    expect(on[0]).toContain("\x1b]8;;https://example.com/a\x1b\\");
    expect(unpaint(on[0]!)).toBe("see docs now");
    const js = md("[x](javascript:alert(1))", 60, { color: true, links: true });
    expect(js.join("")).not.toContain("\x1b]8");
  });

  it("code fences are coloured by language (keywords, strings, numbers differ); unknown languages stay plain", () => {
    const rows = md("```ts\nconst s: string = \"hi\"; // note\nlet n = 42;\n```");
    expect(text(rows)).toEqual(['  const s: string = "hi"; // note', "  let n = 42;"]);
    const fg = (row: string, word: string) => new RegExp(`\\x1b\\[(\\d+)m${word}`).exec(row)?.[1];
    expect(fg(rows[0]!, "const")).toBe("35");
    expect(fg(rows[0]!, '"hi"')).toBe("32");
    expect(fg(rows[1]!, "42")).toBe("33");
    expect(rows[0]).toMatch(/\x1b\[3m\x1b\[90m\/\/ note/);
    const plain = md("```nosuchlang\nconst x = 1;\n```");
    expect(plain).toEqual(["  const x = 1;"]);
  });

  it("NO_COLOR: no colour codes, bold and italics stay", () => {
    const rows = md("# T\n\n**b** `c`\n\n```ts\nconst a = 1;\n```", 60, PLAIN);
    const all = rows.join("\n");
    expect(all).not.toMatch(/\x1b\[(3\d|9\d|4\d|10\d|38|48)[;m]/);
    expect(all).toContain("\x1b[1mb");
  });

  it("model text cannot drive the terminal: ESC, C0, C1 and bidi controls become visible stand-ins before rendering", () => {
    const evil = "**hi** \x1b]52;c;aGk=\x07 \x1b[2J \u009b31m \u202e \x1b]8;;http://evil\x1b\\x\x1b]8;;\x1b\\ \r over";
    const rows = md(evil, 200, { color: true, links: true });
    for (const e of escapes(rows)) expect(e).toMatch(OURS);
    const shown = text(rows).join("\n");
    expect(shown).toContain("␛]52;c;aGk=␇");
    expect(shown).toContain("␛[2J");
    expect(shown).toContain("<U+009B>31m");
    expect(shown).toContain("<U+202E>");
    expect(shown).toContain("␍ over");
    // a code fence and a table cell are no way around it
    for (const src of ["```\n\x1b[31mred\n```", "| a |\n|---|\n| \x1b[2J |"]) for (const e of escapes(md(src))) expect(e).toMatch(OURS);
  });
});

describe("tables", () => {
  const TABLE = "| Name | Qty | Notes |\n|:--|--:|:-:|\n| apple | 3 | a fruit that grows on trees in many countries |\n| kiwi | 120 | small |";

  it("draws box characters with the header bold and alignment kept", () => {
    const rows = md(TABLE, 100);
    const t = text(rows);
    expect(t[0]).toMatch(/^┌─+┬─+┬─+┐$/);
    expect(t[1]).toMatch(/^│ Name +│ Qty │ +Notes +│$/);
    expect(t[2]).toMatch(/^├─+┼─+┼─+┤$/);
    expect(t[3]).toMatch(/^│ apple │ {3}3 │ a fruit/);
    expect(t[4]).toMatch(/^│ kiwi  │ 120 │ +small +│$/);
    expect(t[t.length - 1]).toMatch(/^└─+┴─+┴─+┘$/);
    expect(rows[1]).toContain("\x1b[1mName");
  });

  it("fits the width: every row at most the width, long cells wrap inside their column", () => {
    for (const width of [40, 32, 24]) {
      const t = text(md(TABLE, width));
      for (const r of t) expect(stringWidth(r)).toBeLessThanOrEqual(width);
      const widths = new Set(t.map((r) => stringWidth(r)));
      expect(widths.size).toBe(1); // every row the same width: the frame lines up
      // nothing is lost: the cells' text, read down the rows, is all there
      expect(t.join("").replace(/[│┌┐└┘├┤┬┴┼─\s]/g, "")).toContain("afruitthatgrowsontreesinmanycountries");
    }
  });

  it("wide characters count two cells", () => {
    const t = text(md("| 名前 | x |\n|---|---|\n| 日本語 | y |", 40));
    const widths = new Set(t.map((r) => stringWidth(r)));
    expect(widths.size).toBe(1);
  });

  it("fitColumns narrows the widest column first, never under 3", () => {
    expect(fitColumns([5, 5], 40)).toEqual([5, 5]);
    expect(fitColumns([30, 5], 20)).toEqual([8, 5]); // 20 less the frame (7) leaves 13
    expect(fitColumns([10, 10, 10], 4)).toEqual([3, 3, 3]);
  });
});

describe("streaming", () => {
  const ANSWER = ["# Title", "", "Intro **bold** paragraph.", "", "```ts", "const a = 1;", "", "const b = 2;", "```", "", "| a | b |", "|---|---|", "| 1 | 2 |", "", "- item one", "- item two", "", "The end."].join("\n");

  it("rows after any split into chunks equal the whole answer rendered at once", () => {
    const whole = md(ANSWER, 50);
    for (const size of [1, 3, 7, 64]) {
      const s = new MarkdownStream();
      for (let i = 0; i < ANSWER.length; i += size) {
        s.push(ANSWER.slice(i, i + size));
        s.lastRows(10, 50, COLOR); // the screen reads rows between chunks
      }
      expect(s.finish(50, COLOR)).toEqual(whole);
    }
  });

  it("the live rows are the last rows of what is there so far", () => {
    const s = new MarkdownStream();
    s.push("para one\n\npara two\n\n```ts\nconst x = 1;\n");
    const live = text(s.lastRows(3, 40, COLOR));
    expect(live).toEqual(["para two", "", "  const x = 1;"]);
  });

  it("an open code block longer than the window shows its last lines, still as code", () => {
    const s = new MarkdownStream();
    s.push("```ts\n");
    for (let i = 0; i < TAIL_LINES * 3; i++) s.push(`const v${i} = ${i};\n`);
    const live = s.lastRows(5, 60, COLOR);
    expect(text(live)[4]).toBe(`  const v${TAIL_LINES * 3 - 1} = ${TAIL_LINES * 3 - 1};`);
    expect(live[4]).toContain("\x1b[35mconst");
    expect(text(s.finish(60, COLOR))).toHaveLength(TAIL_LINES * 3);
  });
});

describe("OSC 8 from the environment", () => {
  it("on for terminals that say so, off in tmux/screen unless asked, OC_PAGER_LINKS decides", () => {
    expect(linksFromEnv({ TERM_PROGRAM: "iTerm.app" })).toBe(true);
    expect(linksFromEnv({ VTE_VERSION: "7200" })).toBe(true);
    expect(linksFromEnv({ VTE_VERSION: "4800" })).toBe(false);
    expect(linksFromEnv({ TERM_PROGRAM: "WezTerm", TMUX: "/tmp/tmux-1/default,1,0" })).toBe(false);
    expect(linksFromEnv({ TERM: "screen-256color", KITTY_WINDOW_ID: "1" })).toBe(false);
    expect(linksFromEnv({ TMUX: "x", OC_PAGER_LINKS: "1" })).toBe(true);
    expect(linksFromEnv({ TERM_PROGRAM: "iTerm.app", OC_PAGER_LINKS: "0" })).toBe(false);
    expect(linksFromEnv({ TERM: "xterm-256color" })).toBe(false);
  });
});
