import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The kernel's own version; extension manifests declare a semver range against it. */
export const KERNEL_VERSION = "0.1.0";


let productVersion: string | undefined;

/**
 * The oceancode package's version (its package.json): the nearest package.json named "oceancode" above
 * this file, wherever the build put it (dist/kernel, a bundle chunk). "0.0.0" if none is found.
 */
export function oceancodeVersion(): string {
  if (productVersion) return productVersion;
  for (let d = path.dirname(fileURLToPath(import.meta.url)); ; d = path.dirname(d)) {
    try {
      const pkg = JSON.parse(fs.readFileSync(path.join(d, "package.json"), "utf8")) as { name?: string; version?: string };
      if (pkg.name === "oceancode" && pkg.version) return (productVersion = pkg.version);
    } catch {
      // not here: one level up
    }
    if (path.dirname(d) === d) return (productVersion = "0.0.0");
  }
}
