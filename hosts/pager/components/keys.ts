/**
 * The pager's key handler. It reads and writes a mutable UI state (not React state): ink may deliver
 * several input events before React re-renders (a chunk holding text and Enter, a paste's markers and
 * body), and each must see what the previous one did.
 */
import type { Key } from "ink";
import type { PagerStore } from "../store.js";
import type { MeterView } from "../format.js";
import * as C from "../composer-model.js";
import { knownCommand, splitTyped } from "../input.js";
import type { PasteQueue } from "../tty-input.js";
import type { SlashEntry } from "./dialogs.js";
import { capabilitiesKey, type CapabilitiesActions } from "./capabilities-keys.js";
import { mentionKey, type MentionActions } from "./mention-keys.js";
import { isLargePaste, PasteChips } from "../paste-chips.js";
import { visible } from "../../terminal/sanitize.js";

/** Two escapes within this many ms make an "esc esc". */
export const ESC_ESC_MS = 800;

export interface PagerActions extends CapabilitiesActions, MentionActions {
  /** a prompt, or a `/command args` line; `shown` is what the transcript echoes (paste chips kept) */
  submit(text: string, shown?: string): void;
  /** the type-ahead queue, oldest first */
  queued?(): string[];
  /** take the last queued line (or all of them) back out, for the composer */
  unqueue?(all: boolean): string[];
  /** stop the running turn (esc esc) */
  abort(): void;
  exit(): void;
  slashCommands(): SlashEntry[];
  meter(): MeterView;
  /** short status bar extras (the mode, `todos 2/5`) */
  statusExtras?(): string[];
  /** shift+tab: the next mode (default → auto → plan …) */
  cycleMode?(): void;
  /** ctrl+o: always-approve on/off */
  toggleAlwaysApprove?(): void;
  /** the running turn's status line (elapsed, tokens, tool) */
  progressText?(): string;
  /** where mode changes say what they did (a hint on the status line) */
  onModeHint?(fn: (text: string) => void): void;
}

/** Hints about the running turn; they go when the turn ends. */
export const STOPPING = "stopping…";
export const PRESS_AGAIN = "press esc again to stop";
export const TURN_HINTS: ReadonlySet<string | undefined> = new Set([STOPPING, PRESS_AGAIN]);

export interface UiState {
  comp: C.ComposerState;
  popupIndex: number;
  popupDismissed: boolean;
  hint?: string;
  lastEsc: number;
  /** the `@` picker's highlight, and the word whose picker esc closed */
  mentionIndex?: number;
  mentionDismissed?: number;
  /** large pastes shown as chips in the composer */
  chips: PasteChips;
}

export const initialUi = (): UiState => ({ comp: C.emptyComposer(), popupIndex: 0, popupDismissed: false, lastEsc: 0, chips: new PasteChips() });

export interface KeyEnv {
  store: PagerStore;
  actions: PagerActions;
  ui: UiState;
  history: string[];
  /** terminal rows (the output viewer pages by them) */
  rows: number;
  /** bracketed pastes taken out of the input (tty-input.ts); each arrives here as the key "[200~" */
  pastes?: PasteQueue;
  /** re-render after `ui` changed */
  changed(): void;
}

export function filterSlash(all: SlashEntry[], query: string): SlashEntry[] {
  const q = query.toLowerCase();
  const starts = all.filter((e) => e.name.toLowerCase().startsWith(q));
  const contains = all.filter((e) => !e.name.toLowerCase().startsWith(q) && e.name.toLowerCase().includes(q));
  return [...starts, ...contains];
}

/** The popup's entries for the current state; undefined when it is closed. */
export function popupEntries(ui: UiState, all: () => SlashEntry[]): SlashEntry[] | undefined {
  const query = ui.popupDismissed ? undefined : C.slashQuery(ui.comp.value);
  return query === undefined ? undefined : filterSlash(all(), query);
}

function setComp(env: KeyEnv, comp: C.ComposerState): void {
  env.ui.comp = comp;
  env.changed();
}

function typed(env: KeyEnv, text: string): void {
  const ui = env.ui;
  ui.popupDismissed = false;
  ui.popupIndex = 0;
  ui.hint = undefined;
  ui.mentionIndex = 0;
  setComp(env, C.insert(ui.comp, text));
}

/** A bracketed paste: a large one goes in as a chip (sent whole), a small one as typed text. */
function pasted(env: KeyEnv, raw: string): void {
  const text = visible(raw.replace(/\r\n?/g, "\n"));
  if (!isLargePaste(text)) return typed(env, text);
  typed(env, env.ui.chips.add(text));
}

function submit(env: KeyEnv, text: string): void {
  const trimmed = text.trim();
  if (!trimmed) return;
  const h = env.history;
  if (h[h.length - 1] !== text) h.push(text);
  Object.assign(env.ui, { comp: C.emptyComposer(h.length), popupDismissed: false, popupIndex: 0, hint: undefined, mentionIndex: 0, mentionDismissed: undefined });
  env.changed();
  const whole = env.ui.chips.expand(trimmed);
  if (whole === trimmed) env.actions.submit(trimmed);
  else env.actions.submit(whole, trimmed);
}

/** Enter: a typed `/<known command>` runs; else the popup's pick (a built-in runs, a skill fills the composer); else send. */
function enter(env: KeyEnv, mods: { shift: boolean; meta: boolean }): void {
  const ui = env.ui;
  if (mods.shift || mods.meta) return setComp(env, C.insert(ui.comp, "\n"));
  const all = env.actions.slashCommands();
  const known = knownCommand(ui.comp.value, all.map((e) => e.name));
  if (known) return submit(env, `/${known}`);
  const entries = popupEntries(ui, () => all);
  if (entries?.length) {
    const e = entries[Math.min(ui.popupIndex, entries.length - 1)]!;
    // a skill takes arguments: picking it fills the composer; a built-in runs at once
    if (e.skill) return setComp(env, { ...ui.comp, value: `/${e.name} `, cursor: e.name.length + 2 });
    return submit(env, `/${e.name}`);
  }
  if (C.enterMeansNewline(ui.comp)) return setComp(env, C.backslashNewline(ui.comp));
  // while a turn runs the line is queued (type-ahead) and sent when it ends
  submit(env, ui.comp.value);
}

/** A form question: ↑↓ or tab pick a field, typing edits it, enter sends the values, esc declines. */
function formKey(store: KeyEnv["store"], q: NonNullable<KeyEnv["store"]["question"]>, form: { index: number; values: string[] }, input: string, key: Key): void {
  const fields = q.question.fields ?? [];
  if (key.escape) {
    store.question = undefined;
    q.resolve("reject");
  } else if (key.return) {
    store.question = undefined;
    q.resolve({ answer: "once", values: Object.fromEntries(fields.map((f, i) => [f.name, form.values[i] ?? ""])) });
  } else if (key.upArrow || (key.tab && key.shift)) form.index = (form.index + fields.length - 1) % fields.length;
  else if (key.downArrow || key.tab) form.index = (form.index + 1) % fields.length;
  else if (key.backspace || key.delete) form.values[form.index] = [...(form.values[form.index] ?? "")].slice(0, -1).join("");
  else if (input && !key.ctrl && !key.meta) {
    // keys typed fast can arrive as one chunk: a DEL or BS inside it erases, other control characters go
    let v = [...(form.values[form.index] ?? "")];
    for (const ch of input) {
      if (ch === "\u007f" || ch === "\b") v = v.slice(0, -1);
      else if (!/[\u0000-\u001f\u0080-\u009f]/.test(ch)) v.push(ch);
    }
    form.values[form.index] = v.join("");
  }
  else return;
  store.changed();
}

/** Modal parts first (permission prompt, capabilities picker, picker, output viewer); true when one took the key. */
function modalKey(env: KeyEnv, input: string, key: Key): boolean {
  const store = env.store;
  const q = store.question;
  if (q?.form) {
    formKey(store, q, q.form, input, key);
    return true;
  }
  if (q) {
    const k = input.toLowerCase();
    if (k === "y" || k === "a" || k === "n" || key.escape) {
      store.question = undefined;
      q.resolve(k === "y" ? "once" : k === "a" ? "always" : "reject");
      store.changed();
    }
    return true;
  }
  if (capabilitiesKey(store, env.actions, input, key)) return true;
  const p = store.picker;
  if (p) {
    if (key.upArrow) p.index = Math.max(0, p.index - 1);
    else if (key.downArrow) p.index = Math.min(p.items.length - 1, p.index + 1);
    else if (p.oneKey && p.items.some((i) => i.id === input)) {
      store.picker = undefined;
      p.resolve(input);
    } else if (key.return || key.escape) {
      store.picker = undefined;
      p.resolve(key.return ? p.items[p.index]?.id : undefined);
    } else return true;
    store.changed();
    return true;
  }
  const v = store.viewer;
  if (v) {
    const page = Math.max(1, env.rows - 6);
    if (key.escape || (key.ctrl && input === "r")) store.viewer = undefined;
    else if (key.upArrow) v.scroll = Math.max(0, v.scroll - 1);
    else if (key.downArrow) v.scroll += 1;
    else if (key.pageUp) v.scroll = Math.max(0, v.scroll - page);
    else if (key.pageDown) v.scroll += page;
    else if (key.leftArrow) store.viewer = { tool: Math.max(0, v.tool - 1), scroll: 0 };
    else if (key.rightArrow) store.viewer = { tool: Math.min(store.tools.length - 1, v.tool + 1), scroll: 0 };
    else return true;
    store.changed();
    return true;
  }
  return false;
}

export function onKey(env: KeyEnv, input: string, key: Key): void {
  const { store, actions, ui } = env;
  // 0. a bracketed paste goes into the composer (never into a prompt, picker or viewer), and is not sent
  if (input === "[200~" && env.pastes?.waiting) {
    const text = env.pastes.take() ?? "";
    if (!store.question && !store.picker && !store.viewer && !store.capabilities) pasted(env, text);
    return;
  }
  // 1-3. permission prompt, picker, output viewer
  if (modalKey(env, input, key)) return;
  // 4. global keys
  const comp = ui.comp;
  const clear = () => setComp(env, C.emptyComposer(env.history.length));
  if (key.ctrl && input === "c") {
    if (store.busy) actions.abort();
    else if (comp.value) clear();
    else actions.exit();
    return;
  }
  if (key.ctrl && input === "d" && !comp.value) return actions.exit();
  // modes: shift+tab (ESC [ Z) cycles, ctrl+o toggles always-approve (a prompt or picker took the key above)
  if (key.tab && key.shift) return actions.cycleMode?.();
  if (key.ctrl && input === "o") return actions.toggleAlwaysApprove?.();
  // `?` on an empty composer lists the keys and commands (the header says so)
  if (input === "?" && !comp.value && !store.busy && !key.ctrl && !key.meta) return actions.submit("/help");
  if (key.ctrl && input === "t") {
    store.todosOpen = !store.todosOpen;
    store.changed();
    return;
  }
  if (key.ctrl && input === "r") {
    if (store.tools.length) {
      store.viewer = { tool: store.tools.length - 1, scroll: 0 };
      store.changed();
    } else {
      ui.hint = "no tool output to expand yet";
      env.changed();
    }
    return;
  }
  // the @ file picker takes its keys first (esc closes it, tab completes)
  if (mentionKey(ui, actions, key, env.changed)) return;
  const entries = popupEntries(ui, () => actions.slashCommands());
  if (key.escape) {
    const now = Date.now();
    const twice = now - ui.lastEsc < ESC_ESC_MS;
    ui.lastEsc = twice ? 0 : now;
    if (entries) ui.popupDismissed = true;
    else if (store.busy) {
      // one esc stops the turn (a second is harmless); queued lines come back to the composer unsent
      if (ui.hint !== STOPPING) actions.abort();
      ui.hint = STOPPING;
      ui.lastEsc = 0; // so the habit's second esc does not clear what comes back to the composer
      pullBack(env, true);
    } else if (twice && comp.value) return clear();
    return env.changed();
  }
  // 5. popup navigation (Enter is handled with the composer's, below)
  if (entries?.length) {
    const last = entries.length - 1;
    if (key.upArrow || key.downArrow) {
      ui.popupIndex = Math.max(0, Math.min(last, Math.min(ui.popupIndex, last) + (key.upArrow ? -1 : 1)));
      return env.changed();
    }
    if (key.tab) {
      const e = entries[Math.min(ui.popupIndex, last)]!;
      return setComp(env, { ...comp, value: `/${e.name} `, cursor: e.name.length + 2 });
    }
  }
  // 6. composer editing
  if (key.return) return enter(env, { shift: key.shift, meta: key.meta });
  if (key.upArrow && !comp.value && actions.queued?.().length) return pullBack(env, false);
  if (key.upArrow) return setComp(env, C.vertical(comp, -1) ?? C.browse(comp, env.history, -1));
  if (key.downArrow) return setComp(env, C.vertical(comp, 1) ?? C.browse(comp, env.history, 1));
  if (key.leftArrow) return setComp(env, C.move(comp, -1));
  if (key.rightArrow) return setComp(env, C.move(comp, 1));
  if (key.home || (key.ctrl && input === "a")) return setComp(env, C.home(comp));
  if (key.end || (key.ctrl && input === "e")) return setComp(env, C.end(comp));
  if (key.backspace || key.delete) {
    ui.popupDismissed = false;
    return setComp(env, C.backspace(comp));
  }
  if (key.ctrl && input === "u") return clear();
  if (key.ctrl || key.tab || !input) return;
  // typed text, maybe with Enter in the same chunk
  for (const part of splitTyped(input)) {
    if (part.kind === "text") typed(env, part.text);
    else if (part.kind === "newline") typed(env, "\n");
    else enter(env, { shift: false, meta: false });
  }
}

/** Queued lines back into the composer (the last one, or all), before what is typed there. */
function pullBack(env: KeyEnv, all: boolean): void {
  const back = env.actions.unqueue?.(all) ?? [];
  if (!back.length) return;
  const rest = env.ui.comp.value;
  const value = [...back, ...(rest ? [rest] : [])].join("\n");
  setComp(env, { ...env.ui.comp, value, cursor: value.length });
}
