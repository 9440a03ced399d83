/**
 * The status bar. Row 1: while a turn runs, an animated line (spinner, elapsed, output tokens so far,
 * the running tool and its own clock); else the last hint; then the mode and the todo count. Row 2:
 * model · context 12% · 200k window · ↑in ↓out · spend, and a gauge whose ┃ marks the tideline when
 * there is room (the tideline's words are /context's).
 */
import React, { useEffect, useState } from "react";
import { Box, Text } from "ink";
import { gaugeBar, statusParts, type MeterView } from "../format.js";
import { SPINNER, TICK_MS } from "../progress.js";
import { useTheme } from "./theme.js";

export function statusRows(_meter: MeterView, _width: number): number {
  return 1;
}

/** The running turn's line; it ticks by itself, so the rest of the screen does not depend on a timer. */
function BusyLine({ progress, hint }: { progress?: () => string; hint?: string }): React.ReactElement {
  const t = useTheme();
  const [frame, setFrame] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setFrame((f) => (f + 1) % SPINNER.length), TICK_MS);
    return () => clearInterval(timer);
  }, []);
  return (
    <Text>
      <Text color={t.c("cyan")}>{`${SPINNER[frame]} `}</Text>
      {progress ? progress() : "working…"}
      {` · ${hint ?? "esc esc to stop"}`}
    </Text>
  );
}

export function StatusBar({ meter, width, busy, hint, extras, progress }: { meter: MeterView; width: number; busy: boolean; hint?: string; extras?: string[]; progress?: () => string }): React.ReactElement {
  const t = useTheme();
  const [model, ...rest] = statusParts(meter) as [string, ...string[]];
  const main = rest.join(" · ");
  const room = width - (model.length + 3 + main.length) - 2;
  const bar = room >= 10 ? gaugeBar(meter, Math.min(20, room)) : "";
  return (
    <Box flexDirection="column">
      <Text color={t.c("gray")} wrap="truncate-end">
        {busy ? <BusyLine progress={progress} hint={hint} /> : (hint ?? " ")}
        {extras?.length ? <Text color={t.c("yellow")}>{`${busy || hint ? " · " : ""}${extras.join(" · ")}`}</Text> : null}
      </Text>
      <Text wrap="truncate-end">
        <Text color={t.c("cyan")}>{model}</Text>
        <Text>{` · ${main}`}</Text>
        {bar ? <Text color={t.c("blue")}>{` ${bar}`}</Text> : null}
      </Text>
    </Box>
  );
}
