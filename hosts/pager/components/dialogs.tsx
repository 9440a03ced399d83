/** The modal parts of the pager: permission prompt, picker, output viewer, slash popup. Presentational only. */
import React from "react";
import { Box, Text } from "ink";
import type { Question } from "../../../extensions/engine/api.js";
import type { PickerState, ToolItem } from "../store.js";
import { wrapRows } from "../format.js";
import { useTheme } from "./theme.js";
import { DiffView } from "../render/views.js";
import { diffCounts, fullDiff } from "../render/diff.js";

/** What answering `a` saves: "always allow: bash git push *" for the usual "<rule> allow". */
export function alwaysText(always: string | undefined): string {
  if (!always) return "a = always (no rule was offered to save)";
  const m = /^(.*\S)\s+allow$/.exec(always);
  return m ? `a = always allow: ${m[1]}` : `a = always: ${always}`;
}

/** The permission prompt. `q` is display-safe already (store.safeQuestion). */
/** A form question (an MCP server's elicitation): the message, then one row per field with what is typed. */
/**
 * A form that is not an MCP server's (whose subject repeats its message and fields) shows its subject too,
 * e.g. plan_exit's plan, up to the rows the fields leave.
 */
function FormPrompt({ q, form, width, maxRows }: { q: Question; form: { index: number; values: string[] }; width: number; maxRows: number }): React.ReactElement {
  const t = useTheme();
  const fields = q.fields ?? [];
  const subject = q.tool.startsWith("mcp__") || !q.subject.trim() ? [] : wrapRows(q.subject, width - 4);
  const keep = Math.max(1, maxRows - 4 - fields.length * 2);
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={t.c("yellow")} paddingX={1}>
      <Text bold color={t.c("yellow")} wrap="truncate-end">{q.reason}</Text>
      {subject.slice(0, keep).map((l, i) => (
        <Text key={`s${i}`}>{l || " "}</Text>
      ))}
      {subject.length > keep ? <Text color={t.c("gray")}>{`… +${subject.length - keep} lines`}</Text> : null}
      {fields.map((f, i) => {
        const sel = i === form.index;
        const kind = f.options ? f.options.join("|") : f.type;
        const about = f.description ?? f.title;
        return (
          <Box key={f.name} flexDirection="column">
            <Text inverse={sel} wrap="truncate-end">{`${sel ? "❯ " : "  "}${f.name} (${kind}${f.required ? ", required" : ""}): ${form.values[i] ?? ""}${sel ? "▏" : ""}`}</Text>
            {about ? <Text color={t.c("gray")} wrap="truncate-end">{`    ${about}`.slice(0, Math.max(8, width - 4))}</Text> : null}
          </Box>
        );
      })}
      <Text>
        <Text bold>↑↓</Text> field · type to edit · <Text bold>enter</Text> send · <Text bold>esc</Text> decline
      </Text>
    </Box>
  );
}

export function QuestionPrompt({ q, width, maxRows, form }: { q: Question; width: number; maxRows: number; form?: { index: number; values: string[] } }): React.ReactElement {
  const t = useTheme();
  if (form && q.fields?.length) return <FormPrompt q={q} form={form} width={width} maxRows={maxRows} />;
  const subject = wrapRows(q.subject, width - 4);
  // the rule `a` saves is shown whole (up to 3 rows): the user should see exactly what they agree to
  const always = wrapRows(alwaysText(q.always), width - 4);
  const alwaysShown = always.length > 3 ? [...always.slice(0, 2), `${always[2]!.slice(0, -1)}…`] : always;
  const keep = Math.max(1, maxRows - 5 - alwaysShown.length);
  const shown = subject.slice(0, keep);
  // an edit's preview: the diff it would make, in the rows the subject leaves (render/diff.ts)
  const diff = q.preview?.diff;
  const diffRows = Math.max(0, keep - shown.length - 1);
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={t.c("yellow")} paddingX={1}>
      <Text bold color={t.c("yellow")}>{`Allow ${q.tool}?`}</Text>
      {shown.map((l, i) => (
        <Text key={i}>{l}</Text>
      ))}
      {subject.length > keep ? <Text color={t.c("gray")}>{`… +${subject.length - keep} lines`}</Text> : null}
      {diff && diff.hunks.length && diffRows > 1 ? <DiffView diff={diff} width={width - 4} paint={t.paint} indent="" maxRows={diffRows - 1} expandHint={false} /> : null}
      <Text wrap="truncate-end">{`why: ${q.reason}${q.rule ? ` (rule: ${q.rule})` : ""}`}</Text>
      {alwaysShown.map((l, i) => (
        <Text key={`a${i}`}>{l}</Text>
      ))}
      <Text>
        <Text bold>y</Text> once · <Text bold>a</Text> always · <Text bold>n</Text> reject
      </Text>
    </Box>
  );
}

/** Show `rows` entries around the selection. */
export function windowAround(n: number, index: number, rows: number): [number, number] {
  if (n <= rows) return [0, n];
  const start = Math.max(0, Math.min(n - rows, index - Math.floor(rows / 2)));
  return [start, start + rows];
}

export function Picker({ p, maxRows }: { p: PickerState; maxRows: number }): React.ReactElement {
  const t = useTheme();
  const rows = Math.max(1, Math.min(10, maxRows - 3));
  const [a, b] = windowAround(p.items.length, p.index, rows);
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={t.c("cyan")} paddingX={1}>
      <Text bold>{p.title}</Text>
      {p.items.length === 0 ? <Text color={t.c("gray")}>(nothing to pick)</Text> : null}
      {p.items.slice(a, b).map((it, i) => {
        const sel = a + i === p.index;
        return (
          <Text key={it.id} inverse={sel} wrap="truncate-end">
            {sel ? "❯ " : "  "}
            {it.label}
          </Text>
        );
      })}
      <Text color={t.c("gray")}>↑↓ move · enter pick · esc cancel</Text>
    </Box>
  );
}

export function OutputViewer({ tool, index, count, scroll, width, rows }: { tool: ToolItem; index: number; count: number; scroll: number; width: number; rows: number }): React.ReactElement {
  const t = useTheme();
  // an edit's whole diff first, then what the model was told
  const lines = tool.diff && !tool.isError ? [...fullDiff(tool.diff, width - 2, t.paint), "", ...wrapRows(tool.output ?? "", width - 2)] : wrapRows(tool.output ?? "", width - 2);
  const h = Math.max(1, rows - 3);
  const top = Math.max(0, Math.min(scroll, Math.max(0, lines.length - h)));
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate-end">{`${tool.head}${tool.diff ? ` ${diffCounts(tool.diff)}` : ""} — output ${index + 1}/${count}`}</Text>
      {lines.slice(top, top + h).map((l, i) => (
        <Text key={top + i} color={tool.isError ? t.c("red") : undefined}>
          {l || " "}
        </Text>
      ))}
      <Text color={t.c("gray")} wrap="truncate-end">{`lines ${lines.length ? top + 1 : 0}-${Math.min(lines.length, top + h)} of ${lines.length} · ↑↓ pgup pgdn scroll · ←→ other calls · esc close`}</Text>
    </Box>
  );
}

export interface SlashEntry {
  name: string;
  /** a built-in's usage; a skill's argument hint (shown in the row) */
  usage?: string;
  summary: string;
  /** a skill or command from the catalog: picking it inserts `/<name> ` to type its arguments */
  skill?: boolean;
}

export function SlashPopup({ entries, index, maxRows, width }: { entries: SlashEntry[]; index: number; maxRows: number; width: number }): React.ReactElement {
  const t = useTheme();
  const rows = Math.max(1, Math.min(8, maxRows));
  const [a, b] = windowAround(entries.length, index, rows);
  if (entries.length === 0) return <Text color={t.c("gray")}>no matching command</Text>;
  const nameW = Math.min(16, Math.max(...entries.map((e) => e.name.length + 1)));
  return (
    <Box flexDirection="column">
      {entries.slice(a, b).map((e, i) => {
        const sel = a + i === index;
        return (
          <Text key={e.name} inverse={sel} wrap="truncate-end">
            {`${sel ? "❯" : " "} /${e.name.padEnd(nameW)} ${e.skill && e.usage ? `${e.usage} ` : ""}${e.summary}`.slice(0, Math.max(10, width - 1))}
          </Text>
        );
      })}
    </Box>
  );
}
