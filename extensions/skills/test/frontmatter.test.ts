/**
 * frontmatter.ts: the flat parser (flat-yaml.ts) and js-yaml give the same result on the same inputs; what
 * the flat parser does not understand goes to js-yaml; broken YAML still warns and falls back to names.
 */
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { parseFlatYaml } from "../flat-yaml.js";
import { parseFrontmatter } from "../frontmatter.js";
import { readItem } from "../catalog.js";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const yaml = createRequire(import.meta.url)("js-yaml") as { load(s: string): unknown };

/** Read by the flat parser: its answer must be js-yaml's. */
const FLAT = [
  "name: review\ndescription: the repo's review rules",
  "allowed-tools: Read, Grep",
  "allowed-tools: Read, Grep Bash(git add:*)",
  "allowed-tools: [Read, Grep, \"Bash(git:*)\"]",
  "allowed-tools: []",
  "allowed-tools:\n  - Read\n  - Bash(git status)\nname: x",
  "allowed-tools:\n- Read\n- 'Grep'",
  "description: \"quoted: with colon\"\nname: 'single # not a comment'",
  "disable-model-invocation: true\nuser-invocable: False\nx: TRUE",
  "user-invocable: 'false'",
  "argument-hint: [env]",
  "argument-hint: \"[file] [mode]\"",
  "n: 42\nf: 1.5\nz: 0\nneg: -3\nnul: ~\nnul2: null\nempty:",
  "yes: yes\non: off",
  "# a comment\nname: x\n\n# another\ndescription: C# and F# tips",
  "description: say \"hi\" to {them}, [now]",
  "name: x   \r\ndescription: crlf line   ",
  "model: claude-sonnet-4-5\ncolor: blue\nversion: v1.2.3",
  "name:\tx",
  "a: [a b, c]\nb: [true, 1, 'q']",
  "a: x  y",
  "a:\n  # c\nb: 1",
  "k: v\n\n\n",
  "",
];

/** Left to js-yaml (the flat parser answers undefined). */
const FULL = [
  "description: >\n  two\n  lines",
  "description: |\n  literal\n  block",
  "description: a plain\n  continued line",
  "metadata:\n  author: me\n  tags: [a]",
  "description: \"escaped \\\" quote\"",
  "description: 'it''s'",
  "name: x # trailing comment",
  "anchor: &a value\nref: *a",
  "tagged: !!str 12",
  "date: 2024-01-01",
  "hex: 0x1F",
  "big: 1_000",
  "exp: 1e3",
  "flow: {a: 1}",
  "nested: [[a], b]",
  "name: [oops",
  "name: x\nname: y",
  "- a\n- b",
  "name: foo: bar",
  "list:\n  - a\n    b",
  "list:\n  - a\n - b",
  "-x: 1",
];

describe("the flat parser and js-yaml agree", () => {
  it.each(FLAT)("flat: %j", (src) => {
    const flat = parseFlatYaml(src);
    expect(flat, "the flat parser should read this").toBeDefined();
    expect(flat).toEqual(yaml.load(src) ?? {});
  });

  it.each(FULL)("left to js-yaml: %j", (src) => {
    expect(parseFlatYaml(src)).toBeUndefined();
  });

  it.each([...FLAT, ...FULL])("parseFrontmatter gives one answer either path: %j", (src) => {
    const text = `---\n${src}\n---\nbody $ARGUMENTS\n`;
    expect(parseFrontmatter(text, "auto")).toEqual(parseFrontmatter(text, "full"));
  });

  it("random flat-looking blocks: wherever the flat parser answers, js-yaml answers the same (or it defers)", () => {
    const atoms = ["a", "Read", "Bash(git:*)", "x y", "true", "False", "null", "~", "12", "-3", "1.50", "0", "07", "1e3", "0x1f", "'q'", '"d"', '"e\\n"', "[a, b]", "[]", "a: b", "a #c", "C#", "-x", "&a", "*a", "!t", "|", ">", "{a: 1}", "2024-01-01", ".5", "yes", "a,b", " ", "é ü", "'it''s'"];
    let seed = 14;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
    let flatCount = 0;
    for (let i = 0; i < 600; i++) {
      const lines: string[] = [];
      for (let k = 0, n = 1 + rnd(4); k < n; k++) {
        const key = `k${rnd(3)}`;
        const shape = rnd(4);
        if (shape === 0) lines.push(`${key}:`, ...Array.from({ length: rnd(3) }, () => `${rnd(2) ? "  " : ""}- ${atoms[rnd(atoms.length)]}`));
        else if (shape === 1) lines.push(`${key}: [${atoms[rnd(atoms.length)]}, ${atoms[rnd(atoms.length)]}]`);
        else lines.push(`${key}: ${atoms[rnd(atoms.length)]}`);
      }
      const src = lines.join("\n");
      const flat = parseFlatYaml(src);
      if (flat === undefined) continue;
      flatCount++;
      expect(flat, src).toEqual(yaml.load(src) ?? {});
    }
    expect(flatCount).toBeGreaterThan(50);
  });

  it("the Claude Code shapes come out as the catalog expects", () => {
    const fm = parseFrontmatter("---\nname: x\nallowed-tools: Read, Grep\nargument-hint: [env]\ndisable-model-invocation: true\n---\n").fm!;
    expect(fm).toEqual({ name: "x", "allowed-tools": ["Read", "Grep"], "argument-hint": "[env]", "disable-model-invocation": true, extra: {} });
    const folded = parseFrontmatter("---\ndescription: >\n  folded\n  text\n---\n").fm!;
    expect(folded.description).toBe("folded text");
  });
});

describe("broken frontmatter", () => {
  it("warns and loads the item under its directory name", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "oc-fm-"));
    try {
      const file = path.join(dir, "SKILL.md");
      fs.writeFileSync(file, "---\nname: [oops\ndescription: never read\n---\nFix it.\n");
      const it = readItem("skill", file, "broken")!;
      expect(it.name).toBe("broken");
      expect(it.warning).toMatch(/the frontmatter is not valid YAML .*; loaded as 'broken'/);
      expect(it.description).toBe("Fix it.");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
