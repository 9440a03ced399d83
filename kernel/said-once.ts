/**
 * Warnings said once per version of a file, not on every command run (smaller finding 51): the key is
 * the file's path and content, remembered in <stateDir>/said-once.json (the newest 256). A file edited
 * is a new version and is said again. A state dir that cannot be read or written says it every time.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { writeFileAtomic } from "./files.js";

const KEEP = 256;

/** Which of `items` ({file, text}) were not yet said for their file's current content; those are remembered now. */
export function sayOncePerFile(stateDir: string, items: ReadonlyArray<{ file: string; text: string }>): string[] {
  if (!items.length) return [];
  const store = path.join(stateDir, "said-once.json");
  let seen: string[] = [];
  try {
    const v: unknown = JSON.parse(fs.readFileSync(store, "utf8"));
    if (Array.isArray(v)) seen = v.filter((x): x is string => typeof x === "string");
  } catch {
    // absent or unreadable: nothing said yet
  }
  const out: string[] = [];
  for (const { file, text } of items) {
    let content = "";
    try {
      content = fs.readFileSync(file, "utf8");
    } catch {
      out.push(text);
      continue;
    }
    const key = crypto.createHash("sha256").update(`${path.resolve(file)}\0${content}\0${text}`).digest("hex").slice(0, 32);
    if (seen.includes(key)) continue;
    seen.push(key);
    out.push(text);
  }
  if (!out.length) return out; // all said before: nothing new to remember, so no write on every command
  try {
    fs.mkdirSync(stateDir, { recursive: true });
    writeFileAtomic(store, JSON.stringify(seen.slice(-KEEP)));
  } catch {
    // not remembered: said again next time
  }
  return out;
}
