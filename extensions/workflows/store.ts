/**
 * The run store: `<data dir>/workflow-runs/<run_id>/run.json` (written once, atomically) and
 * `updates.jsonl` (one body per line, each appended whole with a single write). Shared with goal runs.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { writeFileAtomic } from "../../kernel/api.js";
import type { RunBody, RunMeta } from "./api.js";

export function runsDir(dataDir: string): string {
  return path.join(dataDir, "workflow-runs");
}

/** `wf-<base36 time>-<4 random hex>` */
export function newRunId(now = Date.now()): string {
  return `wf-${now.toString(36)}-${crypto.randomBytes(2).toString("hex")}`;
}

export class RunStore {
  readonly dir: string;
  constructor(dataDir: string) {
    this.dir = runsDir(dataDir);
  }

  create(meta: RunMeta): void {
    const d = path.join(this.dir, meta.run_id);
    fs.mkdirSync(d, { recursive: true });
    writeFileAtomic(path.join(d, "run.json"), `${JSON.stringify(meta)}\n`);
  }

  append(body: RunBody): void {
    // one write per line: a reader never sees half a body
    fs.appendFileSync(path.join(this.dir, body.run_id, "updates.jsonl"), `${JSON.stringify(body)}\n`);
  }

  /** Every run (optionally one project's), oldest first, with its latest body (undefined when none was written). */
  list(project?: string): Array<{ meta: RunMeta; latest?: RunBody }> {
    let names: string[];
    try {
      names = fs.readdirSync(this.dir);
    } catch {
      return [];
    }
    const out: Array<{ meta: RunMeta; latest?: RunBody }> = [];
    for (const name of names) {
      let meta: RunMeta;
      try {
        meta = JSON.parse(fs.readFileSync(path.join(this.dir, name, "run.json"), "utf8")) as RunMeta;
      } catch {
        continue; // a half-made or foreign directory
      }
      if (project !== undefined && path.resolve(meta.project) !== path.resolve(project)) continue;
      out.push({ meta, latest: this.latest(name) });
    }
    return out.sort((a, b) => a.meta.started_at.localeCompare(b.meta.started_at) || a.meta.run_id.localeCompare(b.meta.run_id));
  }

  read(runId: string): { meta: RunMeta; bodies: RunBody[] } | undefined {
    try {
      const meta = JSON.parse(fs.readFileSync(path.join(this.dir, runId, "run.json"), "utf8")) as RunMeta;
      return { meta, bodies: this.bodies(runId) };
    } catch {
      return undefined;
    }
  }

  private bodies(runId: string): RunBody[] {
    let text = "";
    try {
      text = fs.readFileSync(path.join(this.dir, runId, "updates.jsonl"), "utf8");
    } catch {
      return [];
    }
    const out: RunBody[] = [];
    for (const line of text.split("\n")) {
      if (!line.trim()) continue;
      try {
        out.push(JSON.parse(line) as RunBody);
      } catch {
        // a torn last line (a crash mid-write) is skipped, not fatal
      }
    }
    return out;
  }

  private latest(runId: string): RunBody | undefined {
    const b = this.bodies(runId);
    return b[b.length - 1];
  }
}
