/** How one transcript item looks. Finished items render once (inside <Static>). Item text is display-safe (see store.ts). */
import React from "react";
import { Box, Text } from "ink";
import type { Item, ToolItem } from "../store.js";
import { collapse } from "../format.js";
import { useTheme } from "./theme.js";
import { AnswerView, DiffView, TodoListView, toolHeadText } from "../render/views.js";

export const EXPAND_KEY = "ctrl+r";

export function ToolCallView({ item, width, cwd }: { item: ToolItem; width: number; cwd?: string }): React.ReactElement {
  const t = useTheme();
  const shownHead = toolHeadText(item, cwd, width);
  let body: React.ReactElement | null = null;
  if (!item.done) body = <Text color={t.c("gray")}>  ⎿ running…</Text>;
  // rendered bodies (render/views.tsx): an edit's diff, todo_write's checklist
  else if (!item.isError && item.diff && item.diff.hunks.length) body = <DiffView diff={item.diff} width={width} paint={t.paint} first="  ⎿ " />;
  else if (!item.isError && item.call.name === "todo_write") body = <TodoListView input={item.call.input} color={t.color} />;
  else {
    const { shown, hidden } = collapse(item.output ?? "", 3);
    body = (
      <Box flexDirection="column">
        {shown.map((l, i) => (
          <Text key={i} color={item.isError ? t.c("red") : undefined} wrap="truncate-end">
            {i === 0 ? "  ⎿ " : "    "}
            {l}
          </Text>
        ))}
        {hidden > 0 ? <Text color={t.c("gray")}>{`    … +${hidden} lines (${EXPAND_KEY} to expand)`}</Text> : null}
      </Box>
    );
  }
  return (
    <Box flexDirection="column">
      <Text>
        <Text color={item.isError ? t.c("red") : t.c("green")}>● </Text>
        <Text bold>{shownHead}</Text>
      </Text>
      {body}
    </Box>
  );
}

export function ItemView({ item, width, cwd }: { item: Item; width: number; cwd?: string }): React.ReactElement {
  const t = useTheme();
  switch (item.kind) {
    case "user":
      return (
        <Box marginTop={1}>
          <Text bold color={t.c("cyan")}>{"> "}</Text>
          <Text bold>{item.text}</Text>
        </Box>
      );
    case "assistant":
      return <AnswerView text={item.text} {...(item.md ? { md: item.md } : {})} width={width} paint={t.paint} />;
    case "tool":
      return <ToolCallView item={item} width={width} {...(cwd ? { cwd } : {})} />;
    case "reply":
      return <Text color={t.c("magenta")}>{item.text}</Text>;
    case "notice": {
      const mark = item.level === "error" ? "✗ " : item.level === "warn" ? "! " : "· ";
      const col = item.level === "error" ? "red" : item.level === "warn" ? "yellow" : "gray";
      return (
        <Text color={t.c(col)}>
          {mark}
          {item.text}
        </Text>
      );
    }
  }
}
