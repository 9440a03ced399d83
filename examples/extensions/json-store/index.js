// An example storage replacement for oceancode, in plain JavaScript (no build step): every session is
// one JSON file, <dir>/<session id>.json. Select it in place of the built-in SQLite store with
//
//   { "extensions": { "replace": { "storage": "json-store" } } }
//
// A storage provider does two things: it provides the "storage" service (oceancode/api/storage's
// StorageService: `oceancode sessions`, `export` and the ledger read through it), and it taps the
// engine's session hooks (oceancode/api/engine: sessionStart, afterStep, afterTurn, sessionEnd to write;
// loadSession and latestSession so `run --continue` and `--resume` find sessions).
import fs from "node:fs";
import path from "node:path";

/** @typedef {import("oceancode/api/storage").StorageService} StorageService */
/** @typedef {import("oceancode/api/storage").SessionSummary} SessionSummary */
/** @typedef {import("oceancode/api/engine").Session} Session */
/** @typedef {import("oceancode/api/engine").SessionInfo} SessionInfo */
/** @typedef {import("oceancode/api/engine").EngineService} EngineService */
/** @typedef {import("oceancode/kernel").ExtensionContext} ExtensionContext */
/**
 * @typedef {{ version: 1, info: SessionInfo, rows: import("oceancode/api/engine").Row[],
 *   totals: import("oceancode/api/engine").SessionTotals, createdAt: number, updatedAt: number,
 *   events: Array<{ seq: number, at: number, kind: string, data: Record<string, unknown> }> }} SessionFile
 */

const DAY = 86_400_000;

/** @param {string} dir @returns {StorageService & { tap(engine: EngineService, name: string): void }} */
export function createJsonStore(dir) {
  /** open sessions: what is already on disk (highest row seq) and what waits for the first write */
  /** @type {Map<string, { lastSeq: number, file?: SessionFile, pendingEvents: SessionFile["events"], pendingInfo?: SessionInfo }>} */
  const open = new Map();
  const fileOf = (id) => path.join(dir, `${encodeURIComponent(id)}.json`);

  /** @returns {SessionFile | undefined} */
  function read(id) {
    try {
      return JSON.parse(fs.readFileSync(fileOf(id), "utf8"));
    } catch (e) {
      if (e.code === "ENOENT") return undefined;
      throw new Error(`json-store: ${fileOf(id)}: ${e.message}`);
    }
  }
  /** @param {SessionFile} f */
  function write(f) {
    fs.mkdirSync(dir, { recursive: true });
    const file = fileOf(f.info.id);
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(f));
    fs.renameSync(tmp, file); // a crash leaves the old file or the new one, never half of one
  }
  function all() {
    let names = [];
    try {
      names = fs.readdirSync(dir).filter((n) => n.endsWith(".json"));
    } catch {
      return [];
    }
    return names.map((n) => read(decodeURIComponent(n.slice(0, -5)))).filter(Boolean);
  }
  /** @param {SessionFile} f @returns {SessionSummary} */
  function summary(f) {
    const first = f.rows.find((r) => r.role === "user");
    const title = f.info.title ?? (first ? first.text.replace(/\s+/g, " ").slice(0, 60) : undefined);
    return {
      id: f.info.id,
      ...(f.info.parentId ? { parentId: f.info.parentId } : {}),
      cwd: f.info.cwd,
      model: f.info.model,
      ...(title ? { title } : {}),
      createdAt: f.createdAt,
      updatedAt: f.updatedAt,
      turns: f.totals.turns,
      steps: f.totals.steps,
    };
  }
  const newest = (a, b) => b.updatedAt - a.updatedAt || b.createdAt - a.createdAt;

  /** Write the rows the session gained since the last write (the engine may have released older ones from memory). @param {Session} s */
  function progress(s) {
    const st = open.get(s.info.id) ?? { lastSeq: 0, pendingEvents: [] };
    open.set(s.info.id, st);
    const fresh = s.rows.filter((r) => r.seq > st.lastSeq);
    if (!st.file && fresh.length === 0) return; // nothing to keep yet: a session left before its first prompt leaves no file
    const f = st.file ?? read(s.info.id) ?? { version: 1, info: s.info, rows: [], totals: s.totals, createdAt: s.info.createdAt, updatedAt: Date.now(), events: [] };
    f.info = { ...s.info, ...(st.pendingInfo ? { overrides: { ...s.info.overrides, ...st.pendingInfo.overrides } } : {}) };
    f.rows.push(...fresh);
    f.totals = structuredClone(s.totals);
    f.updatedAt = Date.now();
    for (const e of st.pendingEvents.splice(0)) f.events.push({ ...e, seq: f.events.length + 1 });
    st.lastSeq = f.rows.length ? f.rows[f.rows.length - 1].seq : 0;
    st.file = f;
    write(f);
  }

  return {
    dbPath: dir,
    async settle() {},
    async listSessions(opts = {}) {
      const list = all().filter((f) => opts.cwd === undefined || f.info.cwd === opts.cwd).map(summary).sort(newest);
      return opts.limit ? list.slice(0, opts.limit) : list;
    },
    async loadSession(id) {
      const f = read(id);
      return f && { info: f.info, rows: f.rows, totals: f.totals };
    },
    async latestSessionId(cwd) {
      return all().filter((f) => f.info.cwd === cwd).map(summary).sort(newest)[0]?.id;
    },
    recordEvent(sessionId, kind, data) {
      const st = open.get(sessionId);
      const f = st?.file ?? read(sessionId);
      const e = { seq: 0, at: Date.now(), kind, data };
      if (!f) {
        // the session is not written yet: the event goes with its first rows
        if (st) st.pendingEvents.push(e);
        return;
      }
      f.events.push({ ...e, seq: f.events.length + 1 });
      write(f);
    },
    async events(sessionId, kind) {
      const f = read(sessionId);
      return (f?.events ?? []).filter((e) => kind === undefined || e.kind === kind).map((e) => ({ sessionId, ...e }));
    },
    saveInfo(info) {
      const st = open.get(info.id);
      const f = st?.file ?? read(info.id);
      if (!f) {
        if (st) st.pendingInfo = info;
        return;
      }
      f.info = { ...f.info, ...info };
      write(f);
    },
    async deleteSession(id) {
      open.delete(id);
      fs.rmSync(fileOf(id), { force: true });
    },
    async staleSessions(days) {
      const before = Date.now() - days * DAY;
      return all().filter((f) => f.updatedAt < before).sort((a, b) => a.updatedAt - b.updatedAt).map((f) => f.info.id);
    },
    health() {
      return { ok: true, damaged: false };
    },
    // `oceancode doctor --storage` prints these lines
    async doctorChecks() {
      let n = 0;
      const bad = [];
      let names = [];
      try {
        names = fs.readdirSync(dir).filter((x) => x.endsWith(".json"));
      } catch {
        return [{ status: "info", check: `storage ${dir}`, detail: "absent (no session stored yet)" }];
      }
      for (const name of names) {
        try {
          JSON.parse(fs.readFileSync(path.join(dir, name), "utf8"));
          n++;
        } catch (e) {
          bad.push(`${name}: ${e.message}`);
        }
      }
      return [
        { status: "ok", check: `storage ${dir}`, detail: `${n} session file(s), JSON` },
        ...bad.map((b) => ({ status: "FAIL", check: `storage ${dir}`, detail: `unreadable: ${b}` })),
      ];
    },
    // no `migrations`: `oceancode migrate` says this store has none

    /** Tap the engine's session hooks (what makes it the store sessions are written to and reopened from). */
    tap(engine, name) {
      const h = engine.hooks;
      h.sessionStart.tap({ name, stage: "store" }, ({ session, source }) => {
        const lastSeq = source === "resume" && session.rows.length ? session.rows[session.rows.length - 1].seq : 0;
        open.set(session.info.id, { lastSeq, file: source === "resume" ? read(session.info.id) : undefined, pendingEvents: [] });
      });
      h.afterStep.tap({ name, stage: "STAGE_AUDIT" }, (rec) => progress(rec.ctx.session));
      h.afterTurn.tap({ name, stage: "STAGE_AUDIT" }, (rec) => progress(rec.session));
      h.sessionEnd.tap({ name, stage: "STAGE_AUDIT" }, ({ session }) => {
        progress(session);
        open.delete(session.info.id);
      });
      h.loadSession.tap({ name }, async ({ id }) => (read(id) ? this.loadSession(id) : undefined));
      h.latestSession.tap({ name }, ({ cwd }) => this.latestSessionId(cwd));
    },
  };
}

export default {
  /** @param {ExtensionContext} ctx */
  activate(ctx) {
    const dir = ctx.config.section("json_store").dir ?? path.join(ctx.paths.dataDir, "json-store");
    const store = createJsonStore(path.resolve(ctx.paths.project, dir));
    const engine = ctx.services.tryGet("engine");
    if (engine) store.tap(engine, ctx.id);
    ctx.provide("storage", store);
  },
};
