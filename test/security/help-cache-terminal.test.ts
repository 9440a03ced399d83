/**
 * The --help cache never carries escape sequences to the terminal (hosts/cli/help-cache.ts): an extension
 * whose command summary holds OSC and CSI sequences (title set, screen clear, BEL) is listed with them
 * made visible, on the full path and from the cache alike, and the cache file holds the safe text; a cache
 * file that something else wrote with raw controls in it (a process that can write the user's cache dir)
 * is not printed: the full path answers and writes the safe text again. Effects checked on the bytes.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ageFiles, makeSandbox, runCli, type Sandbox } from "../kit/cli.js";

let sb: Sandbox;
beforeAll(() => {
  sb = makeSandbox("oc-help-cache-esc-");
});
afterAll(() => sb.cleanup());

const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;
const cacheDir = () => path.join(sb.home, ".cache", "oceancode");
const cacheFile = () => {
  const f = fs.existsSync(cacheDir()) ? fs.readdirSync(cacheDir()).find((n) => n.startsWith("help-")) : undefined;
  return f && path.join(cacheDir(), f);
};
/** inputs changed within the last second are not cached (coarse file times): every time a minute back */
const age = () => ageFiles(path.dirname(sb.home));
function help(): string {
  const r = runCli(["--help"], { cwd: sb.project, env: sb.env });
  expect(r.code).toBe(0);
  expect(r.stderr).toBe("");
  return r.stdout;
}

describe("the --help cache and terminal controls", () => {
  it("a hostile summary is shown safely from the full path and the cache; a cache file with raw controls is never printed", () => {
    const dir = path.join(sb.home, ".oceancode", "extensions", "loud");
    fs.mkdirSync(dir, { recursive: true });
    const summary = "boom \u001b]0;pwned\u0007 \u001b[2J \u009b31m red";
    fs.writeFileSync(path.join(dir, "manifest.json"), JSON.stringify({ id: "loud", version: "1.0.0", kernel: "^0.1.0", main: "index.js", contributes: { commands: [{ name: "loud", usage: "oceancode loud", summary }] } }));
    fs.writeFileSync(path.join(dir, "index.js"), "export default { activate() {} };\n");
    age();
    const first = help(); // the full path, which writes the cache
    expect(first).toMatch(/^\s+loud\s+boom .*pwned/m);
    expect(first).not.toMatch(RAW);
    const file = cacheFile();
    expect(file, "a clean --help writes its cache").toBeDefined();
    const stored = JSON.parse(fs.readFileSync(file!, "utf8")) as { stdout: string };
    expect(stored.stdout).toBe(first);
    expect(stored.stdout).not.toMatch(RAW);
    expect(help()).toBe(first); // from the cache: the same safe bytes

    // something else writes the cache with raw sequences in it: not printed, the full path answers
    fs.writeFileSync(file!, JSON.stringify({ ...stored, stdout: `${stored.stdout}\u001b]0;owned\u0007\u001b[2J` }));
    const after = help();
    expect(after).not.toMatch(RAW);
    expect(after).not.toContain("owned");
    expect(after).toBe(first);
    expect(JSON.parse(fs.readFileSync(file!, "utf8")).stdout).toBe(first); // rewritten with the safe text
  });
});
