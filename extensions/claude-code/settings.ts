/**
 * The Claude Code settings mirror: the model, effort and ultracode switch Claude Code itself would start
 * with, from ~/.claude/settings.json, <project>/.claude/settings.json and .claude/settings.local.json
 * (lowest precedence first), merged per key and `modelSettings` per model. Managed settings are not read.
 */
import fs from "node:fs";
import path from "node:path";

type Json = Record<string, unknown>;

export interface MirrorFile {
  path: string;
  /** "missing", "ok" or why it could not be read */
  status: string;
}

export interface Mirror {
  /** the mirrored model (undefined: the files name none, or claude is not installed) */
  model?: string;
  /** the effort for the mirrored model */
  effort?: string;
  ultracode: boolean;
  files: MirrorFile[];
  /** false when claude is not installed: the settings are read and reported, nothing is mirrored */
  active: boolean;
  /** the effort for a model (its modelSettings entry, else the top-level effortLevel) */
  effortFor(model: string | undefined): string | undefined;
}

export function settingsFiles(home: string, project: string): string[] {
  return [path.join(home, ".claude", "settings.json"), path.join(project, ".claude", "settings.json"), path.join(project, ".claude", "settings.local.json")];
}

function obj(v: unknown): Json | undefined {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Json) : undefined;
}

const EFFORTS = new Set(["low", "medium", "high", "xhigh", "max"]);
function effortOf(o: Json | undefined): string | undefined {
  const v = o?.effortLevel ?? o?.effort;
  return typeof v === "string" && EFFORTS.has(v) ? v : undefined;
}

export function readMirror(files: readonly string[], installed: boolean): Mirror {
  const merged: Json = {};
  const perModel: Record<string, Json> = {};
  const report: MirrorFile[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = fs.readFileSync(file, "utf8");
    } catch {
      report.push({ path: file, status: "missing" });
      continue;
    }
    let data: Json | undefined;
    try {
      data = obj(JSON.parse(text));
    } catch (e) {
      report.push({ path: file, status: `invalid JSON (${e instanceof Error ? e.message.split("\n")[0] : String(e)})` });
      continue;
    }
    if (!data) {
      report.push({ path: file, status: "not an object" });
      continue;
    }
    report.push({ path: file, status: "ok" });
    for (const [k, v] of Object.entries(data)) if (k !== "modelSettings") merged[k] = v;
    for (const [m, s] of Object.entries(obj(data.modelSettings) ?? {})) {
      const o = obj(s);
      if (o) perModel[m] = { ...(perModel[m] ?? {}), ...o };
    }
  }
  const named = typeof merged.model === "string" && merged.model.trim() ? merged.model.trim() : undefined;
  const model = installed ? named : undefined;
  const effortFor = (m: string | undefined): string | undefined => (installed ? (effortOf(m ? perModel[m] : undefined) ?? effortOf(merged)) : undefined);
  const u = (model ? perModel[model]?.ultracode : undefined) ?? merged.ultracode;
  return { model, effort: effortFor(model), ultracode: installed && u === true, files: report, active: installed && model !== undefined, effortFor };
}

/** "Claude Code settings reloaded — <model> · effort <level> · ultracode on|off", as the guide words it. */
export function reloadNotice(m: Mirror): string {
  return `Claude Code settings reloaded — ${m.model ?? "(no model)"} · effort ${m.effort ?? "default"} · ultracode ${m.ultracode ? "on" : "off"}`;
}

/** What a notice compares: an unchanged rewrite is silent. */
export function mirrorKey(m: Mirror): string {
  return JSON.stringify([m.model, m.effort, m.ultracode]);
}

/**
 * Watch the .claude directories that exist now; `changed` runs once per burst of writes (~100 ms
 * debounce), well inside the guide's quarter second. Returns a stop.
 */
export function watchSettings(files: readonly string[], changed: () => void): () => void {
  const dirs = [...new Set(files.map((f) => path.dirname(f)))].filter((d) => fs.existsSync(d));
  const names = new Set(files.map((f) => path.basename(f)));
  let timer: NodeJS.Timeout | undefined;
  const watchers: fs.FSWatcher[] = [];
  for (const dir of dirs) {
    try {
      const w = fs.watch(dir, { persistent: false }, (_t, file) => {
        if (file && !names.has(String(file))) return;
        if (timer) clearTimeout(timer);
        timer = setTimeout(changed, 100);
        timer.unref();
      });
      w.on("error", () => undefined);
      watchers.push(w);
    } catch {
      // a directory that vanished between the check and the watch: read at the next start
    }
  }
  return () => {
    if (timer) clearTimeout(timer);
    for (const w of watchers) w.close();
  };
}
