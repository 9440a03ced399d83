/**
 * One session: its rows, the turn in flight (live over SSE), the permission questions waiting, the mode,
 * the meter, the todos, undo/redo and the prompt box. Attaching to a session another client drives is the
 * same view: the stream carries its events whoever sent the prompt.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { api, sessionStream, type Meter, type Question, type Row, type Todo, type ToolCall, type ToolResult } from "./api.js";
import { DiffView } from "./diff.js";
import { LiveView, RowView, type Live } from "./rows.js";

const MODES = ["default", "acceptEdits", "plan", "dontAsk", "bypassPermissions"];

async function allRows(id: string): Promise<Row[]> {
  const out: Row[] = [];
  for (let cursor = 0, n = 0; n < 100; n++) {
    const page = await api<{ messages: Row[]; nextCursor?: number }>("GET", `/session/${encodeURIComponent(id)}/message?cursor=${cursor}&limit=1000`);
    out.push(...page.messages);
    if (page.nextCursor === undefined) break;
    cursor = page.nextCursor;
  }
  return out;
}

function QuestionView({ q, answer }: { q: Question; answer: (q: Question, a: "once" | "always" | "reject", reason?: string) => void }) {
  const first = useRef<HTMLButtonElement | null>(null);
  const [reason, setReason] = useState("");
  useEffect(() => first.current?.focus(), []);
  const d = q.question.preview?.diff;
  return (
    <section className="question" role="group" aria-labelledby={`q-${q.id}`}>
      <h3 id={`q-${q.id}`}>Allow {q.question.tool}?</h3>
      <p className="reason">{q.question.reason}</p>
      {d ? <DiffView diff={d} /> : <pre tabIndex={0} aria-label="what it would run">{q.question.subject}</pre>}
      <div className="actions">
        <button ref={first} type="button" onClick={() => answer(q, "once")}>
          Allow once
        </button>
        {q.question.always ? (
          <button type="button" onClick={() => answer(q, "always")} title={q.question.always}>
            Always allow
          </button>
        ) : null}
        <button type="button" className="danger" onClick={() => answer(q, "reject", reason.trim() || undefined)}>
          Reject
        </button>
        <label className="why">
          Reason (told to the model){" "}
          <input value={reason} onChange={(e) => setReason((e.currentTarget as HTMLInputElement).value)} />
        </label>
      </div>
    </section>
  );
}

export function SessionView({ id, onChanged }: { id: string; onChanged: () => void }) {
  const path = `/session/${encodeURIComponent(id)}`;
  const [rows, setRows] = useState<Row[]>([]);
  const [live, setLive] = useState<Live | undefined>();
  const [questions, setQuestions] = useState<Question[]>([]);
  const [mode, setMode] = useState("default");
  const [meter, setMeter] = useState<Meter | undefined>();
  const [todos, setTodos] = useState<Todo[]>([]);
  const [status, setStatus] = useState("");
  const [text, setText] = useState("");
  const [connected, setConnected] = useState(false);

  const refresh = useCallback(async () => {
    const [r, m, t, cp] = await Promise.all([
      allRows(id),
      api<Meter>("GET", `${path}/meter`).catch(() => undefined),
      api<{ items: Todo[] }>("GET", `${path}/todos`).catch(() => undefined),
      // the rows an undo took back (the checkpoints extension's route, when the server has it)
      api<{ hidden: number[] }>("GET", `${path}/checkpoints`).catch(() => undefined),
    ]);
    const hidden = new Set(cp?.hidden ?? []);
    setRows(r.filter((row) => !hidden.has(row.turn)));
    setMeter(m);
    setTodos(t?.items ?? []);
  }, [id, path]);

  useEffect(() => {
    let gone = false;
    // streamed text is drawn once per frame, however many deltas came in it
    let pending = "";
    let frame = 0;
    const flush = () => {
      frame = 0;
      const add = pending;
      pending = "";
      if (add && !gone) setLive((l) => ({ ...(l ?? { user: "", tools: [] }), text: (l?.text ?? "") + add }));
    };
    setRows([]);
    setLive(undefined);
    setQuestions([]);
    const fail = (e: unknown) => !gone && setStatus(`Error: ${(e as Error).message}`);
    const close = sessionStream(
      id,
      (type, data) => {
        if (gone) return;
        switch (type) {
          case "turn_start":
            pending = "";
            setLive({ user: String(data.text ?? ""), text: "", tools: [] });
            setStatus("Answering…");
            break;
          case "text_delta":
            pending += String(data.text ?? "");
            frame ||= requestAnimationFrame(flush);
            break;
          case "tool_call_start":
            flush();
            setLive((l) => ({ ...(l ?? { user: "", text: "" }), tools: [...(l?.tools ?? []), { call: data.call as ToolCall }] }));
            break;
          case "tool_call_end": {
            const result = data.result as ToolResult;
            setLive((l) => l && { ...l, tools: l.tools.map((t) => (t.call.id === result.callId ? { ...t, result } : t)) });
            void api<{ items: Todo[] }>("GET", `${path}/todos`).then((t) => !gone && setTodos(t.items), () => undefined);
            break;
          }
          case "question_asked":
            setQuestions((qs) => [...qs.filter((q) => q.id !== data.questionId), { id: String(data.questionId), sessionId: id, question: data.question as Question["question"] }]);
            break;
          case "question_settled":
            setQuestions((qs) => qs.filter((q) => q.id !== data.questionId));
            break;
          case "notice":
            setStatus(String(data.text ?? ""));
            break;
          case "usage":
            // the meter as it moves (each step's usage), not only at the turn's end
            void api<Meter>("GET", `${path}/meter`).then((m) => !gone && setMeter(m), () => undefined);
            break;
          case "turn_end":
          case "turn_done":
          case "gap":
            flush();
            void refresh().then(() => {
              if (gone) return;
              setLive(undefined);
              if (type !== "gap") setStatus(data.error ? `Turn failed: ${String(data.error)}` : "Answer complete");
              onChanged();
            }, fail);
            break;
        }
      },
      () => setConnected(true),
    );
    void refresh().catch(fail);
    void api<Question[]>("GET", `${path}/question`).then((qs) => !gone && setQuestions((cur) => [...cur, ...qs.filter((q) => !cur.some((c) => c.id === q.id))]), () => undefined);
    void api<{ mode: string }>("GET", `${path}/permission-mode`).then((m) => !gone && setMode(m.mode), () => undefined);
    return () => {
      gone = true;
      cancelAnimationFrame(frame);
      close();
    };
  }, [id, path, refresh, onChanged]);

  // new content keeps the view at the bottom, if it was there (a reader scrolled up is left alone)
  const end = useRef<HTMLDivElement | null>(null);
  const liveLength = live ? live.text.length + live.tools.length : -1;
  useEffect(() => {
    const el = document.scrollingElement ?? document.documentElement;
    if (el.scrollHeight - (el.scrollTop + window.innerHeight) < 400) end.current?.scrollIntoView({ block: "end" });
  }, [rows.length, liveLength, questions.length]);

  const send = async (e: { preventDefault(): void }) => {
    e.preventDefault();
    const t = text.trim();
    if (!t) return;
    setText("");
    try {
      await api("POST", `${path}/prompt`, { text: t });
      setStatus("Sent");
    } catch (err) {
      setText(t);
      setStatus(`Error: ${(err as Error).message}`);
    }
  };
  const answer = async (q: Question, a: "once" | "always" | "reject", reason?: string) => {
    await api("POST", `${path}/question/${encodeURIComponent(q.id)}`, { answer: a, ...(reason ? { reason } : {}) }).catch((err: Error) => setStatus(`Error: ${err.message}`));
    setQuestions((qs) => qs.filter((x) => x.id !== q.id));
  };
  const move = async (what: "undo" | "redo") => {
    type Moved = { ok: boolean; message?: string; restored?: string[]; removed?: string[] };
    const r = await api<Moved>("POST", `${path}/${what}`, {}).catch((err: Error): Moved => ({ ok: false, message: err.message }));
    const files = (r.restored?.length ?? 0) + (r.removed?.length ?? 0);
    setStatus(r.ok ? `${what === "undo" ? "Undone" : "Redone"}: ${files} file(s) put back` : `Could not ${what}: ${r.message ?? "refused"}`);
    await refresh().catch(() => undefined);
  };
  const switchMode = async (m: string) => {
    setMode(m);
    const r = await api<{ mode: string; note?: string }>("POST", `${path}/permission-mode`, { mode: m }).catch((err: Error) => {
      setStatus(`Error: ${err.message}`);
      return undefined;
    });
    if (r) {
      setMode(r.mode);
      setStatus(r.note ? `Mode ${r.mode}: ${r.note}` : `Mode: ${r.mode}`);
    }
  };

  return (
    <div className="session">
      <div className="toolbar" role="group" aria-label="session actions">
        <label>
          Mode{" "}
          <select value={mode} onChange={(e) => void switchMode((e.currentTarget as HTMLSelectElement).value)}>
            {MODES.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={() => void move("undo")} disabled={live !== undefined}>
          Undo
        </button>
        <button type="button" onClick={() => void move("redo")} disabled={live !== undefined}>
          Redo
        </button>
        {live ? (
          <button type="button" className="danger" onClick={() => void api("POST", `${path}/abort`)}>
            Stop
          </button>
        ) : null}
        <p className="meter">
          <span className="sr-only">Meter: </span>
          {meter ? `${meter.model} · ${meter.inputTokens + meter.outputTokens} tokens · $${meter.costUsd.toFixed(4)} · ${Math.round((meter.used / Math.max(1, meter.contextWindow)) * 100)}% context` : "no meter"}
        </p>
      </div>
      <div className="columns">
        <section className="chat" aria-label="conversation" data-connected={connected ? "yes" : "no"}>
          {rows.map((r) => (
            <RowView key={r.seq} row={r} />
          ))}
          {live ? <LiveView live={live} /> : null}
          {questions.map((q) => (
            <QuestionView key={q.id} q={q} answer={(x, a, why) => void answer(x, a, why)} />
          ))}
          <div ref={end} />
        </section>
        <aside className="todos" aria-label="todos">
          <h2>Todos</h2>
          {todos.length ? (
            <ul>
              {todos.map((t, i) => (
                <li key={i} className={`todo ${t.status}`}>
                  <span className="todo-status">{t.status === "completed" ? "✓" : t.status === "in_progress" ? "▶" : "○"}</span> {t.content}
                </li>
              ))}
            </ul>
          ) : (
            <p>No todos yet.</p>
          )}
        </aside>
      </div>
      <p className="status" role="status" aria-live="polite">
        {status}
      </p>
      <form className="composer" onSubmit={(e) => void send(e)}>
        <label htmlFor="prompt">Prompt</label>
        <textarea
          id="prompt"
          rows={3}
          value={text}
          placeholder="Ask oceancode… (Ctrl+Enter sends)"
          onChange={(e) => setText((e.currentTarget as HTMLTextAreaElement).value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) void send(e);
          }}
        />
        <button type="submit">Send</button>
      </form>
    </div>
  );
}
