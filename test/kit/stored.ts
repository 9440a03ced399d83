/**
 * What a session stored, read the way a user would (the ledger's files, `oceancode export`), and what a
 * `run --format json` stream showed, so tests can hold the two side by side.
 */
import fs from "node:fs";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import Database from "better-sqlite3";
import { expect } from "vitest";
import { REPO_ROOT, runCliAsync, type Sandbox } from "./cli.js";
import type { TurnIndexEntry } from "../../extensions/ledger/api.js";

export interface JsonEvent {
  type: string;
  sessionId?: string;
  text?: string;
  turn?: number;
  step?: number;
  reason?: string;
  cause?: string;
  chars?: number;
  deltas?: number;
}

/** The events of a `run --format json` stdout, one a line (typed as the test reads them; JsonEvent by default). */
export function parseEvents<E = JsonEvent>(stdout: string): E[] {
  return stdout
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as E);
}

/** `f` on the SQLite database at `file`, closed after. */
export function withDatabase<T>(file: string, f: (db: Database.Database) => T): T {
  const db = new Database(file);
  try {
    return f(db);
  } finally {
    db.close();
  }
}

/** The session id `run` names on stderr (`session: ses_…`), asserted to be there. */
export function sessionFromStderr(stderr: string): string {
  const id = /session: (ses_\w+)/.exec(stderr)?.[1];
  expect(id, stderr).toBeTruthy();
  return id!;
}

/**
 * The text a JSON consumer keeps: every text_delta, minus the ones each discard takes back (the step's
 * deltas since it began or since its previous discard). Also checks that each discard's `deltas` and
 * `chars` match what it takes back.
 */
export function keptText(events: JsonEvent[]): string {
  let kept = "";
  let pending: string[] = [];
  for (const e of events) {
    if (e.type === "text_delta") pending.push(e.text ?? "");
    else if (e.type === "discard") {
      if (pending.length !== e.deltas) throw new Error(`discard says ${e.deltas} deltas, the stream had ${pending.length}`);
      const chars = [...pending.join("")].length;
      if (chars !== e.chars) throw new Error(`discard says ${e.chars} chars, the deltas hold ${chars}`);
      pending = [];
    } else if (e.type === "step_end" || e.type === "turn_end" || e.type === "tool_call_start") {
      kept += pending.join("");
      pending = [];
    }
  }
  return kept + pending.join("");
}

export function ledgerRoot(sb: Sandbox): string {
  return path.join(sb.home, ".local", "share", "oceancode", "session-ledger");
}

/** A session's ledger folder: the folder named `id` somewhere under `root` (the sandbox's home). */
export function findLedgerDir(root: string, id: string): string {
  const stack = [root];
  while (stack.length) {
    const d = stack.pop()!;
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (!e.isDirectory()) continue;
      const p = path.join(d, e.name);
      if (e.name === id) return p;
      stack.push(p);
    }
  }
  throw new Error(`no ledger folder for ${id} under ${root}`);
}

/** index.json rows: the ledger's published type */
export type IndexEntry = TurnIndexEntry;

export function readIndex(sb: Sandbox, id: string): { json: IndexEntry[]; md: string } {
  const dir = path.join(ledgerRoot(sb), id);
  const json = (JSON.parse(fs.readFileSync(path.join(dir, "index.json"), "utf8")) as { turns: IndexEntry[] }).turns;
  return { json, md: fs.readFileSync(path.join(dir, "index.md"), "utf8") };
}

export function readTurn(sb: Sandbox, id: string, turn: number): string {
  return fs.readFileSync(path.join(ledgerRoot(sb), id, "transcript", `turn-${String(turn).padStart(4, "0")}.md`), "utf8");
}

/** The index.md table row of one turn, split into its cells (Turn, Transcript, Seq, Steps, Started, Ended, Past tideline, Title). */
export function indexRow(md: string, turn: number): string[] {
  const line = md.split("\n").find((l) => l.startsWith(`| ${turn} | `));
  if (!line) throw new Error(`no row for turn ${turn} in index.md:\n${md}`);
  return line
    .slice(2, -2)
    .split(" | ")
    .map((c) => c.trim());
}

export interface AtifStep {
  step_id: number;
  source: string;
  message: string;
  tool_calls?: unknown[];
}
export interface Atif {
  steps: AtifStep[];
  extra?: { incomplete_turns?: Array<{ turn: number; status: string; marker_step_id: number }> };
}

/** `oceancode export <id> --atif`, checked against extensions/export/atif.schema.json. */
export async function exportAtif(sb: Sandbox, id: string): Promise<Atif> {
  const r = await runCliAsync(["export", id, "--atif"], { cwd: sb.project, env: sb.env });
  if (r.code !== 0) throw new Error(`export --atif failed (${r.code}): ${r.stderr}`);
  const traj = JSON.parse(r.stdout) as Atif;
  const schema = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "extensions", "export", "atif.schema.json"), "utf8")) as object;
  const validate = new Ajv2020({ strict: false, validateFormats: false, allErrors: true }).compile(schema);
  if (!validate(traj)) throw new Error(`ATIF export is not schema-valid: ${JSON.stringify(validate.errors)}`);
  return traj;
}

export async function exportMd(sb: Sandbox, id: string): Promise<string> {
  const r = await runCliAsync(["export", id, "--md"], { cwd: sb.project, env: sb.env });
  if (r.code !== 0) throw new Error(`export --md failed (${r.code}): ${r.stderr}`);
  return r.stdout;
}

/** Everything the model answered, as stored: the agent steps' messages, in order. */
export function storedAnswer(traj: Atif): string {
  return traj.steps
    .filter((s) => s.source === "agent")
    .map((s) => s.message)
    .join("");
}
