/**
 * The goal's own writer of the workflow run store (`<data dir>/workflow-runs/<run_id>/`): run.json written once
 * (temp + rename), updates.jsonl appended one whole line per body. Shaped like the workflows extension's
 * RunStore (create(meta), append(body)) so the two can be joined.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { RunMeta } from "./api.js";

/** `wf-<base36 time>-<4 random hex>` (goal runs use the workflow id shape). */
export function newRunId(now = Date.now()): string {
  return `wf-${now.toString(36)}-${crypto.randomBytes(2).toString("hex")}`;
}

export function runsRoot(dataDir: string): string {
  return path.join(dataDir, "workflow-runs");
}

export class GoalRunStore {
  private dir?: string;
  constructor(private readonly root: string) {}

  /** The run's directory and its run.json; throws (with the path) when it cannot be written. */
  create(meta: RunMeta): string {
    const dir = path.join(this.root, meta.run_id);
    fs.mkdirSync(dir, { recursive: true });
    const tmp = path.join(dir, `.run.json.${process.pid}.tmp`);
    fs.writeFileSync(tmp, `${JSON.stringify(meta, null, 2)}\n`);
    fs.renameSync(tmp, path.join(dir, "run.json"));
    this.dir = dir;
    return dir;
  }

  /** One body as one line, in one write (a reader never sees half a line from us). */
  append(body: object): void {
    if (!this.dir) throw new Error("goal run store: append before create");
    fs.appendFileSync(path.join(this.dir, "updates.jsonl"), `${JSON.stringify(body)}\n`);
  }
}
