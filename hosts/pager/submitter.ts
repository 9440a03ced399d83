/**
 * What happens to a line the user sends. Built-in `/commands` run at once (busy or not); an unknown
 * `/word` is refused here with a did-you-mean (nothing is sent, nothing is spent); while a turn runs
 * anything else waits in the type-ahead queue and is sent, in order, when it ends. `!cmd` runs bash
 * through the engine's runTool (the bash tool's permissions and sandbox; no model call), its output kept
 * as context for the next message; `#note` goes to a memory file picked with one key; a message's
 * `@path` mentions are attached when it is sent.
 */
import type { Session, ToolResult, UserToolCall } from "../../extensions/engine/api.js";
import type { PagerStore } from "./store.js";
import { classify, resolvedElsewhere, unknownSlashText } from "./user-input.js";
import { attachMentions } from "./mentions.js";
import { appendMemory, memoryTargets } from "./memory-note.js";

export interface Extra {
  context: string[];
  images: Array<{ mediaType: string; data: string }>;
}

export interface SubmitHost {
  store: PagerStore;
  cwd: string;
  session(): Session;
  /** the engine's runTool (undefined for an attached pager: its engine is a server's) */
  runTool?: (session: Session, call: UserToolCall, opts: { signal?: AbortSignal }) => Promise<ToolResult>;
  /** send a message: `shown` is its transcript echo; `prepare` reads what is attached, after the echo */
  prompt(text: string, opts: { shown?: string; prepare?: (signal: AbortSignal) => Promise<Extra> }): Promise<void>;
  /** run `text` if it is a built-in slash command; false when it is not one */
  builtin(text: string): Promise<boolean>;
  /** every `/name` the pager knows (commands, skills, MCP prompts) */
  names(): string[];
  /** a one-key choice; undefined when cancelled */
  pick(title: string, items: Array<{ id: string; label: string }>): Promise<string | undefined>;
  /** what esc / ctrl+c aborts while a `!cmd` runs */
  running(ac: AbortController | undefined): void;
}

export interface Queued {
  text: string;
  shown?: string;
}

export class Submitter {
  /** the type-ahead queue: sent in order when the running turn ends */
  readonly queued: Queued[] = [];
  private active = false;
  /** `!cmd` outputs waiting to go with the next message */
  private readonly pending: string[] = [];

  constructor(private readonly host: SubmitHost) {}

  get busy(): boolean {
    return this.active || this.host.store.busy;
  }

  async submit(text: string, shown?: string): Promise<void> {
    const c = classify(text);
    if (c.kind === "slash") {
      if (await this.host.builtin(text)) return;
      if (!resolvedElsewhere(c.name) && !this.host.names().includes(c.name)) {
        this.host.store.post({ kind: "notice", level: "warn", text: unknownSlashText(c.name, this.host.names()) });
        return;
      }
    }
    if (this.busy) {
      this.queued.push({ text, ...(shown !== undefined ? { shown } : {}) });
      this.host.store.changed();
      return;
    }
    await this.run({ text, ...(shown !== undefined ? { shown } : {}) });
    while (!this.busy && this.queued.length) {
      const next = this.queued.shift()!;
      this.host.store.changed();
      await this.run(next);
    }
  }

  /** Take queued lines back out (the last one, or all of them) for the composer. */
  unqueue(all: boolean): string[] {
    const taken = all ? this.queued.splice(0) : this.queued.splice(-1);
    if (taken.length) this.host.store.changed();
    return taken.map((q) => q.shown ?? q.text);
  }

  private async run(q: Queued): Promise<void> {
    this.active = true;
    try {
      const c = classify(q.text);
      if (c.kind === "bang") await this.bang(c.command);
      else if (c.kind === "memory") await this.memory(c.text);
      else await this.host.prompt(q.text, { ...(q.shown !== undefined ? { shown: q.shown } : {}), prepare: (signal) => this.attachments(q.text, signal) });
    } finally {
      this.active = false;
    }
  }

  private async attachments(text: string, signal: AbortSignal): Promise<Extra> {
    const context = this.pending.splice(0);
    const run = this.host.runTool;
    if (!run || !/(^|\s)@\S/.test(text)) return { context, images: [] };
    const a = await attachMentions(text, this.host.cwd, (call) => run(this.host.session(), call, { signal }));
    for (const p of a.problems) this.host.store.post({ kind: "notice", level: "warn", text: p });
    return { context: [...context, ...a.context], images: a.images };
  }

  private async bang(command: string): Promise<void> {
    const s = this.host.store;
    s.post({ kind: "user", text: `!${command}` });
    const run = this.host.runTool;
    if (!run) {
      s.post({ kind: "notice", level: "warn", text: "!cmd runs in this process's engine; an attached pager cannot run it" });
      return;
    }
    const ac = new AbortController();
    this.host.running(ac);
    s.busy = true;
    s.changed();
    try {
      const r = await run(this.host.session(), { name: "bash", input: { command } }, { signal: ac.signal });
      const how = r.isError ? "it failed or was refused" : "its output";
      this.pending.push(`The user ran a shell command of their own in the pager (not a request to you): \`${command}\`; ${how}:\n${r.content}`);
      s.post({ kind: "notice", level: "info", text: "the command's output goes with your next message (no model call was made)" });
    } catch (e) {
      s.post({ kind: "notice", level: "error", text: `!${command}: ${e instanceof Error ? e.message : String(e)}` });
    } finally {
      this.host.running(undefined);
      s.busy = false;
      s.changed();
    }
  }

  private async memory(note: string): Promise<void> {
    const s = this.host.store;
    const targets = memoryTargets(this.host.cwd);
    const key = await this.host.pick(
      "Save the note to which memory file? (press 1-3; esc cancels)",
      targets.map((t) => ({ id: t.key, label: `${t.key}  ${t.label}` })),
    );
    const target = targets.find((t) => t.key === key);
    if (!target) {
      s.post({ kind: "notice", level: "info", text: "memory note not saved" });
      return;
    }
    let refused: string | undefined;
    try {
      refused = appendMemory(target.file, note);
    } catch (e) {
      refused = `${target.file}: ${e instanceof Error ? e.message : String(e)}`;
    }
    if (refused) s.post({ kind: "notice", level: "error", text: `memory note not saved: ${refused}` });
    else s.post({ kind: "reply", text: `noted in ${target.file} (read from your next message on)` });
  }
}
