/**
 * The rendered parts of transcript items (ink components over render/): an answer's markdown, a tool
 * call's one-liner head and its body (a diff, todo_write's checklist). The items component picks them.
 */
import React from "react";
import { Box, Text } from "ink";
import type { FileDiff } from "../../../extensions/engine/api.js";
import { visibleLine } from "../../terminal/sanitize.js";
import type { MarkdownStream } from "./stream.js";
import { renderMarkdown } from "./markdown.js";
import { collapsedDiff } from "./diff.js";
import { toolLine, todoRows } from "./tool-line.js";
import type { Paint } from "./style.js";
import type { ToolItem } from "../store.js";

export const EXPAND_HINT = "ctrl+r to expand";

/** A finished answer: the streamed renderer's rows when it has them, else rendered here (a reopened session). */
export function AnswerView({ text, md, width, paint }: { text: string; md?: MarkdownStream; width: number; paint: Paint }): React.ReactElement {
  const rows = md ? md.finish(width - 1, paint) : renderMarkdown(text, { width: width - 1, paint });
  return <Text>{trimBlank(rows).join("\n")}</Text>;
}

/** The live answer's last rows. */
export function LiveAnswerView({ md, rows, width, paint }: { md: MarkdownStream; rows: number; width: number; paint: Paint }): React.ReactElement {
  return <Text>{trimBlank(md.lastRows(rows, width - 1, paint)).join("\n") || " "}</Text>;
}

function trimBlank(rows: string[]): string[] {
  let a = 0;
  let b = rows.length;
  while (a < b && !rows[a]) a++;
  while (b > a && !rows[b - 1]) b--;
  return a === 0 && b === rows.length ? rows : rows.slice(a, b);
}

/** The one-row head: `$ npm test`, `Edit src/a.ts +3 −1` (display-safe, cut to the width). */
export function toolHeadText(item: ToolItem, cwd: string | undefined, width: number): string {
  const head = visibleLine(toolLine(item.call, { ...(cwd ? { cwd } : {}), ...(item.diff ? { diff: item.diff } : {}) }));
  return head.length > width - 2 ? `${head.slice(0, Math.max(1, width - 3))}…` : head;
}

/** A diff under a tool call or in a permission prompt: collapsed, with how to see the rest. */
export function DiffView({ diff, width, paint, indent = "    ", first, maxRows, expandHint = true }: { diff: FileDiff; width: number; paint: Paint; indent?: string; first?: string; maxRows?: number; expandHint?: boolean }): React.ReactElement {
  const { rows, hidden } = collapsedDiff(diff, width - indent.length - 1, paint);
  const shown = maxRows !== undefined && rows.length > maxRows ? rows.slice(0, Math.max(1, maxRows)) : rows;
  const more = hidden + rows.length - shown.length;
  return (
    <Box flexDirection="column">
      {shown.map((r, i) => (
        <Text key={i}>{`${i === 0 && first !== undefined ? first : indent}${r}`}</Text>
      ))}
      {more > 0 ? <Text dimColor>{`${indent}… +${more} lines${expandHint ? ` (${EXPAND_HINT})` : ""}`}</Text> : null}
    </Box>
  );
}

/** todo_write's list as a checklist (done rows struck through, the active one bold). */
export function TodoListView({ input, color }: { input: Record<string, unknown>; color: boolean }): React.ReactElement {
  const rows = todoRows(input);
  return (
    <Box flexDirection="column">
      {rows.map((r, i) => (
        <Text key={i} wrap="truncate-end" {...(r.status === "completed" || r.status === "cancelled" ? { strikethrough: true, dimColor: color } : {})} {...(r.status === "in_progress" ? { bold: true } : {})}>
          {`${i === 0 ? "  ⎿ " : "    "}${r.mark} ${visibleLine(r.text)}`}
        </Text>
      ))}
      {rows.length === 0 ? <Text dimColor>{"  ⎿ (empty list)"}</Text> : null}
    </Box>
  );
}
