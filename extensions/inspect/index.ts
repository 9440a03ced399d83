/** `oceancode inspect [--json]`: a provenance report built from the kernel's introspection. Boots nothing else. */
import { parseArgs } from "node:util";
import { hookRows, hooksText } from "./hooks-order.js";
import type { ExtensionContext, CommandIO, KernelIntrospection } from "../../kernel/api.js";
import type { InspectRow, InspectRowProvider, InspectService } from "./api.js";
import { redactUrl } from "../storage-postgres/kit.js";
import type { RouteRegistry } from "../serve/api.js";
import { configRoutes } from "./routes.js";

export type { InspectRow };

/** Where a config key's winning value came from: its file, the variable ($OC_MODEL), the flag (--model), or built-in. */
function sourceText(p: { layer: string; file?: string; source?: string }): string {
  if (p.file) return p.file;
  if (p.source) return p.layer === "env" ? `$${p.source}` : p.source;
  return "(built-in)";
}

/** A config value as shown: a URL's password (storage.url, a proxy, ...) never is. */
function shown(v: unknown): unknown {
  return typeof v === "string" ? redactUrl(v) : v;
}

export function inspectRows(info: KernelIntrospection, project?: string): InspectRow[] {
  const rows: InspectRow[] = [];
  for (const e of info.extensions) {
    rows.push({
      kind: "extension",
      id: e.qualifiedId,
      layer: e.tier,
      source: e.dir,
      state: e.state,
      ...(e.reason ? { reason: e.reason } : {}),
      ...(e.loadMs !== undefined ? { load_ms: Math.round(e.loadMs * 100) / 100 } : {}),
    });
  }
  const keys = [...info.config.provenance.keys()].sort();
  for (const k of keys) {
    const p = info.config.provenance.get(k)!;
    rows.push({ kind: "config", id: k, layer: p.layer, source: sourceText(p), value: shown(info.config.get(k)) });
  }
  // the host's settings that are not config keys (the project directory and home: kernel options), and where the project came from
  const host = info.config.layers.find((l) => l.name === "host")?.settings ?? [];
  if (project !== undefined && !host.some((h) => h.key === "paths.project")) rows.push({ kind: "path", id: "project", layer: "default", source: "(current directory)", value: project });
  for (const h of host) {
    if (h.config !== false) continue;
    const isPath = h.key.startsWith("paths.");
    rows.push({ kind: isPath ? "path" : "host", id: isPath ? h.key.slice("paths.".length) : h.key, layer: "host", source: h.flag, value: h.key === "paths.project" && project !== undefined ? project : h.value });
  }
  for (const h of info.config.held) {
    for (const key of h.keys) rows.push({ kind: "config", id: key, layer: "project", source: h.file, state: "held: untrusted", reason: "the repo is not trusted: oceancode trust repo on" });
  }
  // the kernel's hook error sink: taps that threw or timed out in this process, named by extension and hook
  for (const f of info.hookErrors ?? []) {
    const ext = info.extensions.find((e) => e.id === f.tap);
    rows.push({ kind: "hook-error", id: `${f.hook}:${f.tap}`, layer: ext?.tier ?? "kernel", source: ext?.dir ?? f.tap, state: f.code, reason: `${f.message}${f.count > 1 ? ` (${f.count} times)` : ""}` });
  }
  for (const p of info.points) rows.push({ kind: "point", id: p.name, layer: "contribution", source: p.owner, state: p.contributors.join(", ") || "(none)", reason: p.doc });
  rows.push({ kind: "requirements", id: "requirements.json", layer: "requirements", source: info.requirements.file, state: info.requirements.status, ...(info.requirements.reason ? { reason: info.requirements.reason } : {}) });
  return rows;
}

function table(rows: InspectRow[]): string {
  const cols = rows.map((r) => [r.kind, r.id, r.layer, r.state ?? (r.value !== undefined ? JSON.stringify(r.value) : ""), r.load_ms !== undefined ? `${r.load_ms}ms` : "", r.source, r.reason ?? ""]);
  const head = ["KIND", "ID", "LAYER", "STATE/VALUE", "LOAD", "SOURCE", "WHY"];
  const widths = head.map((h, i) => Math.min(60, Math.max(h.length, ...cols.map((c) => String(c[i]).length))));
  const fmt = (c: string[]) => c.map((v, i) => (i === c.length - 1 ? v : String(v).slice(0, 60).padEnd(widths[i]!))).join("  ").trimEnd();
  return [fmt(head), ...cols.map(fmt)].join("\n");
}

export default {
  activate(ctx: ExtensionContext) {
    const providers: InspectRowProvider[] = [];
    const service: InspectService = { addRows: (p) => void providers.push(p) };
    ctx.provide("inspect", service);
    const routes = ctx.services.tryGet("routes");
    if (routes) for (const r of configRoutes(() => ctx.introspect(), ctx.paths.project)) routes.add(r, ctx.id);
    ctx.registerCommand("inspect", async (argv: string[], io: CommandIO) => {
      let json = false;
      let hooks = false;
      let errors = false;
      try {
        const v = parseArgs({ args: argv, options: { json: { type: "boolean" }, hooks: { type: "boolean" }, errors: { type: "boolean" } }, strict: true }).values;
        json = v.json === true;
        hooks = v.hooks === true;
        errors = v.errors === true;
      } catch (e) {
        io.stderr.write(`oceancode inspect: ${(e as Error).message}\nusage: oceancode inspect [--hooks] [--errors] [--json]\n`);
        return 2;
      }
      if (errors) return (await import("./errors-command.js")).errorsCommand(ctx.introspect(), io, json);
      if (hooks) {
        // the extensions a session loads tap as they activate: load them, run no hook
        await ctx.activate("onSession");
        const rows = hookRows(ctx.introspect().hooks ?? []);
        io.stdout.write(json ? `${JSON.stringify(rows, null, 2)}\n` : `${hooksText(rows)}\n`);
        return 0;
      }
      // capability extensions (hooks, ...) load now and add their rows; nothing runs, files are only read
      await ctx.activate("onEvent:inspect");
      const rows = inspectRows(ctx.introspect(), ctx.paths.project);
      for (const p of providers) {
        try {
          rows.push(...(await p()));
        } catch (e) {
          rows.push({ kind: "error", id: "inspect", layer: "-", source: "-", reason: (e as Error).message });
        }
      }
      io.stdout.write(json ? `${JSON.stringify(rows, null, 2)}\n` : `${table(rows)}\n`);
      return 0;
    });
  },
};
