/**
 * The published contract `oceancode/api/engine` (what other extensions and third parties may import).
 *
 * The session engine's public API: types and the hooks it publishes. Other extensions (providers,
 * tools, storage, ledger, tideline, permissions, hooks, sandbox) and hosts import THIS file only,
 * never the engine's internals. Service name: "engine" (EngineService).
 *
 * Data path of one prompt (hook kind in brackets):
 *   userPrompt [waterfall] -> loop { contextBuild [waterfall] -> modelRequest [waterfall] -> provider.stream
 *     -> per tool call: authorizeToolCall [bail, fail-closed] -> reviewDecision [bail, fail-closed, only stricter]
 *        -> (ask) -> executeTool [wrap] (childProcess [waterfall], with the approval in SpawnContext)
 *        -> toolResult [waterfall] -> afterStep [parallel] } -> stop [bail] -> afterTurn [parallel]
 */
import type { EngineService } from "./contract/service.js";
export * from "./contract/rows.js";
export * from "./contract/provider.js";
export * from "./contract/stream-guard.js";
export * from "./contract/tools.js";
export * from "./contract/session.js";
export * from "./contract/hooks.js";
export * from "./contract/stages.js";
export * from "./contract/service.js";
export * from "./contract/approval.js";
export * from "./contract/model-names.js";

/** The services this contract names, typed for `ctx.services.get(name)` and `kernel.service(name)`. */
declare module "../../kernel/api.js" {
  interface ServiceMap {
    engine: EngineService;
  }
}
