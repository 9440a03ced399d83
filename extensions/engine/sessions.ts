/**
 * The open sessions of this process: creating, reopening (through loadSession), claiming them for this
 * process (claimSession), closing, idle eviction and releasing rows that left the window.
 */
import crypto from "node:crypto";
import { type EngineHooks, type ModelInfo, type Session, type SessionClaim, type SessionInfo, type SessionProfile } from "./api.js";
import type { SessionOverrides } from "./api.js";
import { emptyUsage } from "./kit/rows.js";
import { isRefusal, sessionBusyError, sessionRefusedError } from "./kit/session.js";
import { SessionUnknown } from "./errors.js";

export function newSessionId(): string {
  // time-ordered so `ls` and SQL order agree; random tail for uniqueness
  return `ses_${Date.now().toString(36).padStart(9, "0")}${crypto.randomBytes(5).toString("hex")}`;
}

export class SessionTable {
  private readonly sessions = new Map<string, Session>();
  /** sessions this process has claimed (claimSession): kept while the session is open, even when idle rows leave memory */
  private readonly claims = new Map<string, SessionClaim | undefined>();

  constructor(
    private readonly hooks: EngineHooks,
    private readonly describeModel: (id: string) => Promise<ModelInfo>,
  ) {}

  async create(o: { cwd: string; model: string; parentId?: string; overrides?: SessionOverrides; profile?: SessionProfile }): Promise<Session> {
    const parent = o.parentId ? this.sessions.get(o.parentId) : undefined;
    const info: SessionInfo = {
      id: newSessionId(),
      parentId: o.parentId,
      cwd: o.cwd,
      model: o.model,
      createdAt: Date.now(),
      // a child inherits its parent's overrides (e.g. the /tideline setting) unless given its own
      overrides: { ...(parent?.info.overrides ?? {}), ...(o.overrides ?? {}) },
    };
    const session: Session = { info, rows: [], totals: { usage: emptyUsage(), costUsd: 0, turns: 0, steps: 0 }, nextSeq: 1, lastActive: Date.now(), ext: new Map() };
    if (o.profile) session.profile = { ...o.profile, ...(o.profile.tools ? { tools: [...o.profile.tools] } : {}) };
    // load the model's provider now so hosts and meters see its catalogue entry before the first prompt;
    // a missing provider is reported when the prompt runs
    await this.describeModel(o.model).catch(() => undefined);
    await this.claim(info.id, false);
    this.sessions.set(info.id, session);
    await this.hooks.sessionStart.call({ session, source: "startup" });
    return session;
  }

  /** Claim a session for this process (kept until close, or the process ends). */
  private async claim(id: string, wait: boolean): Promise<void> {
    if (this.claims.has(id)) return;
    const c = await this.hooks.claimSession.call({ id, wait });
    if (c && "refused" in c) throw sessionBusyError(c.refused);
    this.claims.set(id, c);
  }

  async open(id: string, opts: { wait?: boolean } = {}): Promise<Session> {
    const open = this.sessions.get(id);
    if (open) return open;
    // claimed before it is read, so what we load is what the last holder left
    await this.claim(id, opts.wait === true);
    const stored = await this.hooks.loadSession.call({ id });
    if (!stored) {
      await this.release(id);
      throw SessionUnknown({ id });
    }
    if (isRefusal(stored)) {
      await this.release(id);
      throw sessionRefusedError(stored);
    }
    const last = stored.rows[stored.rows.length - 1];
    const session: Session = {
      info: stored.info,
      rows: stored.rows,
      totals: stored.totals,
      nextSeq: (last?.seq ?? 0) + 1,
      lastActive: Date.now(),
      ext: new Map(),
    };
    this.sessions.set(id, session);
    await this.hooks.sessionStart.call({ session, source: "resume" });
    return session;
  }

  async latestId(cwd: string): Promise<string | undefined> {
    let best: Session | undefined;
    // a sub-agent (child) session is never the one to continue
    for (const s of this.sessions.values()) if (s.info.cwd === cwd && s.info.parentId === undefined && (!best || s.lastActive > best.lastActive)) best = s;
    return best?.info.id ?? (await this.hooks.latestSession.call({ cwd }));
  }

  async close(session: Session, reason: string): Promise<void> {
    await this.hooks.sessionEnd.call({ session, reason });
    this.sessions.delete(session.info.id);
    await this.release(session.info.id);
  }

  private async release(id: string): Promise<void> {
    const c = this.claims.get(id);
    this.claims.delete(id);
    if (c && "release" in c) await c.release().catch(() => undefined);
  }

  /** Sessions idle longer than `limitMs` (and not running a prompt) leave memory. */
  evictIdle(now: number, limitMs: number): void {
    for (const [id, s] of this.sessions) if (!s.ext.has("engine:busy") && now - s.lastActive > limitMs) this.sessions.delete(id);
  }

  isOpen(id: string): boolean {
    return this.sessions.has(id);
  }
}

/** Drop rows with seq <= uptoSeq from the session's memory (in place); returns how many. */
export function releaseRows(session: Session, uptoSeq: number): number {
  const rows = session.rows;
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (rows[mid]!.seq <= uptoSeq) lo = mid + 1;
    else hi = mid;
  }
  if (lo > 0) rows.splice(0, lo); // in place: holders of session.rows see the same array
  return lo;
}
