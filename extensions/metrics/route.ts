/** GET /metrics: the Prometheus text of the process's registry, answered raw (no JSON serialization), behind serve's auth. */
import type { RouteDefinition } from "../serve/api.js";
import type { MetricsService } from "./api.js";

export function metricsRoute(service: MetricsService): RouteDefinition {
  return {
    method: "GET",
    url: "/metrics",
    operationId: "metrics",
    summary: "the process's metrics in the Prometheus text format (version 0.0.4): steps, turns, tool and model calls, tokens, cost, permissions, errors, sessions, SSE clients, the storage writer (docs/operations-metrics.md)",
    tags: ["server"],
    schema: { response: { 200: { content: { "text/plain": { schema: { type: "string" } } } } } },
    handler: async () => ({ status: 200, body: await service.text(), headers: { "content-type": service.contentType, "cache-control": "no-store" } }),
  };
}
