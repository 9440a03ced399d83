/** The `oceancode` CLI host, run as a real process (dist/hosts/cli/main.js). */
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeSandbox, runCli, CLI, REPO_ROOT, type Sandbox } from "../kit/cli.js";
import { bundleMap, loadedFiles, recordLoads } from "../kit/bundle-map.js";

const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string };
const USAGE = /^usage: oceancode .*\[<command> \[args…\]\]$/m;
const STACK = /\n\s+at .+:\d+:\d+/;

let sb: Sandbox;
beforeEach(() => {
  sb = makeSandbox("oc-cli-");
});
afterEach(() => sb.cleanup());

const cli = (...args: string[]) => runCli(["--dir", sb.project, ...args], { env: sb.env, cwd: sb.project });

describe("oceancode CLI", () => {
  it("--version prints the package version", () => {
    const r = cli("--version");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`oceancode ${pkg.version}\n`);
  });

  it("--help lists commands from manifests (inspect, doctor, and a user extension's hello)", () => {
    fs.cpSync(path.join(REPO_ROOT, "examples", "extensions", "hello"), path.join(sb.home, ".oceancode", "extensions", "hello"), { recursive: true });
    const r = cli("--help");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(USAGE);
    const inspect = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "extensions", "inspect", "manifest.json"), "utf8")) as { contributes: { commands: Array<{ summary: string }> } };
    expect(r.stdout).toContain(`inspect  `);
    expect(r.stdout).toContain(inspect.contributes.commands[0]!.summary);
    expect(r.stdout).toMatch(/^\s+doctor\s+health checks/m);
    expect(r.stdout).toMatch(/^\s+hello\s+print a greeting/m);
  });

  it("an unknown subcommand: a usage line and exit 2", () => {
    const r = cli("frobnicate");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown command 'frobnicate'");
    expect(r.stderr).toMatch(USAGE);
  });

  it("an unknown flag: a usage line and exit 2 (global and subcommand)", () => {
    const a = cli("--frobnicate");
    expect(a.code).toBe(2);
    expect(a.stderr).toContain("unknown option '--frobnicate'");
    expect(a.stderr).toMatch(USAGE);
    const b = cli("inspect", "--frobnicate");
    expect(b.code).toBe(2);
    expect(b.stderr).toContain("usage: oceancode inspect [--hooks] [--errors] [--json]");
  });

  it("--tui ocean is refused with the guide's message; --tui pager is accepted", () => {
    const r = cli("--tui", "ocean");
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("the native TUI was removed; oceancode starts Ocean pager");
    const ok = cli("--tui", "pager", "--version");
    expect(ok.code).toBe(0);
  });

  it("broken JSONC in the project config: one line naming file:line, exit 1, no stack; -v shows the stack; doctor and inspect still run", () => {
    const file = sb.write(".oceancode/oceancode.jsonc", '{\n  "extensions": {}\n  "oops": 1\n}\n');
    const ins = cli("inspect");
    expect(ins.code).toBe(0);
    expect(ins.stderr).toContain(`OC_ERR_CONFIG_PARSE: ${file}:3: broken JSON`);
    const doc = cli("doctor");
    expect(doc.stdout).toContain(`FAIL config project ${file}: OC_ERR_CONFIG_PARSE: ${file}:3: broken JSON`);
    const r = cli("sessions");
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    const lines = r.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`${file}:3: broken JSON`);
    expect(lines[0]).toContain("OC_ERR_CONFIG_PARSE");
    expect(r.stderr).not.toMatch(STACK);
    const v = cli("-v", "sessions");
    expect(v.code).toBe(1);
    expect(v.stderr).toContain(`${file}:3: broken JSON`);
    expect(v.stderr).toMatch(STACK);
  });

  it("a manifest with a wrong field in a user extension: that extension fails, named with file and line; the rest works", () => {
    const file = sb.write(".oceancode/extensions/bad/manifest.json", '{\n  "id": "bad",\n  "version": 1,\n  "kernel": "^0.1.0",\n  "main": "index.js"\n}\n', "home");
    const r = cli("inspect");
    expect(r.code).toBe(0);
    expect(r.stderr.trim().split("\n")).toEqual([expect.stringContaining(`OC_ERR_MANIFEST_INVALID: ${file}:3: version: expected string`)]);
    expect(r.stdout).toMatch(/extension\s+bad\s+user\s+failed/);
    const d = cli("doctor");
    expect(d.stdout).toContain(`FAIL extension bad (user): failed: OC_ERR_MANIFEST_INVALID: ${file}:3`);
    const run = cli("run", "--model", "scripted/echo", "hi");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("hi");
  });

  it("inspect --json shows each config key's winning layer and file", () => {
    const global = sb.write(".config/oceancode/oceancode.json", JSON.stringify({ extensions: { disabled: ["nothing-a"] } }), "home");
    const project = sb.write(".oceancode/oceancode.json", JSON.stringify({ extensions: { enabled: ["nothing-b"] } }));
    const r = cli("inspect", "--json");
    expect(r.code).toBe(0);
    const rows = JSON.parse(r.stdout) as Array<{ kind: string; id: string; layer: string; source: string; value?: unknown }>;
    expect(rows.find((x) => x.kind === "config" && x.id === "extensions.disabled")).toMatchObject({ layer: "global", source: global, value: ["nothing-a"] });
    expect(rows.find((x) => x.kind === "config" && x.id === "extensions.enabled")).toMatchObject({ layer: "project", source: project, value: ["nothing-b"] });
    const inspect = rows.find((x) => x.kind === "extension" && x.id === "inspect") as { layer: string; state: string; load_ms?: number };
    expect(inspect).toMatchObject({ layer: "bundled", state: "active" });
    expect(typeof inspect.load_ms).toBe("number");
  });
});

/** bundled extensions whose manifest activates them at startup */
interface ManifestLite {
  id: string;
  activation?: string[];
  requires?: string[];
  optional?: string[];
  provides?: string[];
}
function bundledManifests(): ManifestLite[] {
  const base = path.join(REPO_ROOT, "extensions");
  return fs
    .readdirSync(base)
    .filter((id) => fs.existsSync(path.join(base, id, "manifest.json")))
    .map((id) => JSON.parse(fs.readFileSync(path.join(base, id, "manifest.json"), "utf8")) as ManifestLite);
}
/** Extensions `inspect` may load: those listening to onEvent:inspect, and the providers of their services. */
/** The extensions that add inspect rows and the ones providing the services they use, transitively (what activating them loads). */
function inspectIds(): string[] {
  const all = bundledManifests();
  const ids = new Set(all.filter((m) => (m.activation ?? []).includes("onEvent:inspect")).map((m) => m.id));
  for (let grew = true; grew; ) {
    grew = false;
    const deps = all.filter((m) => ids.has(m.id)).flatMap((m) => [...(m.requires ?? []), ...(m.optional ?? [])]);
    for (const m of all) if (!ids.has(m.id) && (m.provides ?? []).some((p) => deps.includes(p))) grew = ids.add(m.id).size > 0;
  }
  return [...ids];
}

function startupIds(): string[] {
  const base = path.join(REPO_ROOT, "extensions");
  return fs
    .readdirSync(base)
    .filter((id) => fs.existsSync(path.join(base, id, "manifest.json")))
    .filter((id) => ((JSON.parse(fs.readFileSync(path.join(base, id, "manifest.json"), "utf8")) as { activation?: string[] }).activation ?? []).includes("onStartup"));
}

describe("lazy activation", () => {
  const loaded = (args: string[], cwd = sb.project): string[] => recordLoads(sb, args, cwd).lines;
  const SDK = /@anthropic-ai[/\\]sdk|[/\\]node_modules[/\\]openai[/\\]|@modelcontextprotocol|[/\\]node_modules[/\\](ink|react)[/\\]/;
  /** SDKs a process loaded: from node_modules, or compiled into a bundle file it loaded */
  const sdk = (lines: string[]) => {
    const map = bundleMap();
    const files = loadedFiles(lines);
    const bundled = [...map.inputsOf(files.map((f) => map.relOf(f) ?? ""))].map((i) => `/${i}`);
    return [...files, ...bundled].filter((l) => SDK.test(l));
  };

  it("the recorder sees SDK imports and requires (control)", () => {
    const lines = loaded(["--input-type=module", "-e", 'await import("@anthropic-ai/sdk"); (await import("node:module")).createRequire(import.meta.url)("openai");'], REPO_ROOT);
    expect(lines.some((l) => l.startsWith("import ") && l.includes("@anthropic-ai/sdk"))).toBe(true);
    expect(lines.some((l) => l.startsWith("require ") && l.includes("/node_modules/openai/"))).toBe(true);
    expect(sdk(lines).length).toBeGreaterThan(0);
    // and through the bundle: the anthropic extension's bundle carries the SDK inside a chunk
    const map = bundleMap();
    expect([...map.inputsOf(map.closure(["dist/extensions/anthropic/index.js"]))].some((i) => i.includes("node_modules/@anthropic-ai/sdk/"))).toBe(true);
  });

  it("--help imports no extension code; inspect loads only itself, startup and inspect-row extensions; neither loads a model SDK", () => {
    for (const args of [["--help"], ["inspect"], ["inspect", "--json"]]) {
      const lines = loaded([CLI, "--dir", sb.project, ...args]);
      expect(lines.length).toBeGreaterThan(5);
      expect(sdk(lines), args.join(" ")).toEqual([]);
      const extCode = lines.filter((l) => l.includes("/dist/extensions/")).map((l) => l.replace(/^.*\/dist\/extensions\/([^/]+)\/.*$/, "$1"));
      const got = [...new Set(extCode)];
      if (args[0] === "--help") expect(got).toEqual([]); // manifests only
      else {
        // inspect's own code, what activates onStartup (the trust gate), and the extensions that add
        // inspect rows (hook sources) with the services they use; never a provider or the tools
        expect(got).toContain("inspect");
        const allowed = new Set(["inspect", ...startupIds(), ...inspectIds()]);
        expect(got.filter((id) => !allowed.has(id)), args.join(" ")).toEqual([]);
        expect(got.filter((id) => ["anthropic", "openai", "scripted", "tools"].includes(id)), args.join(" ")).toEqual([]);
      }
    }
  });
});
