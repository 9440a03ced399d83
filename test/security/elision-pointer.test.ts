/**
 * The elision pointer hands the model a shell command (sed over the transcript file). A ledger path that
 * carries shell syntax (a quote, a space, a command substitution: a `ledger.dir` or HOME named by someone
 * else) must stay one quoted word: the command reads the section and runs nothing else.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { elideOutput, elideSettings, transcriptFile } from "../../extensions/tideline/elide.js";

const S = elideSettings(undefined);
const output = () => Array.from({ length: 120 }, (_, j) => `line ${j} 0123456789abcdefghijklmnopqrstuvwxyz0123456789`).join("\n");

describe("the elision pointer's read command", () => {
  it("reads the section back through bash from a hostile ledger path and runs nothing it names", () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "oc-elide-"));
    try {
      const pwned = path.join(root, "pwned");
      const dir = path.join(root, `it's a $(touch ${pwned}) \`touch ${pwned}\` ledger`);
      const file = transcriptFile(dir, 1);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, "### tool · seq 15 · step 7\n\nNEEDLE=abc\n\n### assistant · seq 16\n");
      const e = elideOutput(output(), S, { file, seq: 15, callId: "toolu_7" })!;
      const cmd = /read it with: (.*)\]$/m.exec(e)![1]!;
      const r = spawnSync("bash", ["-c", cmd], { encoding: "utf8" });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toContain("NEEDLE=abc");
      expect(fs.existsSync(pwned)).toBe(false);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
