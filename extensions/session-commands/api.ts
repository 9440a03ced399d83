/**
 * The published contract `oceancode/api/session-commands` (what other extensions and third parties may import).
 *
 * What a host offers the session slash commands (/help, /clear, /exit, /models, /resume).
 * The pager passes an object of this shape to kernel.runSlash(); other hosts (serve, ACP) may pass a
 * subset: a command whose action is missing replies that the host cannot do it.
 */
import type { SlashHost } from "../../kernel/api.js";

export interface PickItem {
  id: string;
  label: string;
}

/** A titled block of two-column rows (/help: "Slash commands", "Keys"). */
export interface HelpSection {
  title: string;
  rows: Array<[string, string]>;
}

/** The capabilities picker's tabs (`/skills`, `/plugins`, `/mcps`). */
export type CapabilityTab = "skills" | "plugins" | "mcp";

export interface PagerSlashHost extends SlashHost {
  /** "pager" for Ocean pager */
  readonly hostKind: string;
  readonly sessionId?: string;
  /** print a reply in the transcript */
  reply(text: string): void;
  /** the session's current model ("provider/model") */
  currentModel?(): string;
  /** use this model from the next message on */
  setModel?(id: string): void;
  /** start a fresh session (the old one is closed); resolves to the new id */
  newSession?(): Promise<string>;
  /** reopen a stored session */
  resume?(id: string): Promise<void>;
  /** leave the host */
  exit?(): void;
  /** show a picker; resolves to the chosen id, undefined when cancelled */
  pick?(title: string, items: PickItem[], selected?: string): Promise<string | undefined>;
  /** open the capabilities picker on this tab (turn skills and plugins on and off) */
  capabilities?(tab: CapabilityTab): void;
  /**
   * Send `text` to the session as a user prompt, as if typed (a command that starts work: `/plan <text>`,
   * a to-do added after the run finished). Resolves when the prompt's run ends; false when the host is
   * busy with another prompt and did not send it.
   */
  prompt?(text: string): Promise<boolean>;
  /** whether a prompt is running in this host's session now */
  busy?(): boolean;
  /**
   * Toggle a pager mode: "acceptEdits" (/auto) or "bypassPermissions" (/always-approve) on, or back to
   * default when it is on; a lock by managed requirements is respected. Resolves to what to tell the user.
   */
  setMode?(mode: "acceptEdits" | "bypassPermissions"): Promise<string>;
  /**
   * Show a two-column table laid out to the host's width (the right column wraps within itself), e.g.
   * /help's commands and keys. A host without it gets the same rows as padded text through reply().
   */
  table?(sections: HelpSection[]): void;
  /** the session's working directory (for /resume's list) */
  readonly cwd?: string;
}
