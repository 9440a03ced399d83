/** The side-by-side install tree: <data dir>/versions/<v>/ (an npm prefix) and the atomic `current` link. */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { CURRENT_LINK } from "./api.js";

/** The version `current` names (its link text), or undefined. */
export function currentVersion(versions: string): string | undefined {
  try {
    return path.basename(fs.readlinkSync(path.join(versions, CURRENT_LINK)));
  } catch {
    return undefined;
  }
}

/** Point `current` at `<version>`: a new link under a temp name, renamed over the old one (atomic). */
export function switchCurrent(versions: string, version: string): void {
  const tmp = path.join(versions, `.${CURRENT_LINK}-${process.pid}-${crypto.randomBytes(4).toString("hex")}`);
  fs.symlinkSync(version, tmp);
  try {
    fs.renameSync(tmp, path.join(versions, CURRENT_LINK));
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw e;
  }
}

/** The installed package's folder and its oceancode bin inside a version's npm prefix. */
export function installedBin(versionDir: string): { pkgDir: string; bin: string; version: string } | undefined {
  try {
    const prefixPkg = JSON.parse(fs.readFileSync(path.join(versionDir, "package.json"), "utf8")) as { dependencies?: Record<string, string> };
    const name = Object.keys(prefixPkg.dependencies ?? {})[0] ?? "oceancode";
    const pkgDir = path.join(versionDir, "node_modules", name);
    const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, "package.json"), "utf8")) as { version: string; bin?: string | Record<string, string> };
    const rel = typeof pkg.bin === "string" ? pkg.bin : pkg.bin?.oceancode;
    if (!rel) return undefined;
    return { pkgDir, bin: path.join(pkgDir, rel), version: pkg.version };
  } catch {
    return undefined;
  }
}
