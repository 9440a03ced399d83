/** The pager's own chrome in the transcript: the start header and laid-out tables (/help). */
import React from "react";
import { Box, Text } from "ink";
import type { HelpSection } from "../../../extensions/session-commands/api.js";
import { layoutTable } from "../help-layout.js";
import { useTheme } from "./theme.js";

/** The start header: a round box, its first line bold (the product and version), the rest dim. */
export function HeaderView({ text, width }: { text: string; width: number }): React.ReactElement {
  const t = useTheme();
  const [title, ...rest] = text.split("\n");
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={t.c("cyan")} paddingX={1} width={Math.min(width, Math.max(...text.split("\n").map((l) => l.length)) + 4)}>
      <Text bold wrap="truncate-end">{title}</Text>
      {rest.map((l, i) => (
        <Text key={i} color={t.c("gray")} wrap="truncate-end">
          {l}
        </Text>
      ))}
    </Box>
  );
}

export function TableView({ sections, width }: { sections: HelpSection[]; width: number }): React.ReactElement {
  const t = useTheme();
  const rows = layoutTable(sections, width);
  return (
    <Box flexDirection="column">
      {rows.map((r, i) =>
        r.kind === "title" ? (
          <Text key={i} bold color={t.c("magenta")}>{`${r.text}:`}</Text>
        ) : (
          <Text key={i} wrap="truncate-end">
            <Text color={t.c("cyan")}>{r.left}</Text>
            {r.right}
          </Text>
        ),
      )}
    </Box>
  );
}
