/**
 * The transcript hooks read through `transcript_path`: one JSONL file per session in Claude Code's shape,
 * <dataDir>/projects/<cwd slug>/<session id>.jsonl (Claude Code keeps ~/.claude/projects/<slug>/<id>.jsonl).
 *
 * Each line: {parentUuid, isSidechain, userType: "external", cwd, sessionId, version, type, message, uuid,
 * timestamp}. A user prompt is a "user" line with string content; an assistant row one "assistant" line
 * with text and tool_use blocks (Claude Code's tool names and input); each tool result its own "user"
 * line with a tool_result block; an engine note (a Stop continuation) a "user" line with isMeta: true.
 *
 * Append only, and only what is new: sync() scans back from the end of the session's rows to the last
 * seq written, so a step costs what it added, never the session's length. uuids are derived from the
 * session id and the row (or tool call), so a resumed session finds where its file stopped from the
 * last line alone and continues the same chain. A tool result is written as soon as the call finished
 * (before its tool row exists), so the next call's PreToolUse already sees it, as in Claude Code.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { AssistantRow, Row, Session, ToolRegistry, ToolResult } from "../engine/api.js";

export const STATE_KEY = "hooks:transcript";

export interface TranscriptOptions {
  /** <dataDir>/projects */
  root: string;
  version: string;
  tools: ToolRegistry;
  /** the stored rows of a session, for rows the engine already released from memory */
  storedRows?(sessionId: string): Promise<Row[] | undefined>;
}

interface State {
  file: string;
  /** the file is known to exist (saves a stat per hook when nothing is new) */
  exists: boolean;
  /** every row up to this seq is in the file */
  doneSeq: number;
  lastUuid: string | null;
  lastAssistantSeq: number;
  /** results written ahead of their tool row, by key */
  written: Set<string>;
  pending: Array<{ assistantSeq: number; result: ToolResult; at: number }>;
  chain: Promise<unknown>;
}

/** Claude Code's project folder name: every character but [A-Za-z0-9] becomes "-". */
export function projectSlug(cwd: string): string {
  return cwd.replace(/[^A-Za-z0-9]/g, "-");
}

/** A stable UUID (version 5 layout) for one line of one session. */
export function lineUuid(sessionId: string, key: string): string {
  const h = crypto.createHash("sha1").update(`${sessionId}\0${key}`).digest();
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString("hex");
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20, 32)}`;
}

const resultKey = (assistantSeq: number, callId: string): string => `result:${assistantSeq}:${callId}`;

/**
 * The file's last complete line (undefined when empty or missing). A torn last line — a crash in the
 * middle of a write — is cut off first, so the file stays one JSON object per line.
 */
export function lastLine(file: string): string | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, "r+");
  } catch {
    return undefined;
  }
  try {
    const size = fs.fstatSync(fd).size;
    let buf = Buffer.alloc(0);
    let pos = size;
    while (pos > 0) {
      const n = Math.min(65_536, pos);
      pos -= n;
      const chunk = Buffer.alloc(n);
      fs.readSync(fd, chunk, 0, n, pos);
      buf = Buffer.concat([chunk, buf]);
      const complete = buf[buf.length - 1] === 0x0a;
      const body = complete ? buf.subarray(0, buf.length - 1) : buf;
      const nl = body.lastIndexOf(0x0a);
      if (nl < 0 && pos > 0) continue;
      if (!complete) {
        // keep everything up to the last newline; the torn tail goes
        fs.ftruncateSync(fd, pos + (nl < 0 ? 0 : nl + 1));
        fs.closeSync(fd);
        fd = -1;
        return lastLine(file);
      }
      const line = body.subarray(nl + 1).toString("utf8");
      return line === "" ? undefined : line;
    }
    return undefined;
  } finally {
    if (fd >= 0) fs.closeSync(fd);
  }
}

/** Claude Code's default cleanupPeriodDays: transcripts untouched this long are removed. */
export const TRANSCRIPT_RETENTION_DAYS = 30;

export class Transcripts {
  constructor(private readonly opts: TranscriptOptions) {}

  /** Remove this project's transcripts not written for `days` (never `keep`'s). One directory listing. */
  sweep(cwd: string, keep: string, days = TRANSCRIPT_RETENTION_DAYS, now = Date.now()): number {
    const dir = path.join(this.opts.root, projectSlug(cwd));
    let names: string[];
    try {
      names = fs.readdirSync(dir);
    } catch {
      return 0;
    }
    let removed = 0;
    for (const name of names) {
      if (!name.endsWith(".jsonl") || name === `${keep}.jsonl`) continue;
      const file = path.join(dir, name);
      try {
        if (now - fs.statSync(file).mtimeMs > days * 86_400_000) {
          fs.rmSync(file);
          removed++;
        }
      } catch {
        /* gone already, or not ours to remove */
      }
    }
    return removed;
  }

  pathFor(session: Session): string {
    return path.join(this.opts.root, projectSlug(session.info.cwd), `${session.info.id}.jsonl`);
  }

  /** A finished tool call's result, written at the next sync even though its tool row does not exist yet. */
  noteResult(session: Session, result: ToolResult): void {
    const st = session.ext.get(STATE_KEY) as State | undefined;
    if (!st) return; // nothing synced yet: the tool row will carry it
    const rows = session.rows;
    let i = rows.length - 1;
    while (i >= 0 && rows[i]!.role !== "assistant") i--;
    st.pending.push({ assistantSeq: i >= 0 ? rows[i]!.seq : st.lastAssistantSeq, result, at: Date.now() });
  }

  /** Append what the file does not hold yet; resolves to the file's path. Calls are serialized per session. */
  sync(session: Session): Promise<string> {
    const st = this.state(session);
    const next = st.chain.then(() => this.syncNow(session, st));
    st.chain = next.catch(() => undefined);
    return next.then(() => st.file);
  }

  private state(session: Session): State {
    let st = session.ext.get(STATE_KEY) as State | undefined;
    if (st) return st;
    const file = this.pathFor(session);
    st = { file, exists: false, doneSeq: 0, lastUuid: null, lastAssistantSeq: 0, written: new Set(), pending: [], chain: Promise.resolve() };
    const last = lastLine(file);
    st.exists = last !== undefined;
    if (last !== undefined) this.resumeFrom(session, st, last);
    session.ext.set(STATE_KEY, st);
    return st;
  }

  /** A file from an earlier run: find the row its last line belongs to (scanning back from the newest). */
  private resumeFrom(session: Session, st: State, last: string): void {
    let parsed: { uuid?: unknown; timestamp?: unknown };
    try {
      parsed = JSON.parse(last) as typeof parsed;
    } catch {
      parsed = {};
    }
    const uuid = typeof parsed.uuid === "string" ? parsed.uuid : null;
    st.lastUuid = uuid;
    const rows = session.rows;
    const sid = session.info.id;
    const assistantBefore = (i: number): number => {
      for (let k = i - 1; k >= 0; k--) if (rows[k]!.role === "assistant") return rows[k]!.seq;
      return 0;
    };
    for (let i = rows.length - 1; i >= 0 && uuid; i--) {
      const row = rows[i]!;
      if (row.role !== "tool") {
        if (lineUuid(sid, `row:${row.seq}`) !== uuid) continue;
        st.doneSeq = row.seq;
      } else {
        const a = assistantBefore(i);
        const keys = row.results.map((r) => resultKey(a, r.callId));
        const at = keys.findIndex((k) => lineUuid(sid, k) === uuid);
        if (at < 0) continue;
        if (at === keys.length - 1) st.doneSeq = row.seq;
        else {
          st.doneSeq = row.seq - 1;
          for (const k of keys.slice(0, at + 1)) st.written.add(k);
        }
      }
      st.lastAssistantSeq = row.role === "assistant" ? row.seq : assistantBefore(i + 1);
      return;
    }
    // not one of this session's rows (written ahead, then lost from storage): go by time
    const t = typeof parsed.timestamp === "string" ? Date.parse(parsed.timestamp) : NaN;
    if (Number.isNaN(t)) return;
    for (const row of rows) if (row.at <= t) st.doneSeq = Math.max(st.doneSeq, row.seq);
    const i = rows.findIndex((r) => r.seq > st.doneSeq);
    st.lastAssistantSeq = assistantBefore(i < 0 ? rows.length : i);
  }

  private async syncNow(session: Session, st: State): Promise<void> {
    const rows = session.rows;
    let i = rows.length;
    while (i > 0 && rows[i - 1]!.seq > st.doneSeq) i--;
    let fresh: Row[] = rows.slice(i);
    // rows released from memory before they were written (hooks appeared mid-session): fetch them once
    if (i === 0 && fresh.length > 0 && fresh[0]!.seq > st.doneSeq + 1 && this.opts.storedRows) {
      const first = fresh[0]!.seq;
      const stored = (await this.opts.storedRows(session.info.id)) ?? [];
      fresh = [...stored.filter((r) => r.seq > st.doneSeq && r.seq < first), ...fresh];
    }
    const out: string[] = [];
    const sid = session.info.id;
    const push = (key: string, type: "user" | "assistant", at: number, body: Record<string, unknown>): void => {
      const uuid = lineUuid(sid, key);
      out.push(JSON.stringify({ parentUuid: st.lastUuid, isSidechain: session.info.parentId !== undefined, userType: "external", cwd: session.info.cwd, sessionId: sid, version: this.opts.version, type, ...body, uuid, timestamp: new Date(at).toISOString() }));
      st.lastUuid = uuid;
    };
    const pushResult = (assistantSeq: number, r: ToolResult, at: number): void => {
      const key = resultKey(assistantSeq, r.callId);
      if (st.written.has(key)) return;
      push(key, "user", at, { message: { role: "user", content: [{ tool_use_id: r.callId, type: "tool_result", content: r.content, is_error: r.isError }] } });
      st.written.add(key);
    };
    const inRows = new Set<string>();
    for (const row of fresh) {
      switch (row.role) {
        case "user":
          push(`row:${row.seq}`, "user", row.at, { message: { role: "user", content: row.text } });
          break;
        case "note":
          push(`row:${row.seq}`, "user", row.at, { isMeta: true, message: { role: "user", content: row.text } });
          break;
        case "assistant":
          push(`row:${row.seq}`, "assistant", row.at, { message: this.assistantMessage(session, row) });
          st.lastAssistantSeq = row.seq;
          break;
        case "tool":
          for (const r of row.results) {
            const key = resultKey(st.lastAssistantSeq, r.callId);
            pushResult(st.lastAssistantSeq, r, row.at);
            inRows.add(key);
            st.written.delete(key); // its tool row is written: the key is not needed any more
          }
          break;
      }
      st.doneSeq = row.seq;
    }
    for (const p of st.pending.splice(0)) if (!inRows.has(resultKey(p.assistantSeq, p.result.callId))) pushResult(p.assistantSeq, p.result, p.at);
    if (out.length === 0 && st.exists) return;
    fs.mkdirSync(path.dirname(st.file), { recursive: true, mode: 0o700 });
    fs.appendFileSync(st.file, out.map((l) => `${l}\n`).join(""), { mode: 0o600 });
    st.exists = true;
  }

  private assistantMessage(session: Session, row: AssistantRow): Record<string, unknown> {
    const content: Array<Record<string, unknown>> = [];
    if (row.text !== "" || row.toolCalls.length === 0) content.push({ type: "text", text: row.text });
    for (const call of row.toolCalls) {
      const tool = this.opts.tools.get(call.name);
      let input = call.input;
      try {
        if (tool?.toClaudeInput) input = tool.toClaudeInput(call.input, session.info.cwd);
      } catch {
        /* the model's own input, when it cannot be mapped */
      }
      content.push({ type: "tool_use", id: call.id, name: tool?.claudeName ?? call.name, input });
    }
    const u = row.usage;
    return {
      id: `msg_${lineUuid(session.info.id, `msg:${row.seq}`).replace(/-/g, "").slice(0, 24)}`,
      type: "message",
      role: "assistant",
      model: row.model ?? session.info.model,
      content,
      stop_reason: row.toolCalls.length > 0 ? "tool_use" : "end_turn",
      stop_sequence: null,
      usage: u
        ? { input_tokens: u.inputTokens, output_tokens: u.outputTokens, cache_read_input_tokens: u.cacheReadTokens, cache_creation_input_tokens: u.cacheWriteTokens }
        : { input_tokens: 0, output_tokens: 0 },
    };
  }
}
