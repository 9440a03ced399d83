/** The texts of the pager's start and end: the header and the exit hint (pure). */
import path from "node:path";
import { visibleLine } from "../terminal/sanitize.js";

/** The folder as a person reads it: under the home directory as ~/… */
export function shortFolder(folder: string, home?: string): string {
  if (home && (folder === home || folder.startsWith(home + path.sep))) return `~${folder.slice(home.length)}`;
  return folder;
}

/**
 * The start header: `oceancode 0.1.0 · anthropic/claude-sonnet-4-5`, the folder and what the repo's
 * trust means here, then what to type.
 */
export function headerText(o: { version?: string; model: string; folder: string; home?: string; trusted?: boolean; remote?: string }): string {
  const title = `oceancode${o.version ? ` ${o.version}` : ""} · ${visibleLine(o.model)}`;
  const trust =
    o.remote !== undefined
      ? `attached to ${visibleLine(o.remote)}`
      : o.trusted === undefined
        ? "trust unknown"
        : o.trusted
          ? "trusted: the repo's own settings apply"
          : "not trusted: the repo's settings only tighten (oceancode trust)";
  return [title, `${visibleLine(shortFolder(o.folder, o.home))} · ${trust}`, "? for keys · / for commands · shift+tab modes"].join("\n");
}

/** What /exit and ctrl+d leave on the terminal: the session's id and how to come back. */
export function exitHint(sessionId: string, stored: boolean): string | undefined {
  if (!stored) return undefined;
  const id = visibleLine(sessionId);
  return `session ${id}\ncontinue with: oceancode -c   or: oceancode --resume ${id}`;
}
