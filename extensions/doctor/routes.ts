/** The doctor extension's route: GET /doctor[?storage=true], the checks `oceancode doctor` prints, as JSON. */
import type { RouteDefinition } from "../serve/api.js";
import type { DoctorCheck } from "./api.js";

export function doctorRoutes(run: (storage: boolean) => Promise<DoctorCheck[]>): RouteDefinition[] {
  return [
    {
      method: "GET",
      url: "/doctor",
      operationId: "doctor",
      summary: "the health checks `oceancode doctor` prints (config files, extensions, requirements, data dir; ?storage=true: the database too), one object per line",
      schema: {
        querystring: { type: "object", properties: { storage: { type: "boolean", default: false, description: "also the database (as --storage)" } } },
        response: {
          200: {
            type: "object",
            required: ["ok", "problems", "checks"],
            properties: {
              ok: { type: "boolean", description: "no check is FAIL (the CLI's DOCTOR_OK)" },
              problems: { type: "integer", minimum: 0 },
              checks: {
                type: "array",
                items: { type: "object", required: ["status", "check", "detail"], properties: { status: { type: "string", enum: ["ok", "info", "warn", "FAIL"] }, check: { type: "string" }, detail: { type: "string" } } },
              },
            },
          },
        },
      },
      handler: async (req) => {
        const checks = await run((req.query as { storage?: boolean }).storage === true);
        const problems = checks.filter((c) => c.status === "FAIL").length;
        return { ok: problems === 0, problems, checks };
      },
    },
  ];
}
