/**
 * The capabilities picker (`/skills`, `/plugins`, `/mcps`): a tab line, the rows of the active tab around the
 * cursor, an error line when the last toggle failed, and the live counts as the last row. Presentational
 * only: rows and their text come from capabilities-model.ts (display-safe there).
 */
import React from "react";
import { Box, Text } from "ink";
import type { CapabilitiesState } from "../store.js";
import { CAP_TABS, rowsFor, rowText } from "../capabilities-model.js";
import { windowAround } from "./dialogs.js";
import { useTheme } from "./theme.js";

const TAB_LABEL = { skills: "Skills", plugins: "Plugins", mcp: "MCP" } as const;

/** Rows the picker takes besides the list: two border rows, the tab line, the counts (and the message). */
export const CAP_CHROME_ROWS = 4;

export function CapabilitiesPicker({ s, width, maxRows }: { s: CapabilitiesState; width: number; maxRows: number }): React.ReactElement {
  const t = useTheme();
  const all = rowsFor(s.tab, s.data);
  const counts = all[all.length - 1]!;
  const list = all.slice(0, -1);
  const inner = Math.max(10, width - 4);
  const room = Math.max(1, maxRows - CAP_CHROME_ROWS - (s.message ? 1 : 0));
  const [a, b] = windowAround(list.length, s.index, room);
  const help = s.tab !== "skills" ? "space on/off · t trust · tab switch · esc close" : "space on/off · tab switch · esc close";
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={t.c("cyan")} paddingX={1}>
      <Text wrap="truncate-end">
        {CAP_TABS.map((tab) => (
          <Text key={tab} bold={tab === s.tab} inverse={tab === s.tab}>{` ${TAB_LABEL[tab]} `}</Text>
        ))}
        <Text color={t.c("gray")}>{`  ${help}`}</Text>
      </Text>
      {list.slice(a, b).map((r, i) => {
        const sel = a + i === s.index;
        const head = r.kind === "group" || r.kind === "master";
        return (
          <Text key={a + i} inverse={sel} bold={head} color={!sel && "on" in r && r.on === false ? t.c("gray") : undefined} wrap="truncate-end">
            {`${sel ? "❯" : " "} ${rowText(r, inner - 2)}`}
          </Text>
        );
      })}
      {s.message ? (
        <Text color={t.c("red")} wrap="truncate-end">
          {s.message}
        </Text>
      ) : null}
      <Text bold={s.data.everythingOff} color={s.data.everythingOff ? t.c("yellow") : t.c("gray")} wrap="truncate-end">
        {rowText(counts, inner)}
      </Text>
    </Box>
  );
}
