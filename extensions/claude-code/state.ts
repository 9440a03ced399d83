/**
 * Per oceancode session, which claude conversation it is on: the seq its conversation started from
 * (the --session-id is derived from it) and the context claude last reported. Kept in the state dir
 * so a --continue in another process resumes the same conversation.
 */
import fs from "node:fs";
import path from "node:path";

export interface RouteState {
  /** the first row the current claude conversation holds */
  startSeq: number;
  /** Claude Code's context after its last request (input + cache + output tokens), 0 before any */
  context: number;
}

export class RouteStates {
  private readonly mem = new Map<string, RouteState>();
  constructor(private readonly dir: string) {}

  private file(sid: string): string {
    return path.join(this.dir, `${sid.replace(/[^A-Za-z0-9_-]/g, "_")}.json`);
  }

  get(sid: string): RouteState | undefined {
    const hit = this.mem.get(sid);
    if (hit) return hit;
    try {
      const raw = JSON.parse(fs.readFileSync(this.file(sid), "utf8")) as Partial<RouteState>;
      if (typeof raw.startSeq !== "number" || typeof raw.context !== "number") return undefined;
      const st = { startSeq: raw.startSeq, context: raw.context };
      this.mem.set(sid, st);
      return st;
    } catch {
      return undefined;
    }
  }

  set(sid: string, st: RouteState): void {
    this.mem.set(sid, st);
    try {
      fs.mkdirSync(this.dir, { recursive: true });
      const tmp = `${this.file(sid)}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, JSON.stringify(st));
      fs.renameSync(tmp, this.file(sid));
    } catch {
      // memory still holds it: only a --continue in another process would start a fresh conversation
    }
  }
}
