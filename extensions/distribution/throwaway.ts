/** Throwaway releases for update's self-test (and the tests): a tiny `oceancode` package with no dependencies. */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { buildRelease } from "./release.js";
import type { SecretKey } from "./minisign.js";
import type { Channel } from "./api.js";

/** A package whose bin answers --version and `self-check` (SELF_CHECK_OK, or a failure when `selfCheckOk` is false). */
export function tinyPackage(dir: string, version: string, selfCheckOk: boolean): string {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "package.json"), `${JSON.stringify({ name: "oceancode", version, bin: { oceancode: "bin.js" }, files: ["bin.js"] }, null, 2)}\n`);
  const check = selfCheckOk ? 'process.stdout.write("SELF_CHECK_OK\\n");' : 'process.stderr.write("self-check failed on purpose (throwaway release)\\n"); process.exitCode = 1;';
  fs.writeFileSync(
    path.join(dir, "bin.js"),
    `#!/usr/bin/env node\nconst a = process.argv.slice(2);\nif (a[0] === "self-check") { ${check} }\nelse process.stdout.write("oceancode ${version}\\n");\n`,
    { mode: 0o755 },
  );
  return dir;
}

/** A signed throwaway release in `<root>/<version>/`; returns its manifest's file: URL. */
export function throwawayRelease(root: string, version: string, key: SecretKey, o: { selfCheckOk: boolean; channel?: Channel; env?: NodeJS.ProcessEnv }): string {
  const pkg = tinyPackage(path.join(root, "src", version), version, o.selfCheckOk);
  const out = path.join(root, "releases", version);
  buildRelease({ packageDir: pkg, outDir: out, key, channel: o.channel ?? "stable", ignoreScripts: true, ...(o.env ? { env: o.env } : {}) });
  return pathToFileURL(path.join(out, "manifest.json")).href;
}
