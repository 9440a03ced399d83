/** The kernel's own hooks: few on purpose. Features publish their hooks in their own API modules. */
import { createHooks } from "./hooks.js";
import { declareHooks, defineStages, hook, staged, type HooksOf } from "./hook-decl.js";
import type { ResolvedConfig } from "./config.js";
import type { Root } from "./walk.js";

export interface TrustQuery {
  root: Root;
  /** "extension", "hooks", "mcp", ... what would run */
  kind: string;
  name?: string;
}

/** kernel.shutdown's stages: work stops first, stores close after the rest, exporters flush last. */
export const SHUTDOWN_STAGES = defineStages(
  {
    stop: "running work stops (orchestrations, workflow runs) before anything it uses closes",
    default: "an extension releases what it holds; a tap that names no stage",
    close: "stores and servers close (their queues flushed)",
    flush: "last: exporters flush what the closing emitted",
  },
  { default: "default" },
);

/** The kernel's hooks, declared once (kernel/hook-decl.ts): names kernel.<key>, kinds in the types. */
export const KERNEL_HOOKS = declareHooks("kernel", {
  // boot fires once, right after the onStartup extensions activated: only they can tap it
  boot: hook.series<{ project: string }>("fired once when the kernel starts, after onStartup activation"),
  configResolved: hook.series<ResolvedConfig>("the resolved config, once per start"),
  extensionsActivated: hook.series<{ active: string[] }>("after onStartup activation"),
  shutdown: staged(SHUTDOWN_STAGES, hook.series<{ reason: string }>("before exit; taps flush their stores")),
  // fail-closed: the first boolean wins; no answer, a throwing or a timed-out tap means "not trusted"
  trust: hook.bail<TrustQuery, boolean>("is a repo/plugin root trusted to run code?", () => false),
});

export type KernelHooks = HooksOf<typeof KERNEL_HOOKS>;

export function createKernelHooks(): KernelHooks {
  return createHooks(KERNEL_HOOKS);
}
