/** The todos pane (ctrl+t): the session's step list, live. Renders a PaneList (display-safe already). */
import React from "react";
import { Box, Text } from "ink";
import { EMPTY_PANE, todosStatus, type PaneList } from "../todos-pane.js";
import { useTheme } from "./theme.js";

/** The rows the pane takes with `maxRows` to use: its border and title, its rows (or one line), a "more" line. */
export function todosPaneRows(list: PaneList | undefined, maxRows: number): number {
  const n = list?.rows.length ?? 0;
  const keep = Math.max(1, maxRows - 4);
  return 3 + (n === 0 ? 1 : Math.min(n, keep) + (n > keep ? 1 : 0));
}

export function TodosPane({ list, width, maxRows, available }: { list?: PaneList; width: number; maxRows: number; available: boolean }): React.ReactElement {
  const t = useTheme();
  const rows = list?.rows ?? [];
  const keep = Math.max(1, maxRows - 4);
  // keep the rows in progress in view: start the window at the first open row when the list is long
  const firstOpen = Math.max(0, rows.findIndex((r) => r.status === "pending" || r.status === "in_progress"));
  const start = rows.length > keep ? Math.min(firstOpen, rows.length - keep) : 0;
  const shown = rows.slice(start, start + keep);
  const title = `todos${todosStatus(list) ? ` ${todosStatus(list)!.slice(6)}` : ""}${list?.floor ? " (your prompt, until the model plans)" : ""}`;
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={t.c("cyan")} paddingX={1} width={width}>
      <Text bold wrap="truncate-end">{`${title} · ctrl+t hides`}</Text>
      {rows.length === 0 ? <Text color={t.c("gray")} wrap="truncate-end">{available ? EMPTY_PANE : "no plan yet: the todos extension is not enabled"}</Text> : null}
      {shown.map((r, i) => (
        <Text
          key={start + i}
          wrap="truncate-end"
          dimColor={r.dim || r.status === "completed"}
          strikethrough={r.status === "cancelled"}
          color={r.status === "in_progress" ? t.c("yellow") : r.status === "cancelled" ? t.c("gray") : undefined}
          bold={r.status === "in_progress"}
        >
          {`${r.glyph} ${r.text}${r.user ? " (you)" : ""}`}
        </Text>
      ))}
      {rows.length > shown.length ? <Text color={t.c("gray")}>{`… ${rows.length - shown.length} more`}</Text> : null}
    </Box>
  );
}
