/** The page: the sessions list (with a new-session button and the model picker), and the open session. */
import { useCallback, useEffect, useState } from "react";
import { api, apiDoc, type ApiDoc, type SessionSummary } from "./api.js";
import { SessionView } from "./session.js";

const idFromHash = () => /^#\/s\/(.+)$/.exec(location.hash)?.[1];

/** The model catalogue, when the server has one (api-b's route, or any GET whose operationId names models); otherwise the models sessions use. */
async function modelChoices(doc: ApiDoc | undefined, seen: string[]): Promise<string[]> {
  for (const [p, methods] of Object.entries(doc?.paths ?? {})) {
    const op = methods.get?.operationId;
    if (!op || p.includes("{") || !/^(model|models|provider)s?(list|catalog|catalogue)?$/i.test(op)) continue;
    const got = await api<unknown>("GET", p).catch(() => undefined);
    const list = Array.isArray(got) ? got : ((got as { models?: unknown[] } | undefined)?.models ?? []);
    const ids = list.map((m) => (typeof m === "string" ? m : (m as { id?: string }).id)).filter((m): m is string => typeof m === "string");
    if (ids.length) return [...new Set([...ids, ...seen])];
  }
  return [...new Set(seen)];
}

export function App() {
  const [sessions, setSessions] = useState<SessionSummary[]>([]);
  const [current, setCurrent] = useState<string | undefined>(idFromHash());
  const [filter, setFilter] = useState("");
  const [model, setModel] = useState("");
  const [models, setModels] = useState<string[]>([]);
  const [error, setError] = useState("");
  const [doc, setDoc] = useState<ApiDoc | undefined>();

  const load = useCallback(() => {
    void api<SessionSummary[]>("GET", "/session?limit=200").then(setSessions, (e: Error) => setError(e.message));
  }, []);
  useEffect(() => {
    load();
    const onHash = () => setCurrent(idFromHash());
    window.addEventListener("hashchange", onHash);
    return () => window.removeEventListener("hashchange", onHash);
  }, [load]);
  useEffect(() => {
    void apiDoc().then(setDoc, () => undefined);
  }, []);
  useEffect(() => {
    void modelChoices(doc, sessions.map((s) => s.model)).then(setModels, () => undefined);
  }, [doc, sessions.length]);

  const create = async () => {
    try {
      const s = await api<{ id: string }>("POST", "/session", model.trim() ? { model: model.trim() } : {});
      location.hash = `#/s/${s.id}`;
      load();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const shown = sessions.filter((s) => !filter || `${s.title ?? ""} ${s.id} ${s.cwd}`.toLowerCase().includes(filter.toLowerCase()));

  return (
    <div className="app">
      <header className="top">
        <h1>oceancode</h1>
        {error ? (
          <p className="error" role="alert">
            {error}
          </p>
        ) : null}
      </header>
      <nav className="sessions" aria-label="sessions">
        <div className="new">
          <label htmlFor="model">Model for new sessions</label>
          <input id="model" list="models" value={model} placeholder="default" onChange={(e) => setModel((e.currentTarget as HTMLInputElement).value)} />
          <datalist id="models">
            {models.map((m) => (
              <option key={m} value={m} />
            ))}
          </datalist>
          <button type="button" onClick={() => void create()}>
            New session
          </button>
        </div>
        <label htmlFor="filter">Find a session</label>
        <input id="filter" type="search" value={filter} onChange={(e) => setFilter((e.currentTarget as HTMLInputElement).value)} />
        <ul>
          {shown.map((s) => (
            <li key={s.id}>
              <a href={`#/s/${s.id}`} aria-current={s.id === current ? "page" : undefined}>
                <span className="title">{s.title || s.id}</span>
                <span className="sub">
                  {s.model} · {s.turns ?? 0} turns{s.open ? " · open" : ""}
                </span>
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main className="main">
        {current ? (
          <SessionView key={current} id={current} onChanged={load} />
        ) : (
          <p className="empty">Pick a session, or start a new one.</p>
        )}
      </main>
    </div>
  );
}
