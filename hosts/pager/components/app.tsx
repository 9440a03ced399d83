/**
 * The pager's root component: transcript (<Static> for finished items + a bounded live area), the
 * modal parts, the composer with its `/` popup, and the status bar. It renders from a PagerStore and
 * calls PagerActions; it knows nothing about the engine.
 */
import React, { useEffect, useMemo, useReducer, useRef, useState, useSyncExternalStore } from "react";
import { Box, Static, Text, useInput, useStdout } from "ink";
import type { PagerStore } from "../store.js";
import { LiveAnswerView } from "../render/views.js";
import type { PasteQueue } from "../tty-input.js";
import { ItemView, ToolCallView } from "./items.js";
import { ComposerView } from "./composer.js";
import { StatusBar, statusRows as statusRowCount } from "./status-bar.js";
import { OutputViewer, Picker, QuestionPrompt, SlashPopup } from "./dialogs.js";
import { ThemeContext, makeTheme } from "./theme.js";
import { CapabilitiesPicker } from "./capabilities.js";
import { TodosPane, todosPaneRows } from "./todos-pane.js";
import { initialUi, onKey, popupEntries, TURN_HINTS, type KeyEnv, type PagerActions, type UiState } from "./keys.js";
import { mentionView } from "./mention-keys.js";
import { MENTION_ROWS, MentionPopup, QueuedView, queueRows } from "./input-views.js";

export { ESC_ESC_MS, filterSlash, type PagerActions } from "./keys.js";

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

export function PagerApp({ store, actions, color, links = false, pastes }: { store: PagerStore; actions: PagerActions; color: boolean; links?: boolean; pastes?: PasteQueue }): React.ReactElement {
  useSyncExternalStore(store.subscribe, store.getVersion);
  const { columns, rows } = useTerminalSize();
  const ui = useRef<UiState>(initialUi()).current;
  const history = useRef<string[]>([]).current;
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const theme = useMemo(() => makeTheme(color, links), [color, links]);
  const env: KeyEnv = { store, actions, ui, history, rows, pastes, changed: rerender };
  useInput((input, key) => onKey(env, input, key));
  useEffect(() => {
    actions.onModeHint?.((text) => {
      ui.hint = text;
      rerender();
    });
  }, [actions]);

  const comp = ui.comp;
  const entries = popupEntries(ui, () => actions.slashCommands());
  const popupOpen = entries !== undefined;
  if (!store.busy && TURN_HINTS.has(ui.hint)) ui.hint = undefined; // "stopping…" ends with the turn
  const hint = ui.hint;

  // ---- layout: keep the live area below the terminal's height (ink repaints everything past it)
  const width = Math.max(20, columns);
  const meter = actions.meter();
  const statusRows = 1 + statusRowCount(meter, width);
  const composerRows = Math.min(6, Math.max(1, comp.value.split("\n").length)) + 2;
  const mention = popupOpen ? undefined : mentionView(ui, actions);
  const queued = actions.queued?.() ?? [];
  const popupRows = (entries ? Math.min(8, Math.max(1, entries.length)) : 0) + (mention ? Math.min(MENTION_ROWS, Math.max(1, mention.hits.length)) : 0) + queueRows(queued);
  // the todos pane (ctrl+t) takes at most a third of the terminal
  const paneMax = Math.max(5, Math.floor(rows / 3));
  const paneRows = store.todosOpen ? todosPaneRows(store.todos, paneMax) : 0;
  const liveBudget = Math.max(2, rows - statusRows - composerRows - popupRows - paneRows - 2);

  let middle: React.ReactElement | null = null;
  if (store.viewer && store.tools[store.viewer.tool]) {
    middle = <OutputViewer tool={store.tools[store.viewer.tool]!} index={store.viewer.tool} count={store.tools.length} scroll={store.viewer.scroll} width={width} rows={rows - statusRows - 1} />;
  } else if (store.liveTools.length || store.liveText) {
    const toolRows = Math.min(store.liveTools.length, Math.floor(liveBudget / 2));
    const tools = store.liveTools.slice(store.liveTools.length - toolRows);
    const textRows = Math.max(1, liveBudget - toolRows * 2);
    middle = (
      <Box flexDirection="column">
        {store.liveText ? <LiveAnswerView md={store.liveMd} rows={textRows} width={width} paint={theme.paint} /> : null}
        {tools.map((t) => (
          <ToolCallView key={t.id} item={t} width={width} cwd={store.cwd} />
        ))}
      </Box>
    );
  }

  let bottom: React.ReactElement;
  if (store.question) bottom = <QuestionPrompt q={store.question.question} width={width} maxRows={rows - statusRows - 2} {...(store.question.form ? { form: store.question.form } : {})} />;
  else if (store.capabilities) bottom = <CapabilitiesPicker s={store.capabilities} width={width} maxRows={rows - statusRows - 2} />;
  else if (store.picker) bottom = <Picker p={store.picker} maxRows={rows - statusRows - 2} />;
  else
    bottom = (
      <Box flexDirection="column">
        <ComposerView s={comp} maxRows={6} active={!store.viewer} />
        {popupOpen ? <SlashPopup entries={entries} index={Math.min(ui.popupIndex, Math.max(0, entries.length - 1))} maxRows={8} width={width} /> : null}
        {mention ? <MentionPopup v={mention} width={width} /> : null}
        <QueuedView queued={queued} width={width} />
      </Box>
    );

  return (
    <ThemeContext.Provider value={theme}>
      <Box flexDirection="column" width={width}>
        <Static key={store.epoch} items={store.done.view()}>{(item) => <ItemView key={item.id} item={item} width={width} cwd={store.cwd} />}</Static>
        {middle}
        {store.todosOpen ? <TodosPane list={store.todos} width={width} maxRows={paneMax} available={store.todosAvailable} /> : null}
        {bottom}
        <StatusBar meter={meter} width={width} busy={store.busy} hint={hint} extras={actions.statusExtras?.()} progress={actions.progressText ? () => actions.progressText!() : undefined} />
      </Box>
    </ThemeContext.Provider>
  );
}
