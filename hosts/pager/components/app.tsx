/**
 * The pager's root component: transcript (<Static> for finished items + a bounded live area), the
 * modal parts, the composer with its `/` popup, and the status bar. It renders from a PagerStore and
 * calls PagerActions; it knows nothing about the engine.
 */
import React, { useCallback, useEffect, useRef, useState, useSyncExternalStore } from "react";
import { Box, Static, Text, useInput, useStdout, type Key } from "ink";
import type { PagerStore } from "../store.js";
import * as C from "../composer-model.js";
import { tailRows, type MeterView } from "../format.js";
import { ItemView, ToolCallView } from "./items.js";
import { ComposerView } from "./composer.js";
import { StatusBar, statusRows as statusRowCount } from "./status-bar.js";
import { OutputViewer, Picker, QuestionPrompt, SlashPopup, type SlashEntry } from "./dialogs.js";
import { ThemeContext, makeTheme } from "./theme.js";

export interface PagerActions {
  /** a prompt, or a `/command args` line */
  submit(text: string): void;
  /** stop the running turn (esc esc) */
  abort(): void;
  exit(): void;
  slashCommands(): SlashEntry[];
  meter(): MeterView;
}

/** Two escapes within this many ms make an "esc esc". */
export const ESC_ESC_MS = 800;

function useTerminalSize(): { columns: number; rows: number } {
  const { stdout } = useStdout();
  const read = () => ({ columns: stdout.columns || 80, rows: stdout.rows || 24 });
  const [size, setSize] = useState(read);
  useEffect(() => {
    const on = () => setSize(read());
    stdout.on("resize", on);
    return () => {
      stdout.off("resize", on);
    };
  }, [stdout]);
  return size;
}

export function filterSlash(all: SlashEntry[], query: string): SlashEntry[] {
  const q = query.toLowerCase();
  const starts = all.filter((e) => e.name.toLowerCase().startsWith(q));
  const contains = all.filter((e) => !e.name.toLowerCase().startsWith(q) && e.name.toLowerCase().includes(q));
  return [...starts, ...contains];
}

export function PagerApp({ store, actions, color }: { store: PagerStore; actions: PagerActions; color: boolean }): React.ReactElement {
  useSyncExternalStore(store.subscribe, store.getVersion);
  const { columns, rows } = useTerminalSize();
  const [comp, setComp] = useState<C.ComposerState>(C.emptyComposer());
  const history = useRef<string[]>([]);
  const [popupIndex, setPopupIndex] = useState(0);
  const [popupDismissed, setPopupDismissed] = useState(false);
  const [hint, setHint] = useState<string | undefined>();
  const lastEsc = useRef(0);
  const theme = React.useMemo(() => makeTheme(color), [color]);

  const query = popupDismissed ? undefined : C.slashQuery(comp.value);
  const entries = query !== undefined ? filterSlash(actions.slashCommands(), query) : [];
  const popupOpen = query !== undefined;

  const submit = useCallback(
    (text: string) => {
      const trimmed = text.trim();
      if (!trimmed) return;
      const h = history.current;
      if (h[h.length - 1] !== text) h.push(text);
      setComp(C.emptyComposer(h.length));
      setPopupDismissed(false);
      setPopupIndex(0);
      setHint(undefined);
      actions.submit(trimmed);
    },
    [actions],
  );

  const onKey = (input: string, key: Key): void => {
    // 1. permission prompt
    const q = store.question;
    if (q) {
      const k = input.toLowerCase();
      if (k === "y" || k === "a" || k === "n" || key.escape) {
        store.question = undefined;
        q.resolve(k === "y" ? "once" : k === "a" ? "always" : "reject");
        store.changed();
      }
      return;
    }
    // 2. picker
    const p = store.picker;
    if (p) {
      if (key.upArrow) p.index = Math.max(0, p.index - 1);
      else if (key.downArrow) p.index = Math.min(p.items.length - 1, p.index + 1);
      else if (key.return || key.escape) {
        store.picker = undefined;
        p.resolve(key.return ? p.items[p.index]?.id : undefined);
      } else return;
      store.changed();
      return;
    }
    // 3. output viewer
    const v = store.viewer;
    if (v) {
      const page = Math.max(1, rows - 6);
      if (key.escape || (key.ctrl && input === "r")) store.viewer = undefined;
      else if (key.upArrow) v.scroll = Math.max(0, v.scroll - 1);
      else if (key.downArrow) v.scroll += 1;
      else if (key.pageUp) v.scroll = Math.max(0, v.scroll - page);
      else if (key.pageDown) v.scroll += page;
      else if (key.leftArrow) store.viewer = { tool: Math.max(0, v.tool - 1), scroll: 0 };
      else if (key.rightArrow) store.viewer = { tool: Math.min(store.tools.length - 1, v.tool + 1), scroll: 0 };
      else return;
      store.changed();
      return;
    }
    // 4. global keys
    if (key.ctrl && input === "c") {
      if (store.busy) actions.abort();
      else if (comp.value) setComp(C.emptyComposer(history.current.length));
      else actions.exit();
      return;
    }
    if (key.ctrl && input === "d" && !comp.value) return actions.exit();
    if (key.ctrl && input === "r") {
      if (store.tools.length) {
        store.viewer = { tool: store.tools.length - 1, scroll: 0 };
        store.changed();
      } else setHint("no tool output to expand yet");
      return;
    }
    if (key.escape) {
      const now = Date.now();
      const twice = now - lastEsc.current < ESC_ESC_MS;
      lastEsc.current = twice ? 0 : now;
      if (popupOpen) {
        setPopupDismissed(true);
        return;
      }
      if (store.busy) {
        if (twice) {
          setHint("stopping…");
          actions.abort();
        } else setHint("press esc again to stop");
      } else if (twice && comp.value) setComp(C.emptyComposer(history.current.length));
      return;
    }
    // 5. popup navigation
    if (popupOpen && entries.length) {
      if (key.upArrow) return setPopupIndex((i) => Math.max(0, i - 1));
      if (key.downArrow) return setPopupIndex((i) => Math.min(entries.length - 1, i + 1));
      if (key.tab) {
        const e = entries[Math.min(popupIndex, entries.length - 1)]!;
        setComp((s) => ({ ...s, value: `/${e.name} `, cursor: e.name.length + 2 }));
        return;
      }
      if (key.return && !key.shift && !key.meta) {
        const e = entries[Math.min(popupIndex, entries.length - 1)]!;
        submit(`/${e.name}`);
        return;
      }
    }
    // 6. composer editing
    if (key.return) {
      if (key.shift || key.meta) return setComp((s) => C.insert(s, "\n"));
      if (C.enterMeansNewline(comp)) return setComp((s) => C.backslashNewline(s));
      if (store.busy && !comp.value.trim().startsWith("/")) {
        setHint("a turn is running: esc esc to stop it first");
        return;
      }
      submit(comp.value);
      return;
    }
    if (key.upArrow) return setComp((s) => C.vertical(s, -1) ?? C.browse(s, history.current, -1));
    if (key.downArrow) return setComp((s) => C.vertical(s, 1) ?? C.browse(s, history.current, 1));
    if (key.leftArrow) return setComp((s) => C.move(s, -1));
    if (key.rightArrow) return setComp((s) => C.move(s, 1));
    if (key.home || (key.ctrl && input === "a")) return setComp((s) => C.home(s));
    if (key.end || (key.ctrl && input === "e")) return setComp((s) => C.end(s));
    if (key.backspace || key.delete) {
      setPopupDismissed(false);
      return setComp((s) => C.backspace(s));
    }
    if (key.ctrl && input === "u") return setComp(C.emptyComposer(history.current.length));
    if (key.ctrl || key.tab || !input) return;
    setPopupDismissed(false);
    setPopupIndex(0);
    setHint(undefined);
    setComp((s) => C.insert(s, input));
  };
  useInput(onKey);

  // ---- layout: keep the live area below the terminal's height (ink repaints everything past it)
  const width = Math.max(20, columns);
  const meter = actions.meter();
  const statusRows = 1 + statusRowCount(meter, width);
  const composerRows = Math.min(6, Math.max(1, comp.value.split("\n").length)) + 2;
  const popupRows = popupOpen ? Math.min(8, Math.max(1, entries.length)) : 0;
  const liveBudget = Math.max(2, rows - statusRows - composerRows - popupRows - 2);

  let middle: React.ReactElement | null = null;
  if (store.viewer && store.tools[store.viewer.tool]) {
    middle = <OutputViewer tool={store.tools[store.viewer.tool]!} index={store.viewer.tool} count={store.tools.length} scroll={store.viewer.scroll} width={width} rows={rows - statusRows - 1} />;
  } else if (store.liveTools.length || store.liveText) {
    const toolRows = Math.min(store.liveTools.length, Math.floor(liveBudget / 2));
    const tools = store.liveTools.slice(store.liveTools.length - toolRows);
    const textRows = Math.max(1, liveBudget - toolRows * 2);
    middle = (
      <Box flexDirection="column">
        {store.liveText ? <Text>{tailRows(store.liveText, textRows, width - 1).join("\n")}</Text> : null}
        {tools.map((t) => (
          <ToolCallView key={t.id} item={t} width={width} />
        ))}
      </Box>
    );
  }

  let bottom: React.ReactElement;
  if (store.question) bottom = <QuestionPrompt q={store.question.question} width={width} maxRows={rows - statusRows - 2} />;
  else if (store.picker) bottom = <Picker p={store.picker} maxRows={rows - statusRows - 2} />;
  else
    bottom = (
      <Box flexDirection="column">
        <ComposerView s={comp} maxRows={6} active={!store.viewer} />
        {popupOpen ? <SlashPopup entries={entries} index={Math.min(popupIndex, Math.max(0, entries.length - 1))} maxRows={8} width={width} /> : null}
      </Box>
    );

  return (
    <ThemeContext.Provider value={theme}>
      <Box flexDirection="column" width={width}>
        <Static items={store.done.view()}>{(item) => <ItemView key={item.id} item={item} width={width} />}</Static>
        {middle}
        {bottom}
        <StatusBar meter={meter} width={width} busy={store.busy} hint={hint} />
      </Box>
    </ThemeContext.Provider>
  );
}
