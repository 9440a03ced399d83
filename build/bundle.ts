/**
 * Build step (build/, not part of the runtime kernel; run by `npm run build` after tsc and precompile): bundle every host and every bundled extension with its
 * dependencies (esbuild), so a start reads a handful of files instead of hundreds.
 *
 * One esbuild pass over all entry points with code splitting: each entry (a host, an extension's main,
 * each published `api.ts` and `kit.ts`, `oceancode/kernel`, `oceancode/testing`) is written where tsc wrote it, and code
 * that two entries share goes to `dist/chunks/`. One pass means one copy of every module at run time:
 * the kernel's registries and the contracts are the same objects whichever entry loaded them.
 *
 * tsc still runs first: it type-checks, emits the `.d.ts` files the package exports, and the benches.
 * Kept out of the bundle: native and wasm packages that find their files next to themselves
 * (better-sqlite3, web-tree-sitter), and what the code loads lazily through createRequire (ajv,
 * cosmiconfig, semver, jsonc-parser: only on paths that need them).
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import * as esbuild from "esbuild";

const root = fileURLToPath(new URL("../../", import.meta.url));
const rel = (p: string) => path.relative(root, p).split(path.sep).join("/");

/** esbuild's entryPoints: output path under dist (no extension) -> source file */
function entryPoints(): Record<string, string> {
  const out: Record<string, string> = {};
  const add = (source: string) => {
    const abs = path.join(root, source);
    if (!fs.existsSync(abs)) throw new Error(`bundle: missing entry ${source}`);
    out[source.replace(/\.tsx?$/, "")] = abs;
  };
  const sourceOf = (dir: string, js: string) => {
    const base = js.replace(/\.js$/, "");
    const hit = [".ts", ".tsx"].map((x) => `${dir}/${base}${x}`).find((f) => fs.existsSync(path.join(root, f)));
    if (!hit) throw new Error(`bundle: no source for ${dir}/${js}`);
    return hit;
  };
  for (const f of ["hosts/boot.ts", "kernel/api.ts", "kernel/self-resolve-hook.ts", "extensions/engine/testing/index.ts"]) add(f);
  // every host's entry (the CLI imports run, attach, claude and the pager by path when asked for one)
  for (const host of fs.readdirSync(path.join(root, "hosts")).sort()) {
    if ([".ts", ".tsx"].some((x) => fs.existsSync(path.join(root, "hosts", host, `main${x}`)))) add(sourceOf(`hosts/${host}`, "main.js"));
  }
  for (const folder of fs.readdirSync(path.join(root, "extensions")).sort()) {
    const manifestFile = path.join(root, "extensions", folder, "manifest.json");
    if (!fs.existsSync(manifestFile)) continue;
    const m = JSON.parse(fs.readFileSync(manifestFile, "utf8")) as { main?: string; contributes?: { pluginRoots?: { module?: string } } };
    const dir = `extensions/${folder}`;
    if (m.main) add(sourceOf(dir, m.main));
    if (m.contributes?.pluginRoots?.module) add(sourceOf(dir, m.contributes.pluginRoots.module));
    if (fs.existsSync(path.join(root, dir, "api.ts"))) add(`${dir}/api.ts`);
    if (fs.existsSync(path.join(root, dir, "kit.ts"))) add(`${dir}/kit.ts`);
  }
  return out;
}

/**
 * Code that finds files next to itself (`import.meta.url`) keeps finding them where tsc put it: in the
 * bundle, each source file's `import.meta.url` becomes the URL of its own compiled path under dist/.
 */
const sourceUrls: esbuild.Plugin = {
  name: "oc-source-urls",
  setup(build) {
    build.onLoad({ filter: /\.tsx?$/ }, (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const text = fs.readFileSync(args.path, "utf8");
      const compiled = `dist/${rel(args.path).replace(/\.tsx?$/, ".js")}`;
      const contents = text.includes("import.meta.url") ? text.replaceAll("import.meta.url", `new URL(${JSON.stringify(compiled)}, __ocRoot).href`) : text;
      return { contents, loader: args.path.endsWith(".tsx") ? "tsx" : "ts" };
    });
  },
};

/**
 * Every output file: a `require` for the CommonJS packages inside (they require node builtins), and the
 * package root (`__ocRoot`, a file URL ending in /) that the rewritten `import.meta.url`s resolve against.
 */
const BANNER = [
  `import { createRequire as __ocCreateRequire } from "node:module";`,
  `const require = __ocCreateRequire(import.meta.url);`,
  `const __ocRoot = import.meta.url.slice(0, import.meta.url.lastIndexOf("/dist/") + 1);`,
].join("\n");

/**
 * Less work per file at start-up (a run loads ~100 of them): the banner's lines only where the file uses
 * them (90 of the ~100 a run loads need neither `require` nor `__ocRoot`: each would import node:module and
 * build a require), and ASCII only where that changes nothing but comments (a "—" left in a comment made
 * V8 hold the whole file, the Anthropic SDK's 960 KB among them, as a two-byte string). esbuild escapes
 * strings itself but leaves comments, regex literals and tagged templates (whose raw text an escape would
 * change): a file is escaped only when its code, comments stripped, is the same before and after.
 */
function lean(text: string): string {
  const [imp, req, rootLine] = BANNER.split("\n") as [string, string, string];
  const at = text.indexOf(BANNER);
  if (at >= 0) {
    const rest = text.slice(at + BANNER.length);
    const keep = [...(/\brequire\b/.test(rest) ? [imp, req] : []), ...(rest.includes("__ocRoot") ? [rootLine] : [])];
    text = text.slice(0, at) + keep.join("\n") + rest;
  }
  if (!/[^\x00-\x7f]/.test(text)) return text;
  const ascii = text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  const code = (t: string) => esbuild.transformSync(t, { format: "esm", minifyWhitespace: true, legalComments: "none", charset: "utf8" }).code;
  return code(ascii) === code(text) ? ascii : text;
}

const EXTERNAL = ["better-sqlite3", "quickjs-emscripten-core", "@jitl/quickjs-wasmfile-release-sync", "pg", "pg-native", "web-tree-sitter", "tree-sitter-bash", "esbuild", "vitest", "vitest/*", "typescript", "react-devtools-core", "oceancode", "oceancode/*"];

const started = performance.now();
fs.rmSync(path.join(root, "dist", "chunks"), { recursive: true, force: true }); // no stale chunk from an older build
const result = await esbuild.build({
  entryPoints: entryPoints(),
  outdir: path.join(root, "dist"),
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  chunkNames: "chunks/[name]-[hash]",
  external: EXTERNAL,
  // the container only: awilix's node build adds loadModules and, with it, fast-glob (~190 KB)
  alias: { awilix: "awilix/browser" },
  // React's production builds: the development ones are 1 MB more and slower to render
  define: { "process.env.NODE_ENV": JSON.stringify("production") },
  banner: { js: BANNER },
  plugins: [sourceUrls],
  metafile: true,
  logLevel: "warning",
  legalComments: "none",
});
/**
 * Chunks that do nothing when imported for effect: esbuild's runtime helpers (no inputs: only functions)
 * and the empty chunks of re-export-only modules (a kit.ts, 0 bytes of code). esbuild still writes a bare
 * `import "../chunks/x.js";` of them into every entry (the runtime into all 53): each is one more file a
 * start resolves, reads and links for nothing. Imports that name a binding are kept.
 */
function inertChunks(meta: esbuild.Metafile): Set<string> {
  const inert = new Set<string>();
  let grew = true;
  while (grew) {
    grew = false;
    for (const [o, out] of Object.entries(meta.outputs)) {
      if (inert.has(o) || !o.includes("/chunks/") || !o.endsWith(".js")) continue;
      const code = Object.values(out.inputs).reduce((n, i) => n + i.bytesInOutput, 0);
      const runtime = Object.keys(out.inputs).length === 0 && out.exports.every((e) => e.startsWith("__"));
      if ((runtime || code === 0) && out.imports.every((i) => i.external !== true && inert.has(i.path) || i.kind === "dynamic-import")) {
        inert.add(o);
        grew = true;
      }
    }
  }
  return inert;
}
const inert = inertChunks(result.metafile);
function dropInertImports(file: string, text: string): string {
  return text.replace(/^import "((?:\.\.?\/)+chunks\/[^"]+\.js)";\n/gm, (line, spec: string) => (inert.has(rel(path.resolve(path.dirname(path.join(root, file)), spec))) ? "" : line));
}
const outputs = Object.keys(result.metafile.outputs);
for (const o of outputs) if (o.endsWith(".js")) fs.writeFileSync(path.join(root, o), lean(dropInertImports(o, fs.readFileSync(path.join(root, o), "utf8"))));
const chunks = outputs.filter((o) => o.includes("/chunks/")).length;
fs.writeFileSync(path.join(root, "dist", "bundle-meta.json"), JSON.stringify(result.metafile));
process.stdout.write(`bundle: ${outputs.length - chunks} entries, ${chunks} shared chunks in ${Math.round(performance.now() - started)} ms\n`);

// an extension's own build step (extensions/<id>/build.ts, compiled by tsc, exporting build(root)): e.g. a
// browser bundle; the bundle does not know what any step builds
for (const folder of fs.readdirSync(path.join(root, "extensions")).sort()) {
  const step = path.join(root, "dist", "extensions", folder, "build.js");
  if (!fs.existsSync(path.join(root, "extensions", folder, "build.ts")) || !fs.existsSync(step)) continue;
  const mod = (await import(pathToFileURL(step).href)) as { build(root: string): Promise<string> };
  process.stdout.write(`${await mod.build(root)}\n`);
}
