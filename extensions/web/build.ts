/**
 * The web client's build step (run by build/bundle.ts after the node bundle): esbuild bundles the browser
 * code (client/, React with a small DOM renderer of its own, marked, lowlight) into one script, and copies
 * the page, the styles and the icon, into dist/extensions/web/assets/ (shipped in the package). Minified,
 * no source maps, nothing loaded from elsewhere at run time.
 */
import fs from "node:fs";
import path from "node:path";
import * as esbuild from "esbuild";

export async function build(root: string): Promise<string> {
  const src = path.join(root, "extensions", "web", "client");
  const out = path.join(root, "dist", "extensions", "web", "assets");
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });
  const t0 = performance.now();
  await esbuild.build({
    entryPoints: { app: path.join(src, "main.tsx") },
    outdir: out,
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: true,
    jsx: "automatic",
    define: { "process.env.NODE_ENV": JSON.stringify("production") },
    legalComments: "none",
    logLevel: "warning",
  });
  for (const f of ["index.html", "app.css", "icon.svg"]) fs.copyFileSync(path.join(src, f), path.join(out, f));
  const bytes = fs.readdirSync(out).reduce((n, f) => n + fs.statSync(path.join(out, f)).size, 0);
  return `web: ${fs.readdirSync(out).length} files, ${Math.round(bytes / 1024)} KB in ${Math.round(performance.now() - t0)} ms`;
}
