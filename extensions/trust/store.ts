/** trust.json on disk: tolerant reads (corrupt = nothing trusted), atomic writes (temp file + rename). */
import fs from "node:fs";
import path from "node:path";
import { type ProjectTrust, type TrustService } from "./api.js";
import { emptyTrust } from "./kit/shared.js";
import { TrustFileInvalid } from "./errors.js";
import { writeFileAtomic } from "../../kernel/api.js";

type FileShape = Record<string, Partial<ProjectTrust>>;

type ReadResult = { ok: true; data: FileShape } | { ok: false; error: string };

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
}

/** Normalise one project's record: unknown or mistyped fields fall back to "not trusted". */
export function normalise(raw: unknown): ProjectTrust {
  const t = emptyTrust();
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return t;
  const r = raw as Record<string, unknown>;
  t.repo = r.repo === true;
  if (r.mcp && typeof r.mcp === "object" && !Array.isArray(r.mcp)) {
    for (const [k, v] of Object.entries(r.mcp as Record<string, unknown>)) if (typeof v === "boolean") t.mcp[k] = v;
  }
  t.disabled_mcp = strings(r.disabled_mcp);
  t.enabled_mcp = strings(r.enabled_mcp);
  t.enabled_skills = strings(r.enabled_skills);
  t.everything_off = r.everything_off === true;
  return t;
}

export class TrustStore implements TrustService {
  private warned = false;
  constructor(
    readonly file: string,
    private readonly warn: (msg: string) => void,
  ) {}

  private read(): ReadResult {
    let text: string;
    try {
      text = fs.readFileSync(this.file, "utf8");
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return { ok: true, data: {} };
      return { ok: false, error: (e as Error).message };
    }
    if (text.trim() === "") return { ok: true, data: {} };
    try {
      const v = JSON.parse(text) as unknown;
      if (!v || typeof v !== "object" || Array.isArray(v)) return { ok: false, error: "the top level must be an object keyed by project path" };
      return { ok: true, data: v as FileShape };
    } catch (e) {
      return { ok: false, error: (e as Error).message };
    }
  }

  get(project: string): ProjectTrust {
    const r = this.read();
    if (!r.ok) {
      if (!this.warned) this.warn(`${this.file} is corrupt (${r.error}); treating it as "nothing trusted" — fix or delete it`);
      this.warned = true;
      return emptyTrust();
    }
    return normalise(r.data[path.resolve(project)]);
  }

  problem(): string | undefined {
    const r = this.read();
    return r.ok ? undefined : r.error;
  }

  repoTrusted(project: string): boolean {
    return this.get(project).repo;
  }

  mcpTrusted(project: string, name: string): boolean {
    const t = this.get(project);
    return t.mcp[name] ?? t.repo;
  }

  update(project: string, change: (t: ProjectTrust) => void): ProjectTrust {
    const r = this.read();
    if (!r.ok) throw TrustFileInvalid({ file: this.file, detail: r.error });
    const key = path.resolve(project);
    const t = normalise(r.data[key]);
    change(t);
    r.data[key] = t;
    writeFileAtomic(this.file, `${JSON.stringify(r.data, null, 2)}\n`);
    return t;
  }
}

