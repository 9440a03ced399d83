/** Save an "always" answer as a rule in the project's local config (.oceancode/oceancode.json). */
import fs from "node:fs";
import path from "node:path";
import { editJsonc, readJsoncForEdit, writeFileAtomic } from "../../kernel/api.js";
import { RuleFileInvalid } from "./errors.js";

export function projectConfigFile(project: string): string {
  return path.join(project, ".oceancode", "oceancode.json");
}

/**
 * Append `rule` to the file's `permission` list, keeping every other key and comment. Atomic: written
 * to a temp file beside it, then renamed over it. A rule already present is not added twice.
 */
export function saveRule(project: string, rule: string): string {
  const file = projectConfigFile(project);
  const { text, object } = readJsoncForEdit(file);
  if (!object) throw RuleFileInvalid({ file, rule, done: "saved", fix: "fix the file and answer again" });
  const list = object.permission;
  if (Array.isArray(list) && list.includes(rule)) return file;
  const out = Array.isArray(list) ? editJsonc(text, ["permission"], rule, { append: true }) : editJsonc(text, ["permission"], [rule]);
  writeFileAtomic(file, out.endsWith("\n") ? out : `${out}\n`, 0o644);
  return file;
}

/**
 * Take `rule` out of the file's `permission` list (every copy), keeping every other key and comment.
 * False when the file does not list it (nothing is written). Atomic like saveRule.
 */
export function removeRule(project: string, rule: string): boolean {
  const file = projectConfigFile(project);
  if (!fs.existsSync(file)) return false;
  const { text, object } = readJsoncForEdit(file);
  if (!object) throw RuleFileInvalid({ file, rule, done: "removed", fix: "fix the file first" });
  const list = object.permission;
  if (!Array.isArray(list) || !list.includes(rule)) return false;
  let out = text;
  // from the last copy back, so the earlier indexes stay right
  for (let i = list.length - 1; i >= 0; i--) if (list[i] === rule) out = editJsonc(out, ["permission", i], undefined);
  writeFileAtomic(file, out.endsWith("\n") ? out : `${out}\n`, 0o644);
  return true;
}
