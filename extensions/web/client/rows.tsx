/** The conversation: stored rows, and the turn in flight as its events arrive. */
import { memo } from "react";
import type { Row, ToolCall, ToolResult } from "./api.js";
import { DiffView } from "./diff.js";
import { Markdown } from "./markdown.js";

function short(s: string, n = 400): string {
  return s.length > n ? `${s.slice(0, n)}…` : s;
}

function callLabel(c: ToolCall): string {
  const first = c.input.command ?? c.input.file_path ?? c.input.path ?? c.input.pattern;
  return typeof first === "string" ? `${c.name} ${short(first, 120)}` : c.name;
}

export function ToolResultView({ r }: { r: ToolResult }) {
  return (
    <div className={r.isError ? "tool-result error" : "tool-result"}>
      {r.diff ? <DiffView diff={r.diff} /> : null}
      <details>
        <summary>
          {r.name} output{r.isError ? " (error)" : ""}
        </summary>
        <pre tabIndex={0} aria-label={`${r.name} output`}>{short(r.content, 4000)}</pre>
      </details>
    </div>
  );
}

/** A stored row never changes: drawn once, not again on every streamed token of the turn in flight. */
export const RowView = memo(function RowView({ row }: { row: Row }) {
  switch (row.role) {
    case "user":
      return (
        <article className="msg user" aria-label="you">
          <p className="who">You</p>
          <p className="plain">{row.text}</p>
        </article>
      );
    case "assistant":
      return (
        <article className="msg assistant" aria-label="assistant">
          <p className="who">Assistant</p>
          {row.text ? <Markdown text={row.text} /> : null}
          {(row.toolCalls ?? []).map((c) => (
            <p key={c.id} className="tool-call">
              ⚙ {callLabel(c)}
            </p>
          ))}
        </article>
      );
    case "tool":
      return (
        <div className="msg tool">
          {row.results.map((r) => (
            <ToolResultView key={r.callId} r={r} />
          ))}
        </div>
      );
    default:
      return <p className="msg note">{row.text}</p>;
  }
});

export interface Live {
  user: string;
  text: string;
  tools: Array<{ call: ToolCall; result?: ToolResult }>;
}

export function LiveView({ live }: { live: Live }) {
  return (
    <div className="live" aria-busy="true">
      {live.user ? (
        <article className="msg user" aria-label="you">
          <p className="who">You</p>
          <p className="plain">{live.user}</p>
        </article>
      ) : null}
      <article className="msg assistant streaming" aria-label="assistant (answering)">
        <p className="who">Assistant</p>
        {live.text ? <Markdown text={live.text} /> : <p className="plain">…</p>}
        {live.tools.map((t) => (
          <div key={t.call.id}>
            <p className="tool-call">
              ⚙ {callLabel(t.call)} {t.result ? "" : "(running)"}
            </p>
            {t.result ? <ToolResultView r={t.result} /> : null}
          </div>
        ))}
      </article>
    </div>
  );
}
