/** The hello example, end to end: copied into a temp HOME exactly as a user would, driven by the real CLI. */
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeSandbox, runCli, REPO_ROOT, type Sandbox } from "../kit/cli.js";

const EXAMPLE = path.join(REPO_ROOT, "examples", "extensions", "hello");

describe("examples/extensions/hello in ~/.oceancode/extensions", () => {
  let sb: Sandbox;
  beforeEach(() => {
    sb = makeSandbox("oc-hello-");
    fs.cpSync(EXAMPLE, path.join(sb.home, ".oceancode", "extensions", "hello"), { recursive: true });
  });
  afterEach(() => sb.cleanup());

  const cli = (...args: string[]) => runCli(["--home", sb.home, "--dir", sb.project, ...args], { env: sb.env, cwd: sb.project });

  it("greets the world by default and a name when given", () => {
    const a = cli("hello");
    expect(a.stderr).toBe("");
    expect(a.code).toBe(0);
    expect(a.stdout).toBe("hello, world\n");
    const b = cli("hello", "ocean");
    expect(b.code).toBe(0);
    expect(b.stdout).toBe("hello, ocean\n");
  });

  it("answers bad usage with its usage line and exit 2", () => {
    const r = cli("hello", "a", "b");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("usage: oceancode hello [name]");
  });

  it("is listed by --help (from its manifest) and by inspect --json at tier user", () => {
    const help = cli("--help");
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^\s+hello\s+print a greeting/m);
    const r = cli("inspect", "--json");
    expect(r.code).toBe(0);
    const rows = JSON.parse(r.stdout) as Array<{ kind: string; id: string; layer: string; state?: string; source: string }>;
    const hello = rows.find((x) => x.kind === "extension" && x.id === "hello");
    expect(hello).toBeDefined();
    expect(hello!.layer).toBe("user");
    expect(hello!.source).toBe(path.join(sb.home, ".oceancode", "extensions", "hello"));
    // inspect does not run hello's code: it stays lazy
    expect(hello!.state).toBe("lazy");
    // the schema default is a config key with the built-in layer as its source
    const key = rows.find((x) => x.kind === "config" && x.id === "hello.greeting");
    expect(key?.layer).toBe("default");
  });

  it("uses hello.greeting from the global config, and inspect names that file", () => {
    const file = sb.write(".config/oceancode/oceancode.jsonc", '{\n  // a comment\n  "hello": { "greeting": "ahoy", },\n}\n', "home");
    const r = cli("hello", "sailor");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("ahoy, sailor\n");
    const rows = JSON.parse(cli("inspect", "--json").stdout) as Array<{ kind: string; id: string; layer: string; source: string; value?: unknown }>;
    expect(rows.find((x) => x.kind === "config" && x.id === "hello.greeting")).toMatchObject({ layer: "global", source: file, value: "ahoy" });
  });

  it("a wrong type in the config is one line naming file, line and key path, and a non-zero exit", () => {
    const file = sb.write(".config/oceancode/oceancode.json", '{\n  "hello": {\n    "greeting": 3\n  }\n}\n', "home");
    const r = cli("hello");
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    const lines = r.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`${file}:3: hello.greeting: expected string`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
