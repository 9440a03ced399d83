/** Under the composer: the `@` file picker's matches, and the type-ahead queue. Presentational only. */
import React from "react";
import { Box, Text } from "ink";
import type { MentionView } from "./mention-keys.js";
import { useTheme } from "./theme.js";

export const MENTION_ROWS = 8;
export const QUEUE_ROWS = 3;

export function MentionPopup({ v, width }: { v: MentionView; width: number }): React.ReactElement {
  const t = useTheme();
  if (!v.hits.length) return <Text color={t.c("gray")}>{v.loading ? "@ reading the project's files…" : "@ no matching file"}</Text>;
  const start = Math.max(0, Math.min(v.index - MENTION_ROWS + 1, v.hits.length - MENTION_ROWS));
  return (
    <Box flexDirection="column">
      {v.hits.slice(start, start + MENTION_ROWS).map((h, i) => {
        const sel = start + i === v.index;
        return (
          <Text key={h.path} inverse={sel} color={h.dir ? t.c("cyan") : undefined} wrap="truncate-end">
            {`${sel ? "❯" : " "} @${h.path}`.slice(0, Math.max(10, width - 1))}
          </Text>
        );
      })}
    </Box>
  );
}

/** Rows the queue view takes. */
export function queueRows(queued: readonly string[]): number {
  return queued.length ? Math.min(QUEUE_ROWS, queued.length) + (queued.length > QUEUE_ROWS ? 1 : 0) + 1 : 0;
}

export function QueuedView({ queued, width }: { queued: readonly string[]; width: number }): React.ReactElement | null {
  const t = useTheme();
  if (!queued.length) return null;
  const shown = queued.slice(0, QUEUE_ROWS);
  return (
    <Box flexDirection="column">
      {shown.map((q, i) => (
        <Text key={i} color={t.c("gray")} wrap="truncate-end">
          {`  ⧗ queued: ${q.replace(/\s*\n\s*/g, " ⏎ ")}`.slice(0, Math.max(10, width - 1))}
        </Text>
      ))}
      {queued.length > QUEUE_ROWS ? <Text color={t.c("gray")}>{`  … +${queued.length - QUEUE_ROWS} more queued`}</Text> : null}
      <Text color={t.c("gray")}>{"  ↑ edits the last queued message · esc stops the turn and brings them back"}</Text>
    </Box>
  );
}
