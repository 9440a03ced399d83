/** The kernel's own hooks: few on purpose. Features publish their hooks in their own API modules. */
import { SeriesHook, BailHook, defineHooks } from "./hooks.js";
import type { ResolvedConfig } from "./config.js";
import type { Root } from "./walk.js";

export interface TrustQuery {
  root: Root;
  /** "extension", "hooks", "mcp", ... what would run */
  kind: string;
  name?: string;
}

export function createKernelHooks() {
  return defineHooks({
    /** series: the kernel has started; fired once, right after the onStartup extensions activated (only they can tap it). */
    boot: new SeriesHook<{ project: string }>("kernel.boot", "series: fired once when the kernel starts, after onStartup activation"),
    /** series: the layered config is resolved (fires once, after boot). */
    configResolved: new SeriesHook<ResolvedConfig>("kernel.configResolved", "series: the resolved config, once per start"),
    /** series: startup activation finished; ids of the extensions now active. */
    extensionsActivated: new SeriesHook<{ active: string[] }>("kernel.extensionsActivated", "series: after onStartup activation"),
    /** series: the process is shutting down; flush and close. */
    shutdown: new SeriesHook<{ reason: string }>("kernel.shutdown", "series: before exit; taps flush their stores"),
    /**
     * bail, fail-closed: may code from this root run? First tap returning a boolean wins;
     * no answer or a throwing tap means "not trusted".
     */
    trust: new BailHook<TrustQuery, boolean>("kernel.trust", "bail (fail-closed): is a repo/plugin root trusted to run code?", () => false),
  });
}
export type KernelHooks = ReturnType<typeof createKernelHooks>;
