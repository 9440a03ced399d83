/** The status bar: model · ctx used/window · tideline gauge text · ↑in ↓out · spend. */
import React from "react";
import { Box, Text } from "ink";
import { gaugeBar, statusParts, type MeterView } from "../format.js";
import { useTheme } from "./theme.js";

export function StatusBar({ meter, width, busy, hint }: { meter: MeterView; width: number; busy: boolean; hint?: string }): React.ReactElement {
  const t = useTheme();
  const parts = statusParts(meter);
  const line = parts.join(" · ");
  // the gauge bar only when there is room on the line
  const room = width - line.length - 3;
  const bar = room >= 10 ? gaugeBar(meter, Math.min(20, room)) : "";
  return (
    <Box flexDirection="column">
      <Text color={t.c("gray")} wrap="truncate-end">
        {busy ? (hint ?? "working… (esc esc to stop)") : (hint ?? " ")}
      </Text>
      <Text wrap="wrap">
        <Text color={t.c("cyan")}>{parts[0]}</Text>
        <Text>{` · ${parts.slice(1).join(" · ")}`}</Text>
        {bar ? <Text color={t.c("blue")}>{` ${bar}`}</Text> : null}
      </Text>
    </Box>
  );
}
