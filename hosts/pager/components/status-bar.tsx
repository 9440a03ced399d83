/**
 * The status bar: model · ctx used/window · tideline gauge text · ↑in ↓out · spend. One row when it
 * fits the width; otherwise the tideline gets its own row (80 columns fit both rows).
 */
import React from "react";
import { Box, Text } from "ink";
import { gaugeBar, statusParts, type MeterView } from "../format.js";
import { useTheme } from "./theme.js";

export function statusRows(meter: MeterView, width: number): number {
  return statusParts(meter).join(" · ").length <= width - 1 ? 1 : 2;
}

export function StatusBar({ meter, width, busy, hint, extras }: { meter: MeterView; width: number; busy: boolean; hint?: string; extras?: string[] }): React.ReactElement {
  const t = useTheme();
  const [model, ctx, tide, tokens, spend] = statusParts(meter) as [string, string, string, string, string];
  const one = statusRows(meter, width) === 1;
  const main = one ? `${ctx} · ${tide} · ${tokens} · ${spend}` : `${ctx} · ${tokens} · ${spend}`;
  const used = model.length + 3 + main.length;
  const room = width - used - 2;
  const bar = one && room >= 10 ? gaugeBar(meter, Math.min(20, room)) : "";
  const tideRoom = width - tide.length - 2;
  const bar2 = !one && tideRoom >= 10 ? gaugeBar(meter, Math.min(20, tideRoom)) : "";
  return (
    <Box flexDirection="column">
      <Text color={t.c("gray")} wrap="truncate-end">
        {busy ? (hint ?? "working… (esc esc to stop)") : (hint ?? " ")}
        {extras?.length ? <Text color={t.c("yellow")}>{`${busy || hint ? " · " : ""}${extras.join(" · ")}`}</Text> : null}
      </Text>
      <Text wrap="truncate-end">
        <Text color={t.c("cyan")}>{model}</Text>
        <Text>{` · ${main}`}</Text>
        {bar ? <Text color={t.c("blue")}>{` ${bar}`}</Text> : null}
      </Text>
      {one ? null : (
        <Text wrap="truncate-end">
          <Text>{tide}</Text>
          {bar2 ? <Text color={t.c("blue")}>{` ${bar2}`}</Text> : null}
        </Text>
      )}
    </Box>
  );
}
