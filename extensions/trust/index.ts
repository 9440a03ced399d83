/**
 * The trust store: ~/.oceancode/trust.json, and the answer to the kernel's trust gate.
 * Repo-tier roots run code only when trust.json says repo=true for this project; plugin roots
 * carry their own trust (installed with --trust / `plugin trust`). Anything else: not trusted.
 */
import path from "node:path";
import { type ExtensionContext, type CommandIO } from "../../kernel/api.js";
import type { TrustQuery } from "../../kernel/api.js";
import { TrustStore } from "./store.js";
import { trustCommand } from "./command.js";

/** The gate's rule, separate so it can be tested without a kernel. */
export function decideTrust(q: TrustQuery, repoTrusted: (project: string) => boolean): boolean {
  const { root } = q;
  if (root.trustedByDefault) return true;
  if (root.tier === "repo") return repoTrusted(root.project);
  if (root.tier === "plugin") return root.plugin?.enabled === true && root.plugin.trusted === true;
  return false;
}

export default {
  activate(ctx: ExtensionContext) {
    const store = new TrustStore(path.join(ctx.paths.userOcDir, "trust.json"), (m) => ctx.log.warn(m));
    ctx.provide("trust", store);
    ctx.kernelHooks.trust.tap({ name: "trust", stage: "STAGE_POLICY" }, (q) => decideTrust(q, (p) => store.repoTrusted(p)));
    ctx.registerCommand("trust", (argv: string[], io: CommandIO) => {
      // --home may differ from the kernel's home only when a host passes another io; follow io.home.
      const s = io.home === ctx.paths.home ? store : new TrustStore(path.join(io.home, ".oceancode", "trust.json"), (m) => ctx.log.warn(m));
      return trustCommand(s, argv, io);
    });
  },
};
