/**
 * A non-bundled extension's `import ... from "oceancode/..."` resolves to the running host's own
 * modules (through this package's exports map), never to a copy in the extension's folder: here the
 * folder holds a decoy node_modules/oceancode that throws when loaded.
 */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CLI, makeSandbox, REPO_ROOT, type Sandbox } from "../kit/cli.js";
import { EXAMPLES, oc } from "./helpers.js";
import { recordLoads } from "../kit/bundle-map.js";
import { usesSelfModule } from "../../kernel/self-resolve.js";

let sb: Sandbox;
beforeEach(() => {
  sb = makeSandbox("oc-sdk-resolve-");
  const dir = path.join(".oceancode", "extensions", "sdk-probe");
  sb.write(
    path.join(dir, "manifest.json"),
    JSON.stringify({ id: "sdk-probe", version: "1.0.0", kernel: "^0.1.0", main: "index.js", contributes: { commands: [{ name: "sdk-probe", usage: "oceancode sdk-probe", summary: "probe" }] } }),
    "home",
  );
  sb.write(
    path.join(dir, "index.js"),
    `import { Stages } from "oceancode/kernel";
import * as engine from "oceancode/api/engine";
import { DOCTOR_STORAGE_EVENT } from "oceancode/api/doctor";
const code = (p) => import(p).then(() => "loaded", (e) => e.code);
export default {
  activate(ctx) {
    ctx.registerCommand("sdk-probe", async (argv, io) => {
      io.stdout.write(JSON.stringify({
        engine: import.meta.resolve("oceancode/api/engine"),
        root: import.meta.resolve("oceancode"),
        kernelApi: import.meta.resolve("oceancode/kernel/api"),
        testing: import.meta.resolve("oceancode/testing"),
        stages: Stages.STAGE_POLICY,
        busy: engine.SESSION_BUSY,
        doctor: DOCTOR_STORAGE_EVENT,
        unknownApi: await code("oceancode/api/no-such-extension"),
        internal: await code("oceancode/dist/kernel/kernel.js"),
      }) + "\\n");
      return 0;
    });
  },
};
`,
    "home",
  );
  // what \`npm i -D oceancode\` would leave in the folder: must never be loaded at run time
  sb.write(path.join(dir, "node_modules", "oceancode", "package.json"), JSON.stringify({ name: "oceancode", type: "module", exports: { ".": "./decoy.js", "./kernel": "./decoy.js", "./api/*": "./decoy.js" } }), "home");
  sb.write(path.join(dir, "node_modules", "oceancode", "decoy.js"), `throw new Error("the extension's own copy of oceancode was loaded");\n`, "home");
});
afterEach(() => sb.cleanup());

describe("oceancode/* in a user extension", () => {
  it("resolves to the running host's modules through its exports map, not the folder's copy", () => {
    const r = oc(sb, ["sdk-probe"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as Record<string, unknown>;
    const dist = (p: string) => pathToFileURL(path.join(REPO_ROOT, "dist", p)).href;
    expect(out).toEqual({
      engine: dist("extensions/engine/api.js"),
      root: dist("kernel/api.js"),
      kernelApi: dist("kernel/api.js"),
      testing: dist("extensions/engine/testing/index.js"),
      stages: -200,
      busy: "OC_ERR_SESSION_BUSY",
      doctor: "onEvent:doctor:storage",
      unknownApi: "ERR_MODULE_NOT_FOUND",
      internal: "ERR_PACKAGE_PATH_NOT_EXPORTED",
    });
  });
});

describe("the resolve hook is lazy", () => {
  const loaded = (args: string[]): string[] => recordLoads(sb, [CLI, "--dir", sb.project, ...args]).lines;
  const hook = (lines: string[]) => lines.some((l) => l.includes("/dist/kernel/self-resolve"));

  it("a run with bundled extensions only never loads it; the first non-bundled entry does", () => {
    expect(hook(loaded(["run", "--model", "scripted/echo", "hi"]))).toBe(false);
    expect(hook(loaded(["--help"]))).toBe(false);
    expect(hook(loaded(["sdk-probe"]))).toBe(true);
  });
});

describe("usesSelfModule: only extensions that import oceancode get the hook", () => {
  it("reads imports, not comments; skips node_modules", () => {
    expect(usesSelfModule(path.join(EXAMPLES, "hello"))).toBe(true); // its errors.js imports defineError from oceancode/kernel
    expect(usesSelfModule(path.join(EXAMPLES, "word-count"))).toBe(false);
    expect(usesSelfModule(path.join(EXAMPLES, "echo-provider"))).toBe(true);
    const cases: Record<string, [string, boolean]> = {
      static: [`import { x } from "oceancode/api/engine";`, true],
      bare: [`import * as k from 'oceancode';`, true],
      dynamic: [`const m = await import("oceancode/kernel");`, true],
      sideEffect: [`import "oceancode/api/tools";`, true],
      reexport: [`export { y } from "oceancode/api/storage";`, true],
      comment: [`// import { x } from "oceancode/api/engine";\n/** @type {import("oceancode/kernel").Extension} */\nexport default {};`, false],
      text: [`console.log("oceancode hello");`, false],
    };
    for (const [name, [code, want]] of Object.entries(cases)) {
      const dir = path.join(sb.home, "scan", name);
      fs.mkdirSync(path.join(dir, "lib"), { recursive: true });
      fs.writeFileSync(path.join(dir, "lib", "x.mjs"), code);
      expect(usesSelfModule(dir), name).toBe(want);
    }
    const dep = path.join(sb.home, "scan", "dep");
    fs.mkdirSync(path.join(dep, "node_modules", "z"), { recursive: true });
    fs.writeFileSync(path.join(dep, "node_modules", "z", "i.js"), `import "oceancode";`);
    expect(usesSelfModule(dep)).toBe(false);
  });
});
