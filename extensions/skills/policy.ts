/**
 * The project policy (`skills` config section), re-read when the project's config file changes, so an
 * edit to `.oceancode/oceancode.json` lands on a running session's next step like a toggle does.
 *
 * The kernel resolves config once per process. On a change, this re-merges the `skills` values of the
 * layers the kernel resolved, with the project file's fresh value in the project layer's place (objects
 * key by key, arrays replace: the kernel's rule). An untrusted project layer is tighten-only, a rule the
 * kernel applies; then, and whenever the fresh file does not parse or is not a valid policy, the policy
 * resolved at start stays (one warning), and the edit applies from the next start.
 */
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import type { ExtensionContext } from "../../kernel/api.js";
import type { SkillsPolicy } from "./enable.js";
import { stampOf } from "./user-store.js";

type Layer = ExtensionContext["config"]["layers"][number];

function validPolicy(v: unknown): v is SkillsPolicy {
  if (v === undefined) return true;
  if (!v || typeof v !== "object" || Array.isArray(v)) return false;
  const p = v as Record<string, unknown>;
  const strings = (x: unknown) => x === undefined || (Array.isArray(x) && x.every((e) => typeof e === "string"));
  return (p.mode === undefined || p.mode === "all" || p.mode === "allowlist") && strings(p.enabled) && strings(p.disabled) && Object.keys(p).every((k) => ["mode", "enabled", "disabled"].includes(k));
}

function readSkills(file: string): { ok: true; value: unknown } | { ok: false; error: string } {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "ENOENT" ? { ok: true, value: undefined } : { ok: false, error: (e as Error).message };
  }
  if (!text.trim()) return { ok: true, value: undefined };
  const jsonc = createRequire(import.meta.url)("jsonc-parser") as typeof import("jsonc-parser");
  const errors: import("jsonc-parser").ParseError[] = [];
  const doc = jsonc.parse(text, errors, { allowTrailingComma: true }) as unknown;
  if (errors.length || !doc || typeof doc !== "object" || Array.isArray(doc)) return { ok: false, error: "not a JSON object" };
  return { ok: true, value: (doc as Record<string, unknown>).skills };
}

function merge(into: Record<string, unknown>, v: unknown): void {
  if (v && typeof v === "object" && !Array.isArray(v)) Object.assign(into, structuredClone(v));
}

export class LivePolicy {
  private readonly files: string[];
  private stamp: string;
  private value: SkillsPolicy;
  private warned = "";
  constructor(
    private readonly config: ExtensionContext["config"],
    project: string,
    private readonly warn: (msg: string) => void,
  ) {
    // the kernel's order: .jsonc, then .json over it
    this.files = ["oceancode.jsonc", "oceancode.json"].map((f) => path.join(project, ".oceancode", f));
    this.stamp = this.stampNow();
    this.value = config.section<SkillsPolicy>("skills");
  }

  private stampNow(): string {
    return this.files.map((f) => stampOf(f)).join("|");
  }

  /** The policy in force; a changed project file is re-read (one stat per file per call otherwise). */
  get(): SkillsPolicy {
    const now = this.stampNow();
    if (now === this.stamp) return this.value;
    this.stamp = now;
    const layers: readonly Layer[] = this.config.layers;
    const keep = (why: string) => {
      const msg = `${why}; the skills policy resolved at start stays until the next start`;
      if (msg !== this.warned) this.warn(msg);
      this.warned = msg;
      return this.value;
    };
    if (layers.some((l) => l.name === "project" && l.untrusted)) return keep("the project config changed, but this checkout is not trusted (tighten-only config)");
    if ([...this.config.provenance].some(([k, p]) => k.startsWith("skills") && p.layer === "requirements")) return keep("the skills policy is pinned by requirements");
    const fresh: unknown[] = [];
    for (const f of this.files) {
      const r = readSkills(f);
      if (!r.ok) return keep(`${f}: ${r.error}`);
      if (!validPolicy(r.value)) return keep(`${f}: skills is not a valid policy`);
      fresh.push(r.value);
    }
    const out: Record<string, unknown> = {};
    let placed = false;
    const placeProject = () => {
      if (!placed) for (const v of fresh) merge(out, v);
      placed = true;
    };
    for (const l of layers) {
      if (l.name === "project") {
        placeProject();
        continue;
      }
      if (l.name !== "default" && l.name !== "global") placeProject();
      merge(out, l.value.skills);
    }
    placeProject();
    this.value = out as SkillsPolicy;
    return this.value;
  }
}
