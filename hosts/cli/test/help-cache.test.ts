/**
 * The --help cache (hosts/cli/help-cache.ts, help-record.ts), through the compiled CLI in a throwaway HOME:
 * a plain `oceancode --help` is served from <HOME>/.cache/oceancode/help-*.json only while every file,
 * directory and variable its discovery read is unchanged. A planted marker in the cached text shows when
 * the cache answered; each change below (a new user extension, an edited manifest, a disable in config,
 * another XDG_CONFIG_HOME, a corrupt cache file) must bring the full path back, with the right text.
 * The reference text is the full path's (`--dir <project> --help` is never served from the cache).
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ageFiles, makeSandbox, REPO_ROOT, runCli, type Sandbox } from "../../../test/kit/cli.js";

let sb: Sandbox;
const MARK = "[served from the help cache]\n";

beforeAll(() => {
  sb = makeSandbox("oc-help-cache-");
});
afterAll(() => sb.cleanup());

const cacheDir = () => path.join(sb.home, ".cache", "oceancode");
function cacheFile(): string | undefined {
  const f = fs.existsSync(cacheDir()) ? fs.readdirSync(cacheDir()).find((n) => /^help-[0-9a-f]{8}\.json$/.test(n)) : undefined;
  return f && path.join(cacheDir(), f);
}

/** inputs changed within the last second are not cached (coarse file times): every time a minute back */
const age = () => ageFiles(path.dirname(sb.home));

function help(env: NodeJS.ProcessEnv = sb.env): string {
  const r = runCli(["--help"], { cwd: sb.project, env });
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  return r.stdout;
}
/** The full path's text: with a flag besides --help the entry never serves the cache. */
function reference(env: NodeJS.ProcessEnv = sb.env): string {
  const r = runCli(["--dir", sb.project, "--help"], { cwd: sb.project, env });
  expect(r.code).toBe(0);
  return r.stdout;
}
/** Age the inputs, let a --help write the cache, then plant the marker in its text. */
function cacheWithMarker(env: NodeJS.ProcessEnv = sb.env): void {
  age();
  help(env);
  const f = cacheFile();
  expect(f, "a clean --help writes its cache").toBeDefined();
  const body = JSON.parse(fs.readFileSync(f!, "utf8")) as { stdout: string };
  fs.writeFileSync(f!, JSON.stringify({ ...body, stdout: body.stdout + MARK }));
  expect(help(env)).toContain(MARK); // the cache answers while nothing changed
}

describe("oceancode --help cache", () => {
  it("serves the cached text only while its inputs are unchanged; an extension added, edited or disabled, another config dir or a corrupt file bring the full path back", () => {
    const plain = help();
    expect(plain).toBe(reference());
    expect(plain).not.toMatch(/^\s+hello\s/m);

    // a new user extension: its command is in the next --help
    cacheWithMarker();
    fs.cpSync(path.join(REPO_ROOT, "examples", "extensions", "hello"), path.join(sb.home, ".oceancode", "extensions", "hello"), { recursive: true });
    const withHello = help();
    expect(withHello).not.toContain(MARK);
    expect(withHello).toMatch(/^\s+hello\s+print a greeting/m);
    expect(withHello).toBe(reference());

    // its manifest edited: the new summary
    cacheWithMarker();
    const manifest = path.join(sb.home, ".oceancode", "extensions", "hello", "manifest.json");
    fs.writeFileSync(manifest, fs.readFileSync(manifest, "utf8").replace("print a greeting", "say hello"));
    const edited = help();
    expect(edited).not.toContain(MARK);
    expect(edited).toMatch(/^\s+hello\s+say hello/m);

    // disabled in the user's config: gone
    cacheWithMarker();
    sb.write(path.join(".config", "oceancode", "oceancode.json"), JSON.stringify({ extensions: { disabled: ["hello"] } }), "home");
    const disabled = help();
    expect(disabled).not.toContain(MARK);
    expect(disabled).not.toMatch(/^\s+hello\s/m);
    expect(disabled).toBe(reference());

    // the same files, another XDG_CONFIG_HOME (no disable there): a variable discovery read has changed
    cacheWithMarker();
    const otherConfig = { ...sb.env, XDG_CONFIG_HOME: path.join(sb.home, "other-config") };
    const back = help(otherConfig);
    expect(back).not.toContain(MARK);
    expect(back).toMatch(/^\s+hello\s+say hello/m);

    // a corrupt or truncated cache file: the right text, and the file is written again
    for (const junk of ["{ not json", "", JSON.stringify({ format: 1 }), JSON.stringify({ format: 2, stdout: MARK })]) {
      age();
      fs.writeFileSync(cacheFile()!, junk);
      expect(help()).toBe(disabled);
      expect(() => JSON.parse(fs.readFileSync(cacheFile()!, "utf8"))).not.toThrow();
    }
  });

  it("a --help that warns is never cached: the warning comes every time", () => {
    const bad = path.join(sb.home, ".oceancode", "extensions", "broken");
    fs.mkdirSync(bad, { recursive: true });
    fs.writeFileSync(path.join(bad, "manifest.json"), "{ broken");
    fs.rmSync(cacheDir(), { recursive: true, force: true });
    age();
    for (let i = 0; i < 2; i++) {
      const r = runCli(["--help"], { cwd: sb.project, env: sb.env });
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(/broken/);
      expect(cacheFile()).toBeUndefined();
    }
    fs.rmSync(bad, { recursive: true, force: true });
  });

  it("a --help whose discovery asks git (whose is a project config file?) is not cached: git reads what this process never sees", () => {
    const file = sb.write(path.join(".oceancode", "oceancode.json"), JSON.stringify({ extensions: { disabled: ["doctor"] } }));
    fs.rmSync(cacheDir(), { recursive: true, force: true });
    age();
    for (let i = 0; i < 2; i++) {
      expect(help()).not.toMatch(/^\s+doctor\s/m); // the user's own file (untracked): its disable applies
      expect(cacheFile()).toBeUndefined();
    }
    fs.rmSync(file);
  });
});
