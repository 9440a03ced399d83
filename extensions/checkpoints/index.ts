/**
 * Undo and redo with files. Before a tool of kind "edit" (write, edit) runs, the file it names is
 * snapshotted into a content-addressed store beside the ledger, once per user turn per file; after it
 * runs, the file's new content is stored too. /undo restores the files to before the last user turn and
 * moves the conversation back (the turn's rows leave the model's window through contextBuild, the ledger's
 * journal leaf moves); /redo re-applies it; /rewind goes back several turns. Nothing is deleted: moves
 * are appended. A file changed outside the agent since the checkpoint is not overwritten silently.
 * See docs/checkpoints.md.
 */
import path from "node:path";
import fs from "node:fs";
import type { ExtensionContext, SlashHost } from "../../kernel/api.js";
import type { Session, ToolCallContext, ToolOutput } from "../engine/api.js";
import { checkpointRoutes } from "./routes.js";
import type { CheckpointTurn, CheckpointsService, MoveOptions, MoveResult } from "./api.js";
import { readContent, SessionStore, sha256 } from "./store.js";
import { ShadowRepo } from "./shadow.js";

const EXT_ID = "checkpoints";

/** The file an edit-kind tool call names (absolute), from its Claude-shaped input. */
function targetOf(ctx: ToolCallContext): string | undefined {
  if (ctx.tool?.kind !== "edit") return undefined;
  const input = ctx.claude.toolInput;
  const p = input.file_path ?? input.notebook_path ?? input.path;
  return typeof p === "string" && p ? path.resolve(ctx.cwd, p) : undefined;
}

export default {
  activate(ctx: ExtensionContext) {
    const engine = ctx.services.get("engine");
    const ledger = () => ctx.services.tryGet("ledger");
    const stores = new Map<string, SessionStore>();
    const sessions = new Map<string, Session>();
    /** the user turn each session's running prompt records into */
    const open = new Map<string, CheckpointTurn>();

    const dirOf = (sid: string): string => {
      const l = ledger();
      if (l?.enabled) return path.join(l.dirOf(sid), "checkpoints");
      return path.join(ctx.paths.dataDir, "checkpoints", sid);
    };
    const storeOf = (sid: string): SessionStore => {
      let s = stores.get(sid);
      if (!s) {
        s = new SessionStore(dirOf(sid));
        stores.set(sid, s);
      }
      return s;
    };
    /** The record a session's writes go to: its own running prompt's, else (a sub-agent) its parent's. */
    const recordFor = (session: Session): { store: SessionStore; turn: CheckpointTurn } | undefined => {
      for (let info: Session["info"] | undefined = session.info; info; info = info.parentId ? sessions.get(info.parentId)?.info : undefined) {
        const t = open.get(info.id);
        if (t) return { store: storeOf(info.id), turn: t };
      }
      return undefined;
    };

    engine.hooks.sessionStart.tap({ name: EXT_ID }, ({ session }) => {
      sessions.set(session.info.id, session);
    });
    engine.hooks.sessionEnd.tap({ name: EXT_ID }, ({ session }) => {
      sessions.delete(session.info.id);
      open.delete(session.info.id);
      stores.delete(session.info.id);
    });

    // a prompt opens a user turn on top of the active one (after the other taps: a blocked prompt opens none)
    engine.hooks.userPrompt.tap({ name: EXT_ID, stage: "record" }, (input, tctx) => {
      sessions.set(tctx.session.info.id, tctx.session);
      // a sub-agent's prompt is part of its parent's user turn: its writes go to the parent's record
      if (input.blocked || tctx.session.info.parentId !== undefined) return input;
      const sid = tctx.session.info.id;
      const store = storeOf(sid);
      const t: CheckpointTurn = {
        id: store.turns.length + 1,
        parent: store.active,
        turns: [tctx.turn],
        firstSeq: tctx.session.nextSeq,
        lastSeq: tctx.session.nextSeq,
        title: input.text.split("\n")[0]!.slice(0, 80),
        at: Date.now(),
        files: {},
      };
      store.turns.push(t);
      open.set(sid, t);
      store.saveTurn(t);
      store.setActive(t.id);
      return input;
    });

    engine.hooks.afterTurn.tap({ name: EXT_ID }, (rec) => {
      const t = open.get(rec.session.info.id);
      if (!t) return;
      if (!t.turns.includes(rec.turn)) t.turns.push(rec.turn);
      t.lastSeq = Math.max(t.firstSeq, rec.session.nextSeq - 1);
      storeOf(rec.session.info.id).saveTurn(t);
    });

    // rows of turns off the active path leave the window (before the tideline measures it)
    engine.hooks.contextBuild.tap({ name: EXT_ID, stage: "cut" }, (win, sctx) => {
      const s = stores.get(sctx.session.info.id);
      if (!s || s.hidden.size === 0) return win;
      return { ...win, rows: win.rows.filter((r) => !s.hidden.has(r.turn)) };
    });

    const shadows = new Map<string, ShadowRepo>();
    const shadowFor = (cwd: string): ShadowRepo => {
      let r = shadows.get(cwd);
      if (!r) {
        r = new ShadowRepo(path.join(ctx.paths.dataDir, "checkpoints", "shadow", sha256(Buffer.from(cwd)).slice(0, 16)), cwd);
        shadows.set(cwd, r);
      }
      return r;
    };
    ctx.kernelHooks.shutdown.tap({ name: EXT_ID }, () => {
      for (const r of shadows.values()) r.close();
    });
    /** A shell call: scan the tree before and after (the private index re-hashes only what changed) and record what differs. */
    const aroundShell = async (tctx: ToolCallContext, rec: { store: SessionStore; turn: CheckpointTurn }, next: (c: ToolCallContext) => Promise<ToolOutput>): Promise<ToolOutput> => {
      const shadow = shadowFor(tctx.cwd);
      const before = (await shadow.init()) ? await shadow.tree().catch(() => undefined) : undefined;
      if (!before) return next(tctx);
      try {
        return await next(tctx);
      } finally {
        try {
          const after = await shadow.tree(true);
          const changes = await shadow.diff(before, after);
          const olds = await shadow.blobs(changes.filter((c) => c.beforeBlob && !rec.turn.files[c.file]).map((c) => c.beforeBlob!));
          for (const c of changes) {
            let change = rec.turn.files[c.file];
            if (!change) {
              const old = c.beforeBlob ? olds.get(c.beforeBlob) : null;
              if (old === undefined) continue; // its old content could not be read: not ours to restore
              const h = rec.store.put(old);
              change = { before: h, after: h };
              rec.turn.files[c.file] = change;
            }
            const now = readContent(c.file);
            if (now !== undefined) change.after = rec.store.put(now);
            rec.store.saveFile(rec.turn.id, c.file, change);
          }
        } catch (e) {
          ctx.log.warn(`checkpoints: could not record what the shell call changed (${e instanceof Error ? e.message : String(e)})`);
        }
      }
    };

    // the snapshot: the file's content before the turn's first write to it, and after each write
    engine.hooks.executeTool.tap({ name: EXT_ID, stage: "snapshot" }, (next) => async (tctx: ToolCallContext) => {
      if (tctx.tool && (tctx.tool.name === "bash" || tctx.tool.claudeName === "Bash")) {
        const rec = recordFor(tctx.session);
        return rec ? aroundShell(tctx, rec, next) : next(tctx);
      }
      const file = targetOf(tctx);
      const rec = file ? recordFor(tctx.session) : undefined;
      if (!file || !rec) return next(tctx);
      let change = rec.turn.files[file];
      if (!change) {
        const before = readContent(file);
        if (before === undefined) return next(tctx); // a directory, unreadable: not ours to restore
        const h = rec.store.put(before);
        change = { before: h, after: h };
        rec.turn.files[file] = change;
      }
      try {
        return await next(tctx);
      } finally {
        const after = readContent(file);
        if (after !== undefined) change.after = rec.store.put(after);
        rec.store.saveFile(rec.turn.id, file, change);
      }
    });

    // ------------------------------------------------------------ moves

    const hashOf = (file: string): string | null | undefined => {
      const c = readContent(file);
      return c === undefined ? undefined : c === null ? null : sha256(c);
    };

    /** Move the session from its active turn to `to` (an ancestor: undo; a descendant: redo). */
    const move = async (sid: string, to: number, opts: MoveOptions): Promise<MoveResult> => {
      const session = sessions.get(sid);
      if (session?.ext.has("engine:busy")) return { ok: false, reason: "busy", message: "a turn is running: stop it first (esc esc)" };
      const store = storeOf(sid);
      const from = store.active;
      if (from === to) return { ok: false, reason: "nothing", message: "nothing to move" };
      const fromPath = store.pathTo(from).map((t) => t.id);
      const toPath = store.pathTo(to).map((t) => t.id);
      // expected: what each file must hold now; target: what it will hold
      const expected = new Map<string, string | null>();
      const target = new Map<string, string | null>();
      if (fromPath.length > toPath.length) {
        // undo: the turns after `to`, newest first
        const chain = fromPath.slice(toPath.length).reverse().map((id) => store.get(id)!);
        for (const t of chain)
          for (const [f, c] of Object.entries(t.files)) {
            if (!expected.has(f)) expected.set(f, c.after);
            target.set(f, c.before);
          }
      } else {
        const chain = toPath.slice(fromPath.length).map((id) => store.get(id)!);
        for (const t of chain)
          for (const [f, c] of Object.entries(t.files)) {
            if (!expected.has(f)) expected.set(f, c.before);
            target.set(f, c.after);
          }
      }
      const changed = [...expected].filter(([f, h]) => hashOf(f) !== h).map(([f]) => f);
      if (changed.length && !opts.force) {
        return { ok: false, reason: "changed", files: changed, message: `changed outside the agent since the checkpoint: ${changed.join(", ")}` };
      }
      const restored: string[] = [];
      const removed: string[] = [];
      for (const [f, h] of target) {
        if (hashOf(f) === h) continue;
        if (h === null) {
          fs.rmSync(f, { force: true });
          removed.push(f);
        } else {
          fs.mkdirSync(path.dirname(f), { recursive: true });
          fs.writeFileSync(f, store.object(h));
          restored.push(f);
        }
      }
      store.setActive(to);
      const l = ledger();
      if (l?.enabled) {
        try {
          l.setLeaf(sid, to === 0 ? "" : `r${store.get(to)!.lastSeq}`);
        } catch (e) {
          ctx.log.warn(`checkpoints: the ledger's journal leaf did not move (${e instanceof Error ? e.message : String(e)})`);
        }
      }
      return { ok: true, from, to, restored, removed };
    };

    const service: CheckpointsService = {
      turns: (sid) => storeOf(sid).turns.filter(Boolean),
      active: (sid) => storeOf(sid).active,
      activePath: (sid) => {
        const s = storeOf(sid);
        return s.pathTo(s.active);
      },
      dirOf,
      async undo(sid, opts = {}) {
        const s = storeOf(sid);
        const cur = s.get(s.active);
        if (!cur) return { ok: false, reason: "nothing", message: "nothing to undo" };
        return move(sid, cur.parent, opts);
      },
      async redo(sid, opts = {}) {
        const s = storeOf(sid);
        // the newest turn run on top of the active one
        const child = [...s.turns].reverse().find((t) => t && t.parent === s.active);
        if (!child) return { ok: false, reason: "nothing", message: "nothing to redo" };
        return move(sid, child.id, opts);
      },
      async rewind(sid, to, opts = {}) {
        const s = storeOf(sid);
        if (to !== 0 && !s.pathTo(s.active).some((t) => t.id === to)) return { ok: false, reason: "nothing", message: `turn ${to} is not on the session's active path` };
        return move(sid, to, opts);
      },
    };
    ctx.provide("checkpoints", service);
    const routes = ctx.services.tryGet("routes");
    if (routes) for (const r of checkpointRoutes(service, ctx.paths.project)) routes.add(r, ctx.id);

    // ------------------------------------------------------------ slash commands

    const rel = (cwd: string | undefined, f: string): string => (cwd ? path.relative(cwd, f) || f : f);
    const describe = (host: SlashHost, verb: string, r: Extract<MoveResult, { ok: true }>, store: SessionStore, label?: string): string => {
      const cwd = typeof host.cwd === "string" ? host.cwd : undefined;
      const parts = [...r.restored.map((f) => `restored ${rel(cwd, f)}`), ...r.removed.map((f) => `removed ${rel(cwd, f)}`)];
      const t = store.get(verb === "redid" ? r.to : r.from);
      const head = label ?? `${verb} turn ${t?.id ?? r.to}${t ? ` ("${t.title}")` : ""}`;
      return `${head}${parts.length ? `: ${parts.join(", ")}` : ": no files changed"}`;
    };
    /** Run a move; over files changed outside, ask a pager (its picker as the question), else refuse naming them. */
    const run = async (host: SlashHost, verb: string, go: (opts: MoveOptions) => Promise<MoveResult>, label?: string): Promise<void> => {
      const sid = host.sessionId;
      if (!sid) return host.reply(`/${verb}: no session yet`);
      let r = await go({});
      if (!r.ok && r.reason === "changed") {
        const cwd = typeof host.cwd === "string" ? host.cwd : undefined;
        const names = r.files.map((f) => rel(cwd, f)).join(", ");
        const pick = host.pick as ((title: string, items: Array<{ id: string; label: string }>) => Promise<string | undefined>) | undefined;
        if (typeof pick === "function") {
          const a = await pick.call(host, `CHANGED OUTSIDE THE AGENT since the checkpoint: ${names} — overwrite?`, [
            { id: "no", label: `keep them (cancel /${verb})` },
            { id: "yes", label: `overwrite ${names}` },
          ]);
          if (a === "yes") r = await go({ force: true });
          else return host.reply(`/${verb} cancelled: ${names} kept as they are`);
        } else {
          return (host.fail ?? host.reply).call(host, `/${verb} refused: changed outside the agent since the checkpoint: ${names} (nothing was changed)`);
        }
      }
      if (!r.ok) return (r.reason === "busy" ? (host.fail ?? host.reply) : host.reply).call(host, `/${verb}: ${r.message}`);
      host.reply(describe(host, verb === "redo" ? "redid" : "undid", r, storeOf(sid), label));
    };

    ctx.registerSlash("undo", (_args, host) => run(host, "undo", (o) => service.undo(host.sessionId!, o)));
    ctx.registerSlash("redo", (_args, host) => run(host, "redo", (o) => service.redo(host.sessionId!, o)));
    ctx.registerSlash("rewind", async (args, host) => {
      const sid = host.sessionId;
      if (!sid) return host.reply("/rewind: no session yet");
      const list = service.activePath(sid);
      if (!list.length) return host.reply("/rewind: nothing to rewind");
      let choice = args.trim();
      if (!choice) {
        const pick = host.pick as ((title: string, items: Array<{ id: string; label: string }>) => Promise<string | undefined>) | undefined;
        const items = list.map((t, i) => ({ id: String(i + 1), label: `${i + 1}  ${t.title}  (${Object.keys(t.files).length} files)` })).reverse();
        if (typeof pick !== "function") return host.reply(["/rewind <n> goes back to before user turn n:", ...items.map((i) => `  ${i.label}`)].join("\n"));
        const got = await pick.call(host, "REWIND — go back to before this turn", items);
        if (!got) return host.reply("rewind cancelled");
        choice = got;
      }
      const n = Number(choice);
      if (!Number.isInteger(n) || n < 1 || n > list.length) return host.reply(`/rewind: '${choice}' is not a turn (1-${list.length})`);
      const t = list[n - 1]!;
      await run(host, "rewind", (o) => service.rewind(sid, t.parent, o), `rewound to before turn ${n} ("${t.title}")`);
    });
  },
};
