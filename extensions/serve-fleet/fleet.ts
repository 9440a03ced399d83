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
 */
import type pg from "pg";

/** storage-postgres's session lock key (lock.ts LOCK_NAMESPACE, "ocss"): a free lock means no live holder */
const LOCK_NAMESPACE = 0x6f637373;
import type { Logger } from "../../kernel/api.js";
import type { FleetEvent, FleetHandlers, FleetService } from "../serve/api.js";
import { redactText } from "../storage-postgres/api.js";
import { PRUNE_DEFAULTS, pruneFleet, type PruneAges } from "./prune.js";
import { migrateFleet } from "./schema.js";

export const EVENTS_CHANNEL = "oceancode_events";
export const PROMPTS_CHANNEL = "oceancode_prompts";
/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more */
export const NOTIFY_LIMIT = 7900;

interface Wire {
  o: string;
  s: string;
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

  constructor(private readonly opts: PgFleetOptions) {
    this.instanceId = opts.instanceId;
    this.prune = { ...PRUNE_DEFAULTS, ...opts.prune };
  }

  async start(handlers: FleetHandlers): Promise<void> {
    this.handlers = handlers;
    const { default: pgm } = await import("pg");
    const c = new pgm.Client({ connectionString: this.opts.url, application_name: `oc fleet ${this.instanceId}`.slice(0, 63), connectionTimeoutMillis: 10_000 });
    c.on("error", (e) => this.opts.log.error(`serve-fleet: connection lost: ${this.redact(e.message)}`));
    try {
      await c.connect();
      // versioned, once under concurrent starts; a newer fleet schema throws (the server does not start)
      const applied = await migrateFleet(c);
      if (applied.length) this.opts.log.info(`serve-fleet: fleet schema migrated to version ${applied[applied.length - 1]}`);
    } catch (e) {
      await c.end().catch(() => undefined);
      const err = e as Error;
      err.message = this.redact(err.message);
      throw err;
    }
    c.on("notification", (n) => {
      if (n.channel === EVENTS_CHANNEL && n.payload) this.received(n.payload);
      else if (n.channel === PROMPTS_CHANNEL && n.payload) void this.promptArrived(n.payload);
    });
    await c.query(`LISTEN ${EVENTS_CHANNEL}`);
    await c.query(`LISTEN ${PROMPTS_CHANNEL}`);
    this.client = c;
    this.sweeper = setInterval(() => void this.sweep(), this.opts.sweepMs ?? 1_000);
    this.sweeper.unref();
  }

  /** a message for the log or an error: no database password in it */
  private redact(text: string): string {
    return redactText(text, this.opts.url);
  }

  private q(c: pg.Client, sql: string, params?: unknown[]): Promise<pg.QueryResult> {
    const p = this.chain.then(() => c.query(sql, params));
    this.chain = p.catch(() => undefined);
    return p;
  }

  private clientQ(sql: string, params?: unknown[]): Promise<pg.QueryResult> {
    return this.client ? this.q(this.client, sql, params) : Promise.reject(new Error("the fleet is stopped"));
  }

  turnStarted(sessionId: string, turnId: string, text: string): void {
    this.clientQ("INSERT INTO fleet_turns (session, turn_id, instance, text) VALUES ($1, $2, $3, $4)", [sessionId, turnId, this.instanceId, text])
      .catch((e: unknown) => this.opts.log.warn(`serve-fleet: turn ${turnId} of ${sessionId}: ${(e as Error).message}`));
  }

  turnFinished(sessionId: string, turnId: string): void {
    this.clientQ("UPDATE fleet_turns SET state = 'done' WHERE session = $1 AND turn_id = $2 AND instance = $3 AND state = 'running'", [sessionId, turnId, this.instanceId])
      .catch((e: unknown) => this.opts.log.warn(`serve-fleet: turn ${turnId} of ${sessionId}: ${(e as Error).message}`));
  }

  /**
   * Turns another instance was running whose session claim is free: that instance is gone (PostgreSQL drops
   * an advisory lock with its connection, kill -9 included). The first instance to claim the session marks
   * the turn taken and continues it; the others fail the claim and leave it.
   */
  private async sweep(): Promise<void> {
    const c = this.client;
    const h = this.handlers;
    if (!c || !h || this.stopped || this.sweeping) return;
    this.sweeping = true;
    try {
      const r = await this.q(c, 
        `SELECT t.id::text AS id, t.session, t.text FROM fleet_turns t WHERE t.state = 'running' AND t.instance <> $1
         AND NOT EXISTS (SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' AND l.granted AND l.classid = $2::int::oid
                         AND l.objid = hashtext(t.session)::oid AND l.objsubid = 2)
         ORDER BY t.id`,
        [this.instanceId, LOCK_NAMESPACE],
      );
      for (const row of r.rows as Array<{ id: string; session: string; text: string }>) {
        if (this.stopped) break;
        const ok = await h
          .takeover(row.session, row.text, async () => {
            const u = await this.q(c, "UPDATE fleet_turns SET state = 'taken', taken_by = $2 WHERE id = $1 AND state = 'running'", [row.id, this.instanceId]);
            return u.rowCount === 1;
          })
          .catch(() => false);
        if (ok) this.opts.log.info(`serve-fleet: took over session ${row.session} (its instance is gone)`);
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
    const wire: Wire = { o: this.instanceId, s: event.sessionId, t: event.type, d: event.data };
    const text = JSON.stringify(wire);
    const fail = (e: unknown) => this.opts.log.warn(`serve-fleet: publish ${event.type} of ${event.sessionId}: ${(e as Error).message}`);
    if (Buffer.byteLength(text) < NOTIFY_LIMIT) {
      this.q(c, "SELECT pg_notify($1, $2)", [EVENTS_CHANNEL, text]).catch(fail);
      return;
    }
    // queued on the one connection: the INSERT and its NOTIFY keep their place among this instance's events
    this.q(c, "WITH i AS (INSERT INTO fleet_events (session, payload) VALUES ($2, $3::jsonb) RETURNING id) SELECT pg_notify($1, json_build_object('o', $4::text, 's', $2::text, 't', $5::text, 'ref', (SELECT id FROM i)::text)::text)", [
      EVENTS_CHANNEL,
      event.sessionId,
      JSON.stringify(event.data ?? null),
      this.instanceId,
      event.type,
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
      const ev: FleetEvent = { origin: w.o, sessionId: w.s, type: w.t, data };
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
    if (!c) throw new Error("the fleet is not started");
    const r = await this.q(c, "INSERT INTO fleet_prompts (session, text, origin) VALUES ($1, $2, $3) RETURNING id::text AS id", [sessionId, text, this.instanceId]);
    const id = (r.rows[0] as { id: string }).id;
    await this.q(c, "SELECT pg_notify($1, $2)", [PROMPTS_CHANNEL, id]);
    const deadline = Date.now() + (this.opts.forwardTimeoutMs ?? 3_000);
    while (Date.now() < deadline) {
      await new Promise((res) => setTimeout(res, 50));
      const row = (await this.q(c, "SELECT taken_by, turn_id, error FROM fleet_prompts WHERE id = $1", [id])).rows[0] as { taken_by: string | null; turn_id: string | null; error: string | null } | undefined;
      if (row?.error) throw new Error(row.error);
      if (row?.turn_id) return row.turn_id;
    }
    // nobody took it: withdraw it (a holder taking it now loses the race to this update)
    const gone = await this.q(c, "UPDATE fleet_prompts SET taken_by = 'withdrawn' WHERE id = $1 AND taken_by IS NULL", [id]);
    if (gone.rowCount === 0) {
      // taken at the last moment: wait briefly for its turn id
      for (let i = 0; i < 40; i++) {
        const row = (await this.q(c, "SELECT turn_id, error FROM fleet_prompts WHERE id = $1", [id])).rows[0] as { turn_id: string | null; error: string | null } | undefined;
        if (row?.error) throw new Error(row.error);
        if (row?.turn_id) return row.turn_id;
        await new Promise((res) => setTimeout(res, 50));
      }
    }
    throw new Error(`no live instance took the prompt for session ${sessionId}`);
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
        await this.q(c, "UPDATE fleet_prompts SET error = $2 WHERE id = $1", [idText, (e as Error).message]);
      }
    } catch (e) {
      this.opts.log.warn(`serve-fleet: forwarded prompt ${idText}: ${(e as Error).message}`);
    }
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    clearInterval(this.sweeper);
    const c = this.client;
    this.client = undefined;
    await this.delivery.catch(() => undefined);
    await c?.end().catch(() => undefined);
  }
}
