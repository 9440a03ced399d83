/** The JevService (api.ts) over the resolved config, the HTTP client and the decision log. */
import type { JevPoint, JevService, JevStatus } from "./api.js";
import { createClient, type JevClient } from "./client/http.js";
import { modeOf, type JevConfig } from "./config.js";
import type { DecisionLog } from "./log.js";

export function createService(cfg: JevConfig, log: DecisionLog, client?: JevClient): JevService {
  const http = client ?? createClient({ ...(cfg.endpoint ? { endpoint: cfg.endpoint } : {}), model: cfg.model, ...(cfg.reason ? { offReason: cfg.reason } : {}) });
  const status = (): JevStatus => ({
    enabled: cfg.enabled,
    ...(cfg.reason ? { reason: cfg.reason } : {}),
    endpoint: cfg.enabled && cfg.endpoint ? cfg.endpoint.host : "off",
    model: cfg.model,
    points: cfg.points.map((p) => ({ ...p })),
  });
  return {
    status,
    mode: (point: JevPoint) => (cfg.enabled ? modeOf(cfg, point) : "off"),
    threshold: (name, fallback) => cfg.thresholds[name] ?? fallback,
    ask: (req) => http.ask(req),
    record: (row) => log.record(row),
    label: (row) => log.label(row),
    settings: () => ({ model: cfg.model, deadlineMs: cfg.deadlineMs, supervisorEverySteps: cfg.supervisorEverySteps, supervisorMaxContinuations: cfg.supervisorMaxContinuations }),
  };
}
