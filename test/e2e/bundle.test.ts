/**
 * The bundle is what runs: `npm run build` bundles every host and extension (build/bundle.ts), the
 * tests and `bin` run it, and a start reads only the bundles of what it activates.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeSandbox, CLI, REPO_ROOT, type Sandbox } from "../kit/cli.js";
import { bundleMap, loadedFiles, recordLoads } from "../kit/bundle-map.js";

let sb: Sandbox;
beforeEach(() => {
  sb = makeSandbox("oc-bundle-");
});
afterEach(() => sb.cleanup());

/** native or wasm packages that find their files next to themselves: loaded from node_modules by design */
const EXTERNAL_PACKAGES = /[/\\]node_modules[/\\](better-sqlite3|bindings|file-uri-to-path|web-tree-sitter)[/\\]/;

function loaded(args: string[]): { files: string[]; stdout: string } {
  const { lines, stdout } = recordLoads(sb, [CLI, "--dir", sb.project, ...args]);
  const files = loadedFiles(lines).filter((f) => !f.includes(`${path.sep}test${path.sep}fixtures${path.sep}`));
  return { files: [...new Set(files)], stdout };
}

describe("the build's bundle", () => {
  it("bin is the bundle: the CLI entry and every bundled extension's main are esbuild outputs", () => {
    const map = bundleMap();
    const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { bin: Record<string, string> };
    expect(map.outputs.has(pkg.bin.oceancode!)).toBe(true);
    for (const id of fs.readdirSync(path.join(REPO_ROOT, "extensions"))) {
      if (!fs.existsSync(path.join(REPO_ROOT, "extensions", id, "manifest.json"))) continue;
      expect(map.outputs.get(`dist/extensions/${id}/index.js`)?.entryPoint, id).toMatch(new RegExp(`^extensions/${id}/index\\.tsx?$`));
    }
  });

  for (const [name, args, expectExtensions] of [
    ["--help", ["--help"], false],
    ["run with the scripted model", ["run", "--model", "scripted/echo", "hi"], true],
  ] as const) {
    it(`${name} imports no file outside the bundles of the host and the extensions it activates`, () => {
      const map = bundleMap();
      const { files, stdout } = loaded([...args]);
      if (expectExtensions) expect(stdout).toContain("hi");
      const ours = files.filter((f) => map.relOf(f) !== undefined);
      // nothing from node_modules but the native/wasm externals; nothing of ours that is not a bundle output
      const modules = ours.filter((f) => f.includes(`${path.sep}node_modules${path.sep}`));
      expect(modules.filter((f) => !EXTERNAL_PACKAGES.test(f))).toEqual([]);
      const code = ours.filter((f) => !modules.includes(f)).map((f) => map.relOf(f)!).filter((r) => /\.(m?js|cjs)$/.test(r));
      const notBundled = code.filter((r) => !map.outputs.has(r) && r !== "dist/kernel/manifest-validator.cjs");
      expect(notBundled).toEqual([]);
      // which extensions ran: their mains; every chunk loaded is one those entries (and the hosts) import
      const mains = code.filter((r) => /^dist\/extensions\/[^/]+\/index\.js$/.test(r));
      const hosts = code.filter((r) => r.startsWith("dist/hosts/"));
      expect(hosts).toContain("dist/hosts/cli/main.js");
      const reachable = map.closure([...hosts, ...mains]);
      expect(code.filter((r) => r !== "dist/kernel/manifest-validator.cjs" && !reachable.has(r))).toEqual([]);
      // no other file of an extension's folder: one file per extension
      expect(code.filter((r) => r.startsWith("dist/extensions/") && !mains.includes(r))).toEqual([]);
      const inputs = map.inputsOf(code);
      const sdks = [...inputs].filter((i) => /node_modules\/(@anthropic-ai\/sdk|openai|ink|react)\//.test(i));
      expect(sdks).toEqual([]);
      if (expectExtensions) {
        expect(mains).toContain("dist/extensions/scripted/index.js");
        expect(mains).toContain("dist/extensions/engine/index.js");
        expect(mains).not.toContain("dist/extensions/anthropic/index.js");
        // serve and inspect are passive: other extensions' `optional` does not activate them on a plain run
        expect(mains).not.toContain("dist/extensions/serve/index.js");
        expect(mains).not.toContain("dist/extensions/inspect/index.js");
      } else expect(mains).toEqual([]);
    });
  }
});
