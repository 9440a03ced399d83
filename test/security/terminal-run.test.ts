/**
 * `oceancode run` through the compiled CLI: text output (stdout and stderr) carries no escape or control
 * character from untrusted text, only their visible stand-ins; --format json round-trips the exact text.
 */
import { afterEach, describe, expect, it } from "vitest";
import { makeSandbox, runCli, type Sandbox } from "../kit/cli.js";
import { EVIL_TEXT, EVIL_TOOL_NAME, EVIL_TOOL_OUTPUT, writeEvilScript } from "./terminal-fixtures.js";

let sb: Sandbox | undefined;
afterEach(() => {
  sb?.cleanup();
  sb = undefined;
});

/** anything a terminal could act on: C0 but \t \n, DEL, C1, bidi controls */
const ACTIVE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

describe("oceancode run: untrusted text is printed as text", () => {
  it("text mode: stdout and stderr hold no control or escape character, only visible stand-ins", () => {
    sb = makeSandbox();
    writeEvilScript(sb, "evil.json");
    const r = runCli(["--dir", sb.project, "run", "--model", "scripted/evil.json", "go"], { env: sb.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(ACTIVE);
    expect(r.stderr).not.toMatch(ACTIVE);
    expect(r.stdout).toContain("BEFORE-MARK ␛]52;c;SU5KRUNURUQ=␇ ␛]0;PWNED-TITLE-0␇ ␛]2;PWNED-TITLE-2␛\\ ␛[31mRED␛[0m ␛[2J␛[H␛[3A ␛P1$r0m␛\\ <U+009B>2J <U+009D>2;C1-TITLE<U+009C> <U+202E>evil<U+202C> AFTER-MARK");
    expect(r.stdout).toContain("all finished");
    // tool names and inputs on stderr; the unknown tool's error quotes its name
    expect(r.stderr).toContain("▸ bash ");
    expect(r.stderr).toContain("▸ nosuch␛]0;NAME-TITLE␇tool ");
    expect(r.stderr).toContain("✗ unknown tool 'nosuch␛]0;NAME-TITLE␇tool'");
  });

  it("--format json keeps the exact text (JSON escapes it)", () => {
    sb = makeSandbox();
    writeEvilScript(sb, "evil.json");
    const r = runCli(["--dir", sb.project, "run", "--format", "json", "--model", "scripted/evil.json", "go"], { env: sb.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(/\x1b/); // escaped as \u001b inside the JSON strings
    expect(r.stdout).not.toMatch(/[\u0080-\u009f\u202a-\u202e]/); // C1 and bidi too (safeJson), which JSON.stringify leaves raw
    const events = r.stdout.trim().split("\n").map((l) => JSON.parse(l) as { type: string; text?: string; call?: { name: string }; result?: { content: string } });
    const text = events.filter((e) => e.type === "text_delta").map((e) => e.text).join("");
    expect(text).toBe(`${EVIL_TEXT}all finished`);
    const ends = events.filter((e) => e.type === "tool_call_end");
    expect(ends.map((e) => e.call?.name)).toEqual(["bash", EVIL_TOOL_NAME]);
    expect(ends[0]!.result!.content).toContain(EVIL_TOOL_OUTPUT);
  });

  it("kernel and extension log lines on stderr are sanitized too", () => {
    sb = makeSandbox();
    // a user-tier extension that logs hostile text when it activates
    sb.write(
      ".oceancode/extensions/noisy/manifest.json",
      JSON.stringify({ id: "noisy", version: "1.0.0", kernel: "^0.1.0", main: "index.js", requires: ["engine"], activation: ["onSession"] }),
      "home",
    );
    sb.write(".oceancode/extensions/noisy/index.js", `export default { activate(ctx) { ctx.log.warn("look \\u001b]0;LOG-TITLE\\u0007 here"); } };`, "home");
    const r = runCli(["--dir", sb.project, "run", "--model", "scripted/echo", "hi"], { env: sb.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("look ␛]0;LOG-TITLE␇ here");
    expect(r.stderr).not.toMatch(ACTIVE);
  });
});
