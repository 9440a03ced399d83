/**
 * OpenCode agents declared in its config file (smaller finding 50), not only as agent/*.md files:
 *   opencode.json(c) `agent: {<name>: {description, mode, model, prompt, tools: {write: false}, disable}}`
 *   (and the newer spelling `agents: {<name>: {description, mode, model, system, disabled}}`)
 * read from `.opencode/opencode.json(c)` and `~/.config/opencode/opencode.json(c)` (the opencode walk roots),
 * and from the project's own `opencode.json(c)` (a repo-tier root of its own: the file came with the
 * checkout). Each entry becomes the AgentSpec an OpenCode agent file would: `mode: primary` or disable
 * means not a sub-agent, `tools` false turns a tool off. A `prompt` of `{file:./x.md}` is read relative to
 * the config file, only inside its root (never a path out of the project or the config folder). Reading
 * runs nothing: the entries are inert data under the same trust rules as the other repo-supplied agents.
 */
import fs from "node:fs";
import path from "node:path";
import { jsoncObject } from "../../kernel/api.js";
import { visibleLine } from "../obs/kit.js";
import type { AgentSpec, ToolSelection } from "./api.js";

const NAME_OK = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
/** a `{file:…}` prompt read at most */
const MAX_PROMPT_BYTES = 256 * 1024;

export interface ConfigAgent extends AgentSpec {
  /** the config file that declared it */
  file: string;
}

/** The first of `opencode.jsonc` / `opencode.json` in `dir` that exists. */
export function configFile(dir: string): string | undefined {
  for (const f of ["opencode.jsonc", "opencode.json"]) {
    const p = path.join(dir, f);
    if (fs.statSync(p, { throwIfNoEntry: false })?.isFile()) return p;
  }
  return undefined;
}

function str(v: unknown): string | undefined {
  return typeof v === "string" && v.trim() ? v.trim() : undefined;
}

function tools(v: unknown): ToolSelection {
  if (!v || typeof v !== "object" || Array.isArray(v)) return { mode: "all" };
  const off = Object.entries(v as Record<string, unknown>)
    .filter(([, on]) => on === false)
    .map(([k]) => k);
  return off.length ? { mode: "deny", names: off } : { mode: "all" };
}

/** `{file:path}`: the file's text when it resolves (symlinks followed) inside `root`; else a warning. */
function promptText(raw: string, file: string, root: string): { text: string; warning?: string } {
  const m = /^\{file:(.+)\}$/.exec(raw.trim());
  if (!m) return { text: raw };
  const want = m[1]!.trim();
  const fail = (why: string) => ({ text: "", warning: `prompt {file:${want}}: ${why}; the agent has no prompt of its own` });
  try {
    const real = fs.realpathSync(path.resolve(path.dirname(file), want));
    const base = fs.realpathSync(root);
    if (real !== base && !real.startsWith(base + path.sep)) return fail(`outside ${root}, not read`);
    const st = fs.statSync(real);
    if (!st.isFile()) return fail("not a file");
    if (st.size > MAX_PROMPT_BYTES) return fail(`over ${MAX_PROMPT_BYTES} bytes`);
    return { text: fs.readFileSync(real, "utf8") };
  } catch (e) {
    return fail((e as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (e as Error).message);
  }
}

/**
 * The agents one OpenCode config file declares. `root` bounds what a `{file:}` prompt may read (the
 * project for the project's files, the config folder for the user's). A file that does not parse gives no
 * agents (the MCP sources, which read the same file, name it in their warning).
 */
export function readConfigAgents(file: string, root: string): ConfigAgent[] {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch {
    return [];
  }
  const doc = jsoncObject(text);
  if (!doc) return [];
  const out: ConfigAgent[] = [];
  for (const key of ["agent", "agents"] as const) {
    const block = doc[key];
    if (!block || typeof block !== "object" || Array.isArray(block)) continue;
    for (const [name, raw] of Object.entries(block as Record<string, unknown>)) {
      if (!raw || typeof raw !== "object" || Array.isArray(raw)) continue;
      const e = raw as Record<string, unknown>;
      const warnings: string[] = [];
      let id = name;
      if (!NAME_OK.test(id)) {
        id = name.replace(/[^A-Za-z0-9_.-]+/g, "-").replace(/^[^A-Za-z0-9]+|-+$/g, "").slice(0, 64) || "agent";
        warnings.push(`'${visibleLine(name.slice(0, 80))}' is not a valid agent name; loaded as '${id}'`);
      }
      const body = str(e.prompt) ?? str(e.system) ?? "";
      const p = promptText(body, file, root);
      if (p.warning) warnings.push(p.warning);
      const mode = str(e.mode);
      const model = str(e.model);
      const prompt = p.text.trim();
      // `agent` before `agents`: the first spelling of a name wins
      if (out.some((a) => a.name === id)) continue;
      out.push({
        name: id,
        description: (str(e.description) ?? (prompt.split("\n")[0]?.slice(0, 200) || id)).replace(/\s+/g, " "),
        prompt,
        tools: tools(e.tools),
        ...(model ? { model } : {}),
        invocable: !(mode === "primary" || e.disable === true || e.disabled === true),
        file,
        ...(warnings.length ? { warning: `${file}: ${key}.${id}: ${warnings.join("; ")}` } : {}),
      });
    }
  }
  return out;
}
