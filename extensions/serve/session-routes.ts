/**
 * The session list (search and paging), rename, and pin/unpin: what the pager's session picker and
 * `oceancode session pin|unpin` do, over HTTP. A rename is the session's title in its info (stored with
 * saveInfo, as a permission-mode switch is); a pin is the store's (`StorageService.pins`), the one the
 * retention sweep reads.
 */
import path from "node:path";
import type { SessionSummary } from "../storage/api.js";
import { type RouteDefinition } from "./api.js";
import { HttpError } from "./kit/shared.js";
import type { CoreDeps } from "./core-routes.js";
import { errorResponses, SessionIdParams, SessionInfoSchema, SessionSummarySchema } from "./schemas.js";

type Listed = SessionSummary & { open: boolean };

/** the most sessions one search reads from the store (the store's own cap) */
const SEARCH_SCAN = 100_000;

/** Does a session match the search words (every word, case-insensitive, in its title, id, cwd or model)? */
export function matches(s: Pick<SessionSummary, "id" | "title" | "cwd" | "model">, search: string): boolean {
  const hay = `${s.title ?? ""}\n${s.id}\n${s.cwd}\n${s.model}`.toLowerCase();
  return search
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((w) => hay.includes(w));
}

export function sessionListRoute(d: CoreDeps): RouteDefinition {
  return {
    method: "GET",
    url: "/session",
    operationId: "sessionList",
    summary: "Stored sessions (newest first) and the ones this server holds open; search by title, id, project or model, a page at a time (offset + limit)",
    tags: ["session"],
    schema: {
      querystring: {
        type: "object",
        properties: {
          cwd: { type: "string", description: "only this project's sessions (relative to the server's --directory)" },
          search: { type: "string", maxLength: 500, description: "words that must all appear (case-insensitive) in the title, id, project path or model" },
          pinned: { type: "boolean", description: "only pinned (true) or only unpinned (false) sessions" },
          offset: { type: "integer", minimum: 0, default: 0, description: "skip this many matches (the next page: offset + limit)" },
          limit: { type: "integer", minimum: 1, maximum: 1000, default: 100 },
        },
      },
      response: { 200: { type: "array", items: SessionSummarySchema } },
    },
    handler: async (req) => {
      const q = req.query as { cwd?: string; search?: string; pinned?: boolean; offset?: number; limit?: number };
      const limit = q.limit ?? 100;
      const offset = q.offset ?? 0;
      const cwd = q.cwd ? path.resolve(d.project, q.cwd) : undefined;
      const filtered = (q.search ?? "").trim() !== "" || q.pinned !== undefined;
      const stored: SessionSummary[] = d.storage ? await d.storage.listSessions({ ...(cwd ? { cwd } : {}), limit: filtered ? SEARCH_SCAN : Math.min(SEARCH_SCAN, offset + limit) }) : [];
      const open = new Set(d.hub.openSessions().map((s) => s.info.id));
      const all: Listed[] = stored.map((s) => ({ ...s, open: open.has(s.id) }));
      // open sessions not stored yet (no prompt so far) come first: they are the newest
      const storedIds = new Set(stored.map((s) => s.id));
      for (const s of d.hub.openSessions()) {
        if (storedIds.has(s.info.id) || (cwd && s.info.cwd !== cwd)) continue;
        all.unshift({ id: s.info.id, cwd: s.info.cwd, model: s.info.model, ...(s.info.title ? { title: s.info.title } : {}), createdAt: s.info.createdAt, updatedAt: s.lastActive, turns: s.totals.turns, steps: s.totals.steps, open: true });
      }
      const hits = all.filter((s) => (!q.search || matches(s, q.search)) && (q.pinned === undefined || (s.pinned === true) === q.pinned));
      return hits.slice(offset, offset + limit);
    },
  };
}

const pinAnswer = {
  type: "object",
  required: ["id", "pinned", "changed"],
  properties: {
    id: { type: "string" },
    pinned: { type: "boolean", description: "the session is pinned now (retention keeps it)" },
    changed: { type: "boolean", description: "false: it already was (pin) or was not (unpin)" },
  },
};

export function sessionEditRoutes(d: CoreDeps): RouteDefinition[] {
  const tags = ["session"];
  const pins = () => {
    const p = d.storage?.pins;
    if (!p) throw new HttpError(501, "pins_unavailable", "the storage provider keeps no pins");
    return p;
  };
  return [
    {
      method: "PATCH",
      url: "/session/:id",
      operationId: "sessionRename",
      summary: "Rename a session (its title in the session list)",
      tags,
      schema: {
        params: SessionIdParams,
        body: {
          type: "object",
          required: ["title"],
          additionalProperties: false,
          // one line, no control characters: it is shown in terminals
          properties: { title: { type: "string", minLength: 1, maxLength: 200, pattern: "^[^\\u0000-\\u001f\\u007f-\\u009f]+$" } },
          examples: [{ title: "fix the flaky upload test" }],
        },
        response: { 200: SessionInfoSchema, ...errorResponses(404, 409) },
      },
      handler: async (req) => {
        const s = await req.session(req.params.id!);
        const title = (req.body as { title: string }).title.trim();
        if (!title) throw new HttpError(400, "invalid_request", "the title is empty");
        s.info.title = title;
        d.storage?.saveInfo(s.info);
        const b = d.hub.busy(s.info.id);
        return { ...s.info, open: true, ...(b.running ? { running: b.running } : {}), queued: b.queued };
      },
    },
    {
      method: "POST",
      url: "/session/:id/pin",
      operationId: "sessionPin",
      summary: "Pin a session: the retention sweep keeps it, whatever its age (oceancode session pin)",
      tags,
      schema: { params: SessionIdParams, response: { 200: pinAnswer, ...errorResponses(404, 501) } },
      handler: async (req) => {
        const id = req.params.id!;
        const p = pins();
        await d.storage?.settle();
        if (!(await p.known(id))) throw new HttpError(404, "session_not_found", `no session '${id}' in the store (a session is stored from its first prompt)`);
        return { id, pinned: true, changed: await p.pin(id) };
      },
    },
    {
      method: "DELETE",
      url: "/session/:id/pin",
      operationId: "sessionUnpin",
      summary: "Unpin a session: retention applies to it again (oceancode session unpin)",
      tags,
      schema: { params: SessionIdParams, response: { 200: pinAnswer, ...errorResponses(501) } },
      handler: async (req) => {
        const id = req.params.id!;
        return { id, pinned: false, changed: await pins().unpin(id) };
      },
    },
  ];
}
