/** The composer's view: `❯ ` then the (multi-line) value, the cursor shown inverse. */
import React from "react";
import { Box, Text } from "ink";
import type { ComposerState } from "../composer-model.js";
import { useTheme } from "./theme.js";

export const PLACEHOLDER = "Type a message · / for commands · \\+enter for a newline";

export function ComposerView({ s, maxRows, active }: { s: ComposerState; maxRows: number; active: boolean }): React.ReactElement {
  const t = useTheme();
  const lines = s.value.split("\n");
  // which line/column holds the cursor
  let row = 0;
  let col = s.cursor;
  for (const l of lines) {
    if (col <= l.length) break;
    col -= l.length + 1;
    row++;
  }
  const rows = Math.max(1, maxRows);
  const start = Math.max(0, Math.min(row - rows + 1, lines.length - rows));
  const shown = lines.slice(Math.max(0, start), Math.max(0, start) + rows);
  const first = Math.max(0, start);
  return (
    <Box flexDirection="column" borderStyle="single" borderLeft={false} borderRight={false} borderColor={t.c("gray")}>
      {s.value === "" ? (
        <Text>
          <Text bold color={t.c("cyan")}>{"❯ "}</Text>
          {active ? <Text inverse> </Text> : null}
          <Text color={t.c("gray")}>{PLACEHOLDER}</Text>
        </Text>
      ) : (
        shown.map((l, i) => {
          const r = first + i;
          const prefix = r === 0 ? "❯ " : "  ";
          if (r !== row || !active) {
            return (
              <Text key={r}>
                <Text bold color={t.c("cyan")}>{prefix}</Text>
                {l}
              </Text>
            );
          }
          return (
            <Text key={r}>
              <Text bold color={t.c("cyan")}>{prefix}</Text>
              {l.slice(0, col)}
              <Text inverse>{l[col] ?? " "}</Text>
              {l.slice(col + 1)}
            </Text>
          );
        })
      )}
    </Box>
  );
}
