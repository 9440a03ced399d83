/**
 * The published contract `oceancode/api/inspect` (what other extensions and third parties may import).
 *
 * The inspect extension's public API (service "inspect"). Capability extensions (hooks, later MCP and
 * skills) add rows for `oceancode inspect`: they list `"onEvent:inspect"` in their activation and
 * `"inspect"` in `optional`, so their code loads only when inspect runs (or a session needs them).
 */
export interface InspectRow {
  kind: string;
  id: string;
  layer: string;
  source: string;
  state?: string;
  reason?: string;
  load_ms?: number;
  value?: unknown;
}

export type InspectRowProvider = () => InspectRow[] | Promise<InspectRow[]>;

export interface InspectService {
  addRows(provider: InspectRowProvider): void;
}

/** The services this contract names, typed for `ctx.services.get(name)` and `kernel.service(name)`. */
declare module "../../kernel/api.js" {
  interface ServiceMap {
    inspect: InspectService;
  }
}
