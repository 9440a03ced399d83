/**
 * Session slash commands: /help, /clear, /exit, /models, /resume. Each calls an action on the host
 * (PagerSlashHost); lists come from manifests (/help), the engine's model catalogue (/models) and the
 * storage service (/resume), all optional.
 */
import type { ExtensionContext, SlashHost } from "../../kernel/api.js";
import type { EngineService } from "../engine/api.js";
import type { StorageService } from "../storage/api.js";
import { type HelpSection, type PagerSlashHost } from "./api.js";
import { isPagerSlashHost } from "./kit/shared.js";

/** The pager's keys, for /help (and the `?` key). */
export const KEYS_HELP: Array<[string, string]> = [
  ["enter", "send"],
  ["shift+enter, alt+enter, \\+enter", "newline"],
  ["↑ ↓", "history"],
  ["/", "commands (tab completes)"],
  ["esc esc", "stop the running turn"],
  ["shift+tab", "cycle modes: default → auto (edits run without asking) → plan"],
  ["ctrl+o", "always-approve on/off (unless managed settings lock it)"],
  ["ctrl+r", "expand tool output"],
  ["ctrl+t", "todos pane"],
  ["ctrl+c", "stop / clear / quit"],
  ["ctrl+d", "quit on an empty line"],
];

/** /help's sections: every slash command with its aliases, then the keys. */
export function helpSections(ctx: Pick<ExtensionContext, "contributions">): HelpSection[] {
  const rows: Array<[string, string]> = [];
  for (const c of ctx.contributions()) {
    for (const s of c.manifest.contributes?.slashCommands ?? []) {
      // the other names a command answers to are listed with it (e.g. /clear (also /new))
      const aliases = s.aliases ?? [];
      rows.push([s.usage ?? `/${s.name}`, `${s.summary}${aliases.length ? ` (also ${aliases.map((a) => `/${a}`).join(", ")})` : ""}`]);
    }
  }
  rows.sort((a, b) => a[0].localeCompare(b[0]));
  return [
    { title: "Slash commands", rows },
    { title: "Keys", rows: KEYS_HELP },
  ];
}

/** The sections as padded text (hosts that cannot lay out a table). */
export function helpText(ctx: Pick<ExtensionContext, "contributions">): string {
  const out: string[] = [];
  for (const sec of helpSections(ctx)) {
    const w = Math.min(28, Math.max(...sec.rows.map((r) => r[0].length)));
    out.push(`${sec.title}:`, ...sec.rows.map(([u, s]) => `  ${u.padEnd(w)}  ${s}`));
  }
  return out.join("\n");
}

function ago(ms: number): string {
  const s = Math.max(0, Math.round((Date.now() - ms) / 1000));
  if (s < 90) return `${s}s ago`;
  if (s < 5400) return `${Math.round(s / 60)}m ago`;
  if (s < 129600) return `${Math.round(s / 3600)}h ago`;
  return `${Math.round(s / 86400)}d ago`;
}

function cannot(host: SlashHost, what: string): void {
  host.reply(`${what} is not available in this host`);
}

function pagerHost(host: SlashHost, what: string): PagerSlashHost | undefined {
  if (isPagerSlashHost(host)) return host;
  cannot(host, what);
  return undefined;
}

export default {
  activate(ctx: ExtensionContext) {
    const engine = () => ctx.services.tryGet("engine");
    const storage = () => ctx.services.tryGet("storage");

    ctx.registerSlash("help", (_args, host) => {
      if (isPagerSlashHost(host) && host.table) host.table(helpSections(ctx));
      else host.reply(helpText(ctx));
    });

    for (const [name, mode] of [
      ["auto", "acceptEdits"],
      ["always-approve", "bypassPermissions"],
    ] as const) {
      ctx.registerSlash(name, async (_args, host) => {
        const h = pagerHost(host, `/${name}`);
        if (!h) return;
        if (!h.setMode) return cannot(h, `/${name}`);
        h.reply(await h.setMode(mode));
      });
    }

    ctx.registerSlash("exit", (_args, host) => {
      const h = pagerHost(host, "/exit");
      if (!h?.exit) return h && cannot(h, "/exit");
      h.exit();
    });

    ctx.registerSlash("clear", async (_args, host) => {
      const h = pagerHost(host, "/clear");
      if (!h?.newSession) return h && cannot(h, "/clear");
      const id = await h.newSession();
      h.reply(`new session ${id}`);
    });

    ctx.registerSlash("models", async (args, host) => {
      const h = pagerHost(host, "/models");
      if (!h) return;
      const e = engine();
      if (!e) return h.reply("/models: the engine is not loaded");
      if (!h.setModel) return cannot(h, "/models");
      // the catalogue of loaded providers, then what the other provider manifests list (finding 23: no provider need load)
      const loaded = e.models.list();
      const listed = ctx
        .contributions<Array<{ id: string }>>("models")
        .flatMap((c) => c.value.map((m) => m.id))
        .filter((id) => !loaded.some((m) => m.id === id));
      const models = [...loaded.map((m) => ({ id: m.id, label: `${m.id}  ${Math.round(m.contextWindow / 1000)}k ctx${m.known ? "" : " (defaults)"}` })), ...listed.map((id) => ({ id, label: id }))];
      let chosen: string | undefined = args.trim() || undefined;
      if (!chosen) {
        if (!h.pick) return h.reply(models.map((m) => m.id).join("\n"));
        chosen = await h.pick("MODEL — pick the model for your next message", models, h.currentModel?.());
        if (!chosen) return h.reply("model unchanged");
      }
      // `/models opus`: aliases and bare ids as -m takes them; a mistyped one names the nearest
      try {
        chosen = e.resolveModel(chosen);
        const unready = await e.checkModel(chosen);
        if (unready) h.reply(`/models: ${unready}`);
      } catch (err) {
        return h.reply(`/models: ${(err as Error).message}`);
      }
      h.setModel(chosen);
      h.reply(`model: ${chosen} (from your next message on)`);
    });

    ctx.registerSlash("resume", async (args, host) => {
      const h = pagerHost(host, "/resume");
      if (!h) return;
      if (!h.resume) return cannot(h, "/resume");
      let id: string | undefined = args.trim() || undefined;
      if (!id) {
        const s = storage();
        if (!s) return h.reply("/resume: sessions are not stored (the storage extension is off)");
        await s.settle();
        const list = (await s.listSessions({ cwd: h.cwd, limit: 50 })).filter((x) => x.id !== h.sessionId);
        if (!list.length) return h.reply("/resume: no earlier sessions in this directory");
        if (!h.pick) return h.reply(list.map((x) => `${x.id}  ${x.title ?? ""}`).join("\n"));
        const items = list.map((x) => ({ id: x.id, label: `${ago(x.updatedAt)}  ${x.turns} turns  ${(x.title ?? x.id).slice(0, 50)}` }));
        id = await h.pick("SESSIONS — resume one", items);
        if (!id) return h.reply("resume cancelled");
      }
      await h.resume(id);
    });
  },
};
