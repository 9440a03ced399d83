/**
 * The `@` file picker's keys: while the word at the cursor is `@query`, ↑↓ move, tab (or enter, unless
 * the query already names the top match) completes it, esc closes the picker for that word.
 */
import type { Key } from "ink";
import type { ComposerState } from "../composer-model.js";
import type { FileHit } from "../file-index.js";
import { completeMention, mentionAt } from "../mentions.js";
import { visibleLine } from "../../terminal/sanitize.js";

export interface MentionActions {
  /** the project's files matching `query` (loading: the index is still being read) */
  files?(query: string): { hits: FileHit[]; loading: boolean };
}

export interface MentionUi {
  comp: ComposerState;
  mentionIndex?: number;
  /** where the @ of a word whose picker was closed with esc sits */
  mentionDismissed?: number;
}

export interface MentionView {
  query: string;
  hits: FileHit[];
  loading: boolean;
  index: number;
}

/** The picker's state for the composer as it is; undefined when closed. */
export function mentionView(ui: MentionUi, actions: MentionActions): MentionView | undefined {
  if (!actions.files) return undefined;
  const at = mentionAt(ui.comp.value, ui.comp.cursor);
  if (!at || at.start === ui.mentionDismissed) return undefined;
  const { hits, loading } = actions.files(at.query);
  // paths are file names from disk: shown on one row, made safe
  const safe = hits.map((h) => ({ ...h, path: visibleLine(h.path) }));
  return { query: at.query, hits: safe, loading, index: Math.min(ui.mentionIndex ?? 0, Math.max(0, hits.length - 1)) };
}

/** Handle a key for the open picker; true when it took the key. */
export function mentionKey(ui: MentionUi, actions: MentionActions, key: Key, changed: () => void): boolean {
  const v = mentionView(ui, actions);
  if (!v) return false;
  if (key.escape) {
    ui.mentionDismissed = mentionAt(ui.comp.value, ui.comp.cursor)?.start;
    changed();
    return true;
  }
  if (!v.hits.length) return false;
  if (key.upArrow || key.downArrow) {
    ui.mentionIndex = Math.max(0, Math.min(v.hits.length - 1, v.index + (key.upArrow ? -1 : 1)));
    changed();
    return true;
  }
  const pick = v.hits[v.index]!;
  if (key.tab || (key.return && !key.shift && !key.meta && pick.path !== v.query)) {
    const next = completeMention(ui.comp.value, ui.comp.cursor, pick.path);
    if (next) ui.comp = { ...ui.comp, ...next };
    ui.mentionIndex = 0;
    changed();
    return true;
  }
  return false;
}
