/**
 * Pruning of the fleet tables. Their rows matter only for a short while: a `fleet_events` row is read right
 * after its NOTIFY, a `fleet_prompts` row until its forwarder has the turn id (seconds), a finished
 * `fleet_turns` row not at all (it stays an hour for whoever looks into a takeover). Every instance prunes
 * from its sweep, at most once per `everyMs`; each DELETE takes the oldest rows through an index on their
 * time (migration 2) and at most `batch` of them, so a run is cheap and a backlog goes over a few runs.
 */
export interface PruneAges {
  /** how often an instance prunes (default 60 s; $OC_FLEET_PRUNE_MS) */
  everyMs: number;
  /** fleet_events older than this go (default 5 min) */
  eventsMs: number;
  /** fleet_prompts older than this go (default 5 min) */
  promptsMs: number;
  /** fleet_turns done or taken, started before this, go (default 1 h); queued and running ones stay */
  turnsMs: number;
  /** rows deleted per table per run at most */
  batch: number;
}

export const PRUNE_DEFAULTS: PruneAges = { everyMs: 60_000, eventsMs: 5 * 60_000, promptsMs: 5 * 60_000, turnsMs: 60 * 60_000, batch: 5_000 };

type Query = (sql: string, params: unknown[]) => Promise<{ rowCount: number | null }>;

/** One pruning run; the number of rows deleted. */
export async function pruneFleet(q: Query, ages: PruneAges): Promise<number> {
  const older = "now() - $1 * interval '1 millisecond'";
  const statements: Array<[string, number]> = [
    [`DELETE FROM fleet_events WHERE id IN (SELECT id FROM fleet_events WHERE created_at < ${older} ORDER BY created_at LIMIT $2)`, ages.eventsMs],
    // taken, withdrawn, and any still untaken: its forwarder stopped waiting seconds after it was made
    [`DELETE FROM fleet_prompts WHERE id IN (SELECT id FROM fleet_prompts WHERE created_at < ${older} ORDER BY created_at LIMIT $2)`, ages.promptsMs],
    [`DELETE FROM fleet_turns WHERE id IN (SELECT id FROM fleet_turns WHERE state IN ('done', 'taken') AND started_at < ${older} ORDER BY started_at LIMIT $2)`, ages.turnsMs],
  ];
  let n = 0;
  for (const [sql, age] of statements) n += (await q(sql, [age, ages.batch])).rowCount ?? 0;
  return n;
}
