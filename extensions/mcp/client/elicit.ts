/**
 * Elicitation and sampling, the server-to-client requests.
 *
 * Elicitation (`elicitation/create`, form mode): routed to the host's question handler (the same seam as
 * permission asks: the pager shows a dialog, `run` answers by itself). The question names the server and
 * its message and lists the requested fields. The seam answers yes or no, so a yes accepts with the
 * schema's defaults as the content (a required field without a default cannot be filled this way: the
 * request is declined with a notice); no declines; an interruption cancels. A host with no person behind
 * it (`run`, `run --auto`: the question carries autoApprove: false, so no automatic approver may say yes)
 * declines with the notice `elicitation from <server> declined: no interactive user`.
 *
 * Sampling (`sampling/createMessage`): refused with an error saying sampling is not enabled.
 */
import type { Answer, Question, Rejection } from "../../engine/api.js";

/** The parts of an ElicitRequest's params this reads. */
export interface ElicitParams {
  message: string;
  requestedSchema?: { properties?: Record<string, unknown>; required?: string[] };
}

export type ElicitResult = { action: "accept"; content: Record<string, unknown> } | { action: "decline" } | { action: "cancel" };

export interface ElicitDeps {
  /** the host's question handler, through the engine; undefined: no host answers questions */
  ask?: (q: Question, signal: AbortSignal) => Promise<Answer | Rejection | undefined>;
  /** the session the question belongs to ("" before any session) */
  sessionId: () => string;
  notice: (level: "info" | "warn", text: string) => void;
}

type Field = { name: string; type: string; title?: string; description?: string; required: boolean; default?: unknown };

export function formFields(schema: ElicitParams["requestedSchema"]): Field[] {
  const required = new Set(Array.isArray(schema?.required) ? schema.required : []);
  return Object.entries(schema?.properties ?? {}).map(([name, raw]) => {
    const p = (raw ?? {}) as Record<string, unknown>;
    return {
      name,
      type: typeof p.type === "string" ? p.type : "string",
      ...(typeof p.title === "string" ? { title: p.title } : {}),
      ...(typeof p.description === "string" ? { description: p.description } : {}),
      required: required.has(name),
      ...("default" in p ? { default: p.default } : {}),
    };
  });
}

/** One line per field: `name (type, required): description [default: …]`. */
export function describeFields(fields: Field[]): string {
  return fields
    .map((f) => `${f.name} (${f.type}${f.required ? ", required" : ""})${f.description ? `: ${f.description}` : f.title ? `: ${f.title}` : ""}${f.default !== undefined ? ` [default: ${JSON.stringify(f.default)}]` : ""}`)
    .join("\n");
}

/** The handler for one server's `elicitation/create`. Never throws: every failure is a decline or cancel. */
export function elicitHandler(deps: ElicitDeps) {
  return async (server: string, params: ElicitParams, signal: AbortSignal): Promise<ElicitResult> => {
    const fields = formFields(params.requestedSchema);
    const noUser = () => {
      deps.notice("warn", `elicitation from ${server} declined: no interactive user`);
      return { action: "decline" } as const;
    };
    if (!deps.ask) return noUser();
    const question: Question = {
      sessionId: deps.sessionId(),
      tool: `mcp__${server}`,
      subject: `${params.message}${fields.length ? `\n${describeFields(fields)}\n(yes accepts with the defaults shown; no declines)` : ""}`,
      reason: `MCP server "${server}" asks: ${params.message}`,
      // only a person may accept: an automatic approver (run --auto) must reject, which declines
      autoApprove: false,
    };
    let reply: Answer | Rejection | undefined;
    try {
      reply = await deps.ask(question, signal);
    } catch {
      return { action: "cancel" };
    }
    if (signal.aborted) return { action: "cancel" };
    if (reply === undefined || typeof reply === "object") return noUser();
    if (reply === "reject") return { action: "decline" };
    const missing = fields.filter((f) => f.required && f.default === undefined);
    if (missing.length) {
      deps.notice("warn", `elicitation from ${server} declined: it needs ${missing.map((f) => f.name).join(", ")}, which have no default (filling in form fields is not supported yet)`);
      return { action: "decline" };
    }
    const content: Record<string, unknown> = {};
    for (const f of fields) if (f.default !== undefined) content[f.name] = f.default;
    return { action: "accept", content };
  };
}

/** The error text a `sampling/createMessage` request is refused with. */
export function samplingRefusal(server: string): string {
  return `sampling is not enabled in oceancode: MCP server "${server}" asked the client's model for a completion, which is refused`;
}
