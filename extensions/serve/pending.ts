/**
 * serve-pending.json: the accepted prompts a stopping server could not finish (its drain deadline passed),
 * kept for the next start, which runs them before anything sent to it. One JSON document (written to a
 * temporary file and renamed, so a crash mid-write leaves the old one), under the data dir, so any server
 * on the same data dir picks them up. An entry is dropped once its turn ended; one whose session is held by
 * another process stays for a later start; one whose session is gone is dropped with a warning.
 */
import fs from "node:fs";
import path from "node:path";
import { PendingUnreadable } from "./errors.js";

export const PENDING_FILE = "serve-pending.json";

export interface PendingPrompt {
  sessionId: string;
  /** the text the client sent */
  text: string;
  /** the turn had started when the server stopped (it is continued with the takeover prompt) */
  interrupted: boolean;
  /** when the first server accepted it (ms since the epoch) */
  acceptedAt: number;
  /** its attachments as the engine takes them (files as context, images) */
  attach?: PromptAttach;
}

/** A prompt's attachments, as PromptOptions carries them. */
export interface PromptAttach {
  context: string[];
  images: Array<{ mediaType: string; data: string }>;
}

interface PendingDoc {
  version: 1;
  prompts: PendingPrompt[];
}

function isPrompt(x: unknown): x is PendingPrompt {
  const p = x as Partial<PendingPrompt> | null;
  return !!p && typeof p.sessionId === "string" && typeof p.text === "string" && typeof p.interrupted === "boolean" && typeof p.acceptedAt === "number" && (p.attach === undefined || (Array.isArray(p.attach.context) && Array.isArray(p.attach.images)));
}

export class PendingStore {
  readonly file: string;
  constructor(dataDir: string) {
    this.file = path.join(dataDir, PENDING_FILE);
  }

  /** The kept prompts, oldest first; a damaged file is moved aside (`.bad`) and read as empty, said through `warn`. */
  load(warn: (m: string) => void): PendingPrompt[] {
    let text: string;
    try {
      text = fs.readFileSync(this.file, "utf8");
    } catch {
      return [];
    }
    try {
      const doc = JSON.parse(text) as Partial<PendingDoc>;
      if (!Array.isArray(doc.prompts)) throw PendingUnreadable();
      return doc.prompts.filter(isPrompt);
    } catch (e) {
      const aside = `${this.file}.bad`;
      fs.renameSync(this.file, aside);
      warn(`serve: ${this.file} could not be read (${(e as Error).message}); moved to ${aside}, its prompts are not run`);
      return [];
    }
  }

  /** Replace the kept prompts (none: the file is removed). */
  save(prompts: PendingPrompt[]): void {
    if (prompts.length === 0) {
      fs.rmSync(this.file, { force: true });
      return;
    }
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    const doc: PendingDoc = { version: 1, prompts };
    try {
      fs.writeFileSync(tmp, `${JSON.stringify(doc, null, 1)}\n`, { mode: 0o600 });
      fs.renameSync(tmp, this.file);
    } catch (e) {
      fs.rmSync(tmp, { force: true }); // no zero-byte leftovers after a full disk
      throw e;
    }
  }
}
