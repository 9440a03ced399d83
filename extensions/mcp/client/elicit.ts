/**
 * Elicitation and sampling, the server-to-client requests.
 *
 * Elicitation (`elicitation/create`, form mode): routed to the host's question handler (the same seam as
 * permission asks). The question names the server and its message and carries the requested fields
 * (Question.fields). A host that can collect values (the pager's form dialog, serve's answer route)
 * answers with a FormAnswer: each value is converted to its field's type (number, integer, boolean, an
 * enum's option) and checked; a bad value or a missing required one declines with a notice naming the
 * field. A host that can only say yes or no: yes accepts with the schema's defaults (a required field
 * without a default declines with a notice), no declines, an interruption cancels. A host with no person
 * behind it (`run`, `run --auto`: the question carries autoApprove: false, so no automatic approver may
 * say yes) declines with the notice `elicitation from <server> declined: no interactive user`.
 *
 * Sampling (`sampling/createMessage`): refused with an error saying sampling is not enabled.
 */
import type { Question, QuestionField, QuestionReply } from "../../engine/api.js";

/** The parts of an ElicitRequest's params this reads. */
export interface ElicitParams {
  message: string;
  requestedSchema?: { properties?: Record<string, unknown>; required?: string[] };
}

export type ElicitResult = { action: "accept"; content: Record<string, unknown> } | { action: "decline" } | { action: "cancel" };

export interface ElicitDeps {
  /** the host's question handler, through the engine; undefined: no host answers questions */
  ask?: (q: Question, signal: AbortSignal) => Promise<QuestionReply | undefined>;
  /** the session the question belongs to ("" before any session) */
  sessionId: () => string;
  notice: (level: "info" | "warn", text: string) => void;
}

const TYPES = new Set(["string", "number", "integer", "boolean"]);

export function formFields(schema: ElicitParams["requestedSchema"]): QuestionField[] {
  const required = new Set(Array.isArray(schema?.required) ? schema.required : []);
  return Object.entries(schema?.properties ?? {}).map(([name, raw]) => {
    const p = (raw ?? {}) as Record<string, unknown>;
    const type = (typeof p.type === "string" && TYPES.has(p.type) ? p.type : "string") as QuestionField["type"];
    const d = p.default;
    const options = Array.isArray(p.enum) ? p.enum.filter((o): o is string => typeof o === "string") : undefined;
    return {
      name,
      type,
      ...(typeof p.title === "string" ? { title: p.title } : {}),
      ...(typeof p.description === "string" ? { description: p.description } : {}),
      required: required.has(name),
      ...(typeof d === "string" || typeof d === "number" || typeof d === "boolean" ? { default: d } : {}),
      ...(options?.length ? { options } : {}),
    };
  });
}

/** One line per field: `name (type, required): description [default: …]`. */
export function describeFields(fields: readonly QuestionField[]): string {
  return fields
    .map((f) => `${f.name} (${f.options ? f.options.join("|") : f.type}${f.required ? ", required" : ""})${f.description ? `: ${f.description}` : f.title ? `: ${f.title}` : ""}${f.default !== undefined ? ` [default: ${JSON.stringify(f.default)}]` : ""}`)
    .join("\n");
}

/** A typed value as its field's type, or why it is not one. Empty text: the default, else absent. */
export function convertValue(f: QuestionField, text: string | undefined): { value?: unknown } | { error: string } {
  const t = (text ?? "").trim();
  if (t === "") return f.default !== undefined ? { value: f.default } : {};
  if (f.options && !f.options.includes(t)) return { error: `${f.name} must be one of ${f.options.join(", ")}, not '${t.slice(0, 40)}'` };
  switch (f.type) {
    case "number":
    case "integer": {
      const n = Number(t);
      if (!Number.isFinite(n) || (f.type === "integer" && !Number.isInteger(n))) return { error: `${f.name} must be ${f.type === "integer" ? "a whole number" : "a number"}, not '${t.slice(0, 40)}'` };
      return { value: n };
    }
    case "boolean":
      if (/^(true|yes|y|1|on)$/i.test(t)) return { value: true };
      if (/^(false|no|n|0|off)$/i.test(t)) return { value: false };
      return { error: `${f.name} must be yes or no, not '${t.slice(0, 40)}'` };
    default:
      return { value: t };
  }
}

/** The content a reply gives the fields, or why it is declined. */
function contentOf(fields: readonly QuestionField[], values: Record<string, string> | undefined): { content: Record<string, unknown> } | { error: string } {
  const content: Record<string, unknown> = {};
  const missing: string[] = [];
  for (const f of fields) {
    const got = convertValue(f, values?.[f.name]);
    if ("error" in got) return { error: got.error };
    if (got.value !== undefined) content[f.name] = got.value;
    else if (f.required) missing.push(f.name);
  }
  if (missing.length) return { error: `it needs ${missing.join(", ")}${values ? "" : ", which have no default"}` };
  return { content };
}

/** The handler for one server's `elicitation/create`. Never throws: every failure is a decline or cancel. */
export function elicitHandler(deps: ElicitDeps) {
  return async (server: string, params: ElicitParams, signal: AbortSignal, sessionId?: string): Promise<ElicitResult> => {
    const fields = formFields(params.requestedSchema);
    const noUser = () => {
      deps.notice("warn", `elicitation from ${server} declined: no interactive user`);
      return { action: "decline" } as const;
    };
    if (!deps.ask) return noUser();
    const question: Question = {
      sessionId: sessionId ?? deps.sessionId(),
      tool: `mcp__${server}`,
      subject: `${params.message}${fields.length ? `\n${describeFields(fields)}` : ""}`,
      reason: `MCP server "${server}" asks: ${params.message}`,
      // only a person may accept: an automatic approver (run --auto) must reject, which declines
      autoApprove: false,
      ...(fields.length ? { fields } : {}),
    };
    let reply: QuestionReply | undefined;
    try {
      reply = await deps.ask(question, signal);
    } catch {
      return { action: "cancel" };
    }
    if (signal.aborted) return { action: "cancel" };
    if (reply === undefined) return noUser();
    if (typeof reply === "object" && reply.answer === "reject") return noUser();
    if (reply === "reject") return { action: "decline" };
    const got = contentOf(fields, typeof reply === "object" && "values" in reply ? reply.values : undefined);
    if ("error" in got) {
      deps.notice("warn", `elicitation from ${server} declined: ${got.error}`);
      return { action: "decline" };
    }
    return { action: "accept", content: got.content };
  };
}

/** The error text a `sampling/createMessage` request is refused with. */
export function samplingRefusal(server: string): string {
  return `sampling is not enabled in oceancode: MCP server "${server}" asked the client's model for a completion, which is refused`;
}
