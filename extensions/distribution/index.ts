/** The distribution extension: verify-release, update (and its hidden self-check), uninstall. */
import fs from "node:fs";
import path from "node:path";
import { type CommandIO, type ExtensionContext } from "../../kernel/api.js";
import { type DistributionService } from "./api.js";
import { verifyAsset } from "./verify.js";
import { verifyReleaseCommand } from "./verify-command.js";
import { updateCommand } from "./update-command.js";
import { uninstallCommand } from "./uninstall.js";
import { selfCheckCommand } from "./self-check.js";

/** The folder of the package.json above the extension's folder (source or dist layout alike). */
function findPackageRoot(dir: string): string {
  for (let d = dir; ; d = path.dirname(d)) {
    if (fs.existsSync(path.join(d, "package.json"))) return d;
    if (path.dirname(d) === d) return path.resolve(dir, "..", "..");
  }
}

export default {
  activate(ctx: ExtensionContext) {
    const packageRoot = findPackageRoot(ctx.dir);
    const version = (): string => (JSON.parse(fs.readFileSync(path.join(packageRoot, "package.json"), "utf8")) as { version: string }).version;
    const service: DistributionService = { verifyAsset: (asset, sig, opts) => verifyAsset(asset, sig, opts) };
    ctx.provide("distribution", service);
    ctx.registerCommand("verify-release", (argv: string[], io: CommandIO) => verifyReleaseCommand(argv, io));
    ctx.registerCommand("update", (argv: string[], io: CommandIO) => updateCommand(ctx, argv, io, version()));
    ctx.registerCommand("uninstall", (argv: string[], io: CommandIO) => uninstallCommand(argv, io, ctx.paths, packageRoot));
    ctx.registerCommand("self-check", async (_argv: string[], io: CommandIO) => selfCheckCommand(io, path.join(packageRoot, "dist", "hosts", "cli", "main.js")));
  },
};
