/**
 * The repo bit of ~/.oceancode/trust.json, read by the kernel itself. Config is layered before any
 * extension code runs (manifest first), so the gate that keeps an untrusted checkout's config
 * tighten-only cannot wait for the trust extension; it reads the same documented file. Tolerant:
 * a missing, unreadable or corrupt file means "not trusted".
 */
import fs from "node:fs";
import path from "node:path";

export function repoTrustedOnDisk(userOcDir: string, project: string): boolean {
  try {
    const data = JSON.parse(fs.readFileSync(path.join(userOcDir, "trust.json"), "utf8")) as unknown;
    if (!data || typeof data !== "object" || Array.isArray(data)) return false;
    const rec = (data as Record<string, unknown>)[path.resolve(project)];
    return !!rec && typeof rec === "object" && (rec as Record<string, unknown>).repo === true;
  } catch {
    return false;
  }
}
