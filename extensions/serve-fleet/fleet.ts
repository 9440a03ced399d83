/**
 * PgFleet: one connection of its own per instance that LISTENs on `oceancode_events` and
 * `oceancode_prompts` and sends this instance's NOTIFYs (one connection: what it publishes goes out in
 * order). An event's NOTIFY payload is `{o, s, t, d}` (origin instance, session, type, data); one whose JSON
 * would pass PostgreSQL's 8000-byte payload limit is stored in `fleet_events` and the NOTIFY carries
 * `{o, s, t, ref: <id>}`. Received events are delivered in the order they arrived (a referenced one is read
 * before the ones after it are delivered).
 *
 * A forwarded prompt is a `fleet_prompts` row and a NOTIFY with its id: every instance hears it, the one
 * that holds the session takes the row (`UPDATE ... WHERE taken_by IS NULL`), queues the turn and writes the
 * turn id back; the forwarder polls the row for it.
 *
 * A turn is a `fleet_turns` row from its acceptance (`queued`, before the client's 202) to its end
 * (`running`, then `done`), owned by this run (process start). The sweep hands the live turns of runs that
 * are gone to whoever claims their session (adopt): the interrupted one continued, the queued ones after it.
 */
import crypto from "node:crypto";
import type pg from "pg";
import type { Logger } from "../../kernel/api.js";
import type { AdoptedTurn, FleetEvent, FleetHandlers, FleetService, FleetStarted } from "../serve/api.js";
import { SESSION_LOCK_NAMESPACE as LOCK_NAMESPACE } from "../storage-postgres/api.js";
import { redactText } from "../storage-postgres/kit.js";
import { PRUNE_DEFAULTS, pruneFleet, type PruneAges } from "./prune.js";
import { migrateFleet } from "./schema.js";
import { FleetNotStarted, FleetPromptRefused, FleetPromptUntaken, FleetQueryFailed, FleetStopped } from "./errors.js";

export const EVENTS_CHANNEL = "oceancode_events";
export const PROMPTS_CHANNEL = "oceancode_prompts";
/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more */
export const NOTIFY_LIMIT = 7900;
/** SSE ids per instance start: fleet_starts (at most 2^22 - 1) times this stays a safe integer */
export const EVENT_IDS_PER_START = 2 ** 31;
/** a fleet query answers within this or its connection counts as lost */
const QUERY_TIMEOUT_MS = 15_000;

/** errors that mean the connection is gone (the server shut down or restarted, the socket dropped, no answer) */
function connectionGone(e: unknown): boolean {
  const code = (e as { code?: string } | undefined)?.code ?? "";
  const msg = e instanceof Error ? e.message : String(e);
  return /^57P0[123]$|^08/.test(code) || /ECONNRESET|ECONNREFUSED|EPIPE|Connection terminated|not queryable|Query read timeout/i.test(`${code} ${msg}`);
}

/** reconnect backoff: first wait, and the longest (each wait doubles, with jitter) */
export const RECONNECT_FIRST_MS = 100;
export const RECONNECT_MAX_MS = 2_000;
/**
 * After this instance reconnects, it takes nothing over for this long: the other instances are reconnecting
 * too (and re-taking their session locks), and a turn whose holder is merely slower to come back is not a
 * gone instance's. Three attempts of the slowest kind (the longest wait, RECONNECT_MAX_MS jittered to 1.25x,
 * plus a connect that times out, FLEET_CONNECT_TIMEOUT_MS) fit in it: a holder whose attempts fail or hang
 * while the database is still restarting keeps its sessions (with 3 s, then 10 s and a 10 s connect timeout,
 * an instance that missed an attempt lost its sessions to a faster one: the fleet-restart test under load).
 */
export const TAKEOVER_GRACE_MS = 15_000;
/** one fleet connect attempt's bound (three attempts of the slowest kind, wait + connect, fit in the grace) */
export const FLEET_CONNECT_TIMEOUT_MS = 3_000;
/** the fleet connection's application_name: the run in it tells a live holder (its connection is there) from a gone one */
const APP_PREFIX = "oc fleet ";

interface Wire {
  o: string;
  s: string;
  /** the root session of a sub-agent's event */
  r?: string;
  t: string;
  d?: unknown;
  ref?: string;
}

export interface PgFleetOptions {
  url: string;
  instanceId: string;
  log: Logger;
  /** how long forwardPrompt waits for the holder to take the prompt (default 3 s) */
  forwardTimeoutMs?: number;
  /** how often running turns of other instances are checked for a dead holder (default 1 s) */
  sweepMs?: number;
  /** pruning of old fleet rows: how often, and the ages (prune.ts) */
  prune?: Partial<PruneAges>;
}

export class PgFleet implements FleetService {
  readonly instanceId: string;
  /** this process start (fleet_turns.run): its turns are its own; every other run's live turns are a gone instance's */
  private readonly run = crypto.randomBytes(8).toString("hex");
  private client: pg.Client | undefined;
  private handlers: FleetHandlers | undefined;
  private readonly listeners = new Set<(e: FleetEvent) => void>();
  /** received events are delivered one after another, in arrival order */
  private delivery: Promise<void> = Promise.resolve();
  private stopped = false;
  private sweeper: NodeJS.Timeout | undefined;
  /** the connection's queries, one after another (pg deprecates overlapping client.query calls); order kept */
  private chain: Promise<unknown> = Promise.resolve();
  private sweeping = false;
  private readonly prune: PruneAges;
  /** when this instance last pruned (0: not yet; the first sweep does) */
  private lastPrune = 0;
  /** since when the database has been unreachable (the connection lost, reconnecting); undefined: connected */
  private downSince: number | undefined;
  /** no takeover before this time (just reconnected: see TAKEOVER_GRACE_MS) */
  private graceUntil = 0;
  /** turn state changes that failed (the database away): written again, in order, once it is back */
  private unsent: Array<{ sessionId: string; turnId: string; to: string; from: string[] }> = [];

  constructor(private readonly opts: PgFleetOptions) {
    this.instanceId = opts.instanceId;
    this.prune = { ...PRUNE_DEFAULTS, ...opts.prune };
  }

  async start(handlers: FleetHandlers): Promise<FleetStarted> {
    this.handlers = handlers;
    const c = await this.newClient();
    let eventIdBase: number;
    try {
      await c.connect();
      // versioned, once under concurrent starts; a newer fleet schema throws (the server does not start)
      const applied = await migrateFleet(c);
      if (applied.length) this.opts.log.info(`serve-fleet: fleet schema migrated to version ${applied[applied.length - 1]}`);
      const n = Number(((await c.query("SELECT nextval('fleet_starts')::text AS n")).rows[0] as { n: string }).n);
      eventIdBase = n * EVENT_IDS_PER_START;
    } catch (e) {
      await c.end().catch(() => undefined);
      const err = e as Error;
      err.message = this.redact(err.message);
      throw err;
    }
    await this.listen(c);
    this.client = c;
    this.sweeper = setInterval(() => void this.sweep(), this.opts.sweepMs ?? 1_000);
    this.sweeper.unref();
    return { eventIdBase };
  }

  private async newClient(): Promise<pg.Client> {
    const { default: pgm } = await import("pg");
    const c = new pgm.Client({
      connectionString: this.opts.url,
      application_name: `${APP_PREFIX}${this.run} ${this.instanceId}`.slice(0, 63),
      // short: a connect attempt that hangs (the server mid-restart) must not outlast the others' takeover grace
      connectionTimeoutMillis: FLEET_CONNECT_TIMEOUT_MS,
      // every wait has a bound: a query on a connection the server stopped answering fails (and is treated as lost)
      query_timeout: QUERY_TIMEOUT_MS,
    });
    // an error on an idle connection (the server restarted) is followed by 'end': handled there
    c.on("error", (e) => this.opts.log.warn(`serve-fleet: connection error: ${this.redact(e.message)}`));
    return c;
  }

  /** LISTEN on the connection, and watch it: when it ends unasked, reconnect. */
  private async listen(c: pg.Client): Promise<void> {
    c.on("notification", (n) => {
      if (n.channel === EVENTS_CHANNEL && n.payload) this.received(n.payload);
      else if (n.channel === PROMPTS_CHANNEL && n.payload) void this.promptArrived(n.payload);
    });
    c.on("end", () => this.lost(c));
    await c.query(`LISTEN ${EVENTS_CHANNEL}`);
    await c.query(`LISTEN ${PROMPTS_CHANNEL}`);
  }

  /** The connection ended without stop(): the database went away. Prompts are refused (503) until it is back. */
  private lost(c: pg.Client): void {
    if (this.stopped || this.client !== c) return;
    this.client = undefined;
    this.downSince = Date.now();
    this.chain = Promise.resolve(); // queries on the dead connection have failed; new ones wait for the next
    this.opts.log.error("serve-fleet: the connection to the database was lost; reconnecting (prompts get 503 and /health answers 503 until it is back)");
    void this.reconnect();
  }

  /** Reconnect with backoff (doubling, jittered, at most RECONNECT_MAX_MS) until connected or stopped. */
  private async reconnect(): Promise<void> {
    let wait = RECONNECT_FIRST_MS;
    while (!this.stopped) {
      await new Promise((r) => setTimeout(r, wait * (0.75 + Math.random() / 2)));
      if (this.stopped) return;
      let c: pg.Client | undefined;
      try {
        c = await this.newClient();
        await c.connect();
        await this.listen(c);
        if (this.stopped) {
          await c.end().catch(() => undefined);
          return;
        }
        this.client = c;
        const downMs = Date.now() - (this.downSince ?? Date.now());
        this.downSince = undefined;
        this.graceUntil = Date.now() + TAKEOVER_GRACE_MS;
        this.opts.log.warn(`serve-fleet: the database is reachable again (after ${(downMs / 1000).toFixed(1)} s); resumed`);
        await this.resend();
        return;
      } catch {
        await c?.end().catch(() => undefined);
        wait = Math.min(wait * 2, RECONNECT_MAX_MS);
      }
    }
  }

  /** The turn state changes the outage held back, in order (a turn that ended meanwhile must not stay 'running'). */
  private async resend(): Promise<void> {
    const todo = this.unsent.splice(0);
    for (const u of todo) await this.turnState(u.sessionId, u.turnId, u.to, u.from);
  }

  unavailable(): string | undefined {
    if (this.stopped || this.downSince === undefined) return undefined;
    return `the fleet's database is unreachable (since ${new Date(this.downSince).toISOString()}); reconnecting`;
  }

  /** a message for the log or an error: no database password in it */
  private redact(text: string): string {
    return redactText(text, this.opts.url);
  }

  private q(c: pg.Client, sql: string, params?: unknown[]): Promise<pg.QueryResult> {
    const p = this.chain.then(() => c.query(sql, params));
    this.chain = p.catch(() => undefined);
    // the connection's 'end' is the usual sign the database went away; a query that fails because the
    // connection is gone (or answers nothing within query_timeout) is the same sign, so none is missed
    p.catch((e: unknown) => {
      if (connectionGone(e)) this.lost(c);
    });
    return p;
  }

  private clientQ(sql: string, params?: unknown[]): Promise<pg.QueryResult> {
    return this.client ? this.q(this.client, sql, params) : Promise.reject(FleetStopped());
  }

  /** turns are this run's (this process start's): an earlier run of the same instance id is as gone as another instance */
  async turnQueued(sessionId: string, turnId: string, text: string): Promise<void> {
    await this.clientQ("INSERT INTO fleet_turns (session, turn_id, instance, run, text, state) VALUES ($1, $2, $3, $4, $5, 'queued')", [sessionId, turnId, this.instanceId, this.run, text]).catch((e: unknown) => {
      throw FleetQueryFailed({ message: this.redact((e as Error).message) });
    });
  }

  turnStarted(sessionId: string, turnId: string): Promise<void> {
    return this.turnState(sessionId, turnId, "running", ["queued"]);
  }

  turnFinished(sessionId: string, turnId: string): Promise<void> {
    return this.turnState(sessionId, turnId, "done", ["queued", "running"]);
  }

  private async turnState(sessionId: string, turnId: string, to: string, from: string[]): Promise<void> {
    await this.clientQ("UPDATE fleet_turns SET state = $4 WHERE session = $1 AND turn_id = $2 AND run = $3 AND state = ANY($5)", [sessionId, turnId, this.run, to, from]).catch((e: unknown) => {
      if (this.stopped) return;
      // kept and written again once the database is back (a turn never stays 'running' because of an outage)
      this.unsent.push({ sessionId, turnId, to, from });
      this.opts.log.warn(`serve-fleet: turn ${turnId} of ${sessionId} (${to}): ${this.redact((e as Error).message)}; written again when the database is back`);
    });
  }

  /**
   * The live turns other runs left for a session this instance now holds, marked taken by it. Row locks
   * (FOR UPDATE, re-checked after a wait) make each row one caller's, should two ever ask at once.
   */
  /** sessions whose left turns adopt() took (metrics' oceancode_fleet_takeovers_total) */
  private takenOver = 0;
  takeovers(): number {
    return this.takenOver;
  }

  async adopt(sessionId: string): Promise<AdoptedTurn[]> {
    try {
      const r = await this.clientQ(
        `WITH left_ AS (SELECT id, state FROM fleet_turns WHERE session = $1 AND state IN ('queued', 'running') AND run IS DISTINCT FROM $2 ORDER BY id FOR UPDATE)
         UPDATE fleet_turns t SET state = 'taken', taken_by = $3 FROM left_ WHERE t.id = left_.id
         RETURNING t.id, t.text, t.instance, left_.state AS was`,
        [sessionId, this.run, this.instanceId],
      );
      const rows = (r.rows as Array<{ id: string; text: string; instance: string; was: string }>).sort((x, y) => Number(x.id) - Number(y.id));
      if (rows.length) this.takenOver++;
      if (rows.length) this.opts.log.info(`serve-fleet: session ${sessionId}: took over ${rows.length} turn(s) of ${[...new Set(rows.map((x) => x.instance))].join(", ")} (gone)`);
      return rows.map((x) => ({ text: x.text, interrupted: x.was === "running", instance: x.instance }));
    } catch (e) {
      this.opts.log.warn(`serve-fleet: taking over the turns of session ${sessionId}: ${this.redact((e as Error).message)}`);
      return [];
    }
  }

  /**
   * Sessions with turns other runs left queued or running: when the session's claim is free (its holder is
   * gone: PostgreSQL drops an advisory lock with its connection, kill -9 included) or this instance holds it,
   * the serve side claims it and adopts them; a session another live instance holds is that one's to adopt.
   * A session the store does not have (its holder died before committing it) can never run: its turns end.
   */
  private async sweep(): Promise<void> {
    const c = this.client;
    const h = this.handlers;
    if (!c || !h || this.stopped || this.sweeping || Date.now() < this.graceUntil) return;
    this.sweeping = true;
    try {
      const r = await this.q(
        c,
        `SELECT s.session, NOT EXISTS (SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' AND l.granted AND l.classid = $2::int::oid
                                       AND l.objid = hashtext(s.session)::oid AND l.objsubid = 2) AS free
         FROM (SELECT session, min(id) AS first FROM fleet_turns t WHERE state IN ('queued', 'running') AND run IS DISTINCT FROM $1
                 -- a run whose fleet connection is there is alive (e.g. reconnected after a database restart): not gone
                 AND NOT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.application_name LIKE $3 || t.run || ' %')
               GROUP BY session) s
         ORDER BY s.first`,
        [this.run, LOCK_NAMESPACE, APP_PREFIX],
      );
      for (const row of r.rows as Array<{ session: string; free: boolean }>) {
        if (this.stopped) break;
        if (!row.free && !h.holds(row.session)) continue;
        const got = await h.takeover(row.session).catch(() => "busy" as const);
        if (got === "gone") {
          const u = await this.q(c, "UPDATE fleet_turns SET state = 'done' WHERE session = $1 AND state IN ('queued', 'running') AND run IS DISTINCT FROM $2", [row.session, this.run]);
          this.opts.log.warn(`serve-fleet: session ${row.session} is not in the store: ${u.rowCount ?? 0} turn(s) its gone instance left cannot run`);
        }
      }
    } catch (e) {
      this.opts.log.warn(`serve-fleet: takeover sweep: ${this.redact((e as Error).message)}`);
    }
    if (!this.stopped && Date.now() - this.lastPrune >= this.prune.everyMs) {
      this.lastPrune = Date.now();
      await pruneFleet((sql, params) => this.q(c, sql, params), this.prune).catch((e: unknown) => this.opts.log.warn(`serve-fleet: pruning: ${this.redact((e as Error).message)}`));
    }
    this.sweeping = false;
  }

  publish(event: Omit<FleetEvent, "origin">): void {
    const c = this.client;
    if (!c || this.stopped) return;
    const wire: Wire = { o: this.instanceId, s: event.sessionId, ...(event.rootId ? { r: event.rootId } : {}), t: event.type, d: event.data };
    const text = JSON.stringify(wire);
    const fail = (e: unknown) => this.opts.log.warn(`serve-fleet: publish ${event.type} of ${event.sessionId}: ${this.redact((e as Error).message)}`);
    if (Buffer.byteLength(text) < NOTIFY_LIMIT) {
      this.q(c, "SELECT pg_notify($1, $2)", [EVENTS_CHANNEL, text]).catch(fail);
      return;
    }
    // queued on the one connection: the INSERT and its NOTIFY keep their place among this instance's events
    this.q(c, "WITH i AS (INSERT INTO fleet_events (session, payload) VALUES ($2, $3::jsonb) RETURNING id) SELECT pg_notify($1, json_strip_nulls(json_build_object('o', $4::text, 's', $2::text, 'r', $6::text, 't', $5::text, 'ref', (SELECT id FROM i)::text))::text)", [
      EVENTS_CHANNEL,
      event.sessionId,
      JSON.stringify(event.data ?? null),
      this.instanceId,
      event.type,
      event.rootId ?? null,
    ]).catch(fail);
  }

  subscribe(listener: (e: FleetEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private received(payload: string): void {
    let w: Wire;
    try {
      w = JSON.parse(payload) as Wire;
    } catch {
      return;
    }
    if (w.o === this.instanceId) return;
    this.delivery = this.delivery.then(async () => {
      let data = w.d;
      if (w.ref !== undefined) {
        const r = await this.clientQ("SELECT payload FROM fleet_events WHERE id = $1", [w.ref]).catch(() => undefined);
        data = (r?.rows[0] as { payload?: unknown } | undefined)?.payload;
        if (data === undefined) return;
      }
      const ev: FleetEvent = { origin: w.o, sessionId: w.s, ...(w.r ? { rootId: w.r } : {}), type: w.t, data };
      for (const l of this.listeners) {
        try {
          l(ev);
        } catch (e) {
          this.opts.log.warn(`serve-fleet: listener: ${(e as Error).message}`);
        }
      }
    });
  }

  async forwardPrompt(sessionId: string, text: string): Promise<string> {
    const c = this.client;
    if (!c) throw FleetNotStarted();
    const r = await this.q(c, "INSERT INTO fleet_prompts (session, text, origin) VALUES ($1, $2, $3) RETURNING id::text AS id", [sessionId, text, this.instanceId]);
    const id = (r.rows[0] as { id: string }).id;
    await this.q(c, "SELECT pg_notify($1, $2)", [PROMPTS_CHANNEL, id]);
    const deadline = Date.now() + (this.opts.forwardTimeoutMs ?? 3_000);
    while (Date.now() < deadline) {
      await new Promise((res) => setTimeout(res, 50));
      const row = (await this.q(c, "SELECT taken_by, turn_id, error FROM fleet_prompts WHERE id = $1", [id])).rows[0] as { taken_by: string | null; turn_id: string | null; error: string | null } | undefined;
      if (row?.error) throw FleetPromptRefused({ message: row.error });
      if (row?.turn_id) return row.turn_id;
    }
    // nobody took it: withdraw it (a holder taking it now loses the race to this update)
    const gone = await this.q(c, "UPDATE fleet_prompts SET taken_by = 'withdrawn' WHERE id = $1 AND taken_by IS NULL", [id]);
    if (gone.rowCount === 0) {
      // taken at the last moment: wait briefly for its turn id
      for (let i = 0; i < 40; i++) {
        const row = (await this.q(c, "SELECT turn_id, error FROM fleet_prompts WHERE id = $1", [id])).rows[0] as { turn_id: string | null; error: string | null } | undefined;
        if (row?.error) throw FleetPromptRefused({ message: row.error });
        if (row?.turn_id) return row.turn_id;
        await new Promise((res) => setTimeout(res, 50));
      }
    }
    throw FleetPromptUntaken({ sessionId });
  }

  private async promptArrived(idText: string): Promise<void> {
    const c = this.client;
    const h = this.handlers;
    if (!c || !h || this.stopped) return;
    try {
      const row = (await this.q(c, "SELECT session, text FROM fleet_prompts WHERE id = $1 AND taken_by IS NULL", [idText])).rows[0] as { session: string; text: string } | undefined;
      if (!row || !h.holds(row.session)) return;
      const took = await this.q(c, "UPDATE fleet_prompts SET taken_by = $2 WHERE id = $1 AND taken_by IS NULL", [idText, this.instanceId]);
      if (took.rowCount !== 1) return;
      try {
        const turnId = await h.prompt(row.session, row.text);
        await this.q(c, "UPDATE fleet_prompts SET turn_id = $2 WHERE id = $1", [idText, turnId]);
      } catch (e) {
        await this.q(c, "UPDATE fleet_prompts SET error = $2 WHERE id = $1", [idText, this.redact((e as Error).message)]);
      }
    } catch (e) {
      this.opts.log.warn(`serve-fleet: forwarded prompt ${idText}: ${this.redact((e as Error).message)}`);
    }
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    clearInterval(this.sweeper);
    const c = this.client;
    this.client = undefined;
    if (this.unsent.length) this.opts.log.warn(`serve-fleet: ${this.unsent.length} turn state change(s) could not be written (the database is unreachable)`);
    await this.delivery.catch(() => undefined);
    // what is already queued on the connection (a turn's end, an event) goes out before it closes
    await this.chain.catch(() => undefined);
    await c?.end().catch(() => undefined);
  }
}
