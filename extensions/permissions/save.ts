/** Save an "always" answer as a rule in the project's local config (.oceancode/oceancode.json). */
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { ParseError } from "jsonc-parser";

type JsoncParser = typeof import("jsonc-parser");
let lib: JsoncParser | undefined;
/** loaded on the first saved rule: every session activates this extension, few save an "always" answer */
function jsoncLib(): JsoncParser {
  lib ??= createRequire(import.meta.url)("jsonc-parser") as JsoncParser;
  return lib;
}

export function projectConfigFile(project: string): string {
  return path.join(project, ".oceancode", "oceancode.json");
}

/**
 * Append `rule` to the file's `permission` list, keeping every other key and comment. Atomic: written
 * to a temp file beside it, then renamed over it. A rule already present is not added twice.
 */
export function saveRule(project: string, rule: string): string {
  const file = projectConfigFile(project);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  let text = "{}\n";
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
  }
  if (text.trim() === "") text = "{}\n";
  const jsonc = jsoncLib();
  const errors: ParseError[] = [];
  const doc = jsonc.parse(text, errors, { allowTrailingComma: true }) as unknown;
  if (errors.length || typeof doc !== "object" || doc === null || Array.isArray(doc)) {
    throw new Error(`${file}: not a JSON object; the rule "${rule}" was not saved (fix the file and answer again)`);
  }
  const list = (doc as { permission?: unknown }).permission;
  if (Array.isArray(list) && list.includes(rule)) return file;
  const fmt = { formattingOptions: { insertSpaces: true, tabSize: 2 } };
  const edits = Array.isArray(list)
    ? jsonc.modify(text, ["permission", -1], rule, { ...fmt, isArrayInsertion: true })
    : jsonc.modify(text, ["permission"], [rule], fmt);
  const out = jsonc.applyEdits(text, edits);
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  fs.writeFileSync(tmp, out.endsWith("\n") ? out : `${out}\n`);
  fs.renameSync(tmp, file);
  return file;
}

/**
 * Take `rule` out of the file's `permission` list (every copy), keeping every other key and comment.
 * False when the file does not list it (nothing is written). Atomic like saveRule.
 */
export function removeRule(project: string, rule: string): boolean {
  const file = projectConfigFile(project);
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw e;
  }
  const jsonc = jsoncLib();
  const errors: ParseError[] = [];
  const doc = jsonc.parse(text, errors, { allowTrailingComma: true }) as unknown;
  if (errors.length || typeof doc !== "object" || doc === null || Array.isArray(doc)) {
    throw new Error(`${file}: not a JSON object; the rule "${rule}" was not removed (fix the file first)`);
  }
  const list = (doc as { permission?: unknown }).permission;
  if (!Array.isArray(list) || !list.includes(rule)) return false;
  let out = text;
  // from the last copy back, so the earlier indexes stay right
  for (let i = list.length - 1; i >= 0; i--) {
    if (list[i] === rule) out = jsonc.applyEdits(out, jsonc.modify(out, ["permission", i], undefined, { formattingOptions: { insertSpaces: true, tabSize: 2 } }));
  }
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  fs.writeFileSync(tmp, out.endsWith("\n") ? out : `${out}\n`);
  fs.renameSync(tmp, file);
  return true;
}
