/** The doctor's checks: each returns lines; a line with status "FAIL" counts as a problem. */
import fs from "node:fs";
import path from "node:path";
import type { KernelIntrospection, ExtensionState } from "../../kernel/api.js";

export type Status = "ok" | "info" | "warn" | "FAIL";
export interface CheckLine {
  status: Status;
  check: string;
  detail: string;
}

const line = (status: Status, check: string, detail: string): CheckLine => ({ status, check, detail });

/**
 * Config files. doctor boots the kernel tolerantly: a broken file or an invalid section is skipped with
 * a warning instead of stopping the boot, so doctor can name it here as a FAIL. It also re-checks
 * readability (a file can change under a long-lived host) and lists the absent ones.
 */
export function configChecks(info: KernelIntrospection): CheckLine[] {
  const out: CheckLine[] = [];
  const loaded = new Set(info.config.layers.map((l) => l.file).filter((f): f is string => typeof f === "string"));
  const files: Array<[string, string]> = [
    ...info.configFiles.global.map((f): [string, string] => ["global", f]),
    ...info.configFiles.project.map((f): [string, string] => ["project", f]),
    ["managed", info.configFiles.managed],
  ];
  for (const [layer, file] of files) {
    const check = `config ${layer} ${file}`;
    if (!fs.existsSync(file)) {
      out.push(line("info", check, "absent"));
      continue;
    }
    try {
      fs.accessSync(file, fs.constants.R_OK);
    } catch (e) {
      out.push(line("FAIL", check, `unreadable (${(e as NodeJS.ErrnoException).code ?? String(e)}); fix its permissions`));
      continue;
    }
    const broken = info.warnings.find((w) => w.startsWith("OC_ERR_CONFIG") && w.includes(file));
    const invalid = info.warnings.filter((w) => w.startsWith(`${file}:`) && w.includes("of this file ignored"));
    if (broken) out.push(line("FAIL", check, broken));
    else if (invalid.length) for (const w of invalid) out.push(line("FAIL", check, w));
    else out.push(line("ok", check, loaded.has(file) ? "parsed and valid" : "present"));
  }
  // every boot warning: config mistakes, held repo config, a replaced safety extension, refused pins
  for (const w of info.warnings) if (!w.startsWith("OC_ERR_CONFIG") && !w.includes("of this file ignored")) out.push(line("warn", "config", w));
  return out;
}

const STATES: ExtensionState[] = ["active", "lazy", "disabled", "held", "failed", "shadowed"];

export function extensionChecks(info: KernelIntrospection): CheckLine[] {
  const counts = new Map<ExtensionState, number>(STATES.map((s) => [s, 0]));
  for (const e of info.extensions) counts.set(e.state, (counts.get(e.state) ?? 0) + 1);
  const failed = counts.get("failed") ?? 0;
  const out: CheckLine[] = [
    // the summary is not a problem of its own: each failed extension gets its own FAIL line
    line(failed ? "warn" : "ok", "extensions", STATES.map((s) => `${s}=${counts.get(s) ?? 0}`).join(" ")),
  ];
  for (const e of info.extensions) {
    if (e.state === "failed") out.push(line("FAIL", `extension ${e.qualifiedId} (${e.tier})`, `failed: ${e.reason ?? "unknown"}`));
    else if (e.state === "held" || e.state === "disabled") out.push(line("info", `extension ${e.qualifiedId} (${e.tier})`, `${e.state}: ${e.reason ?? ""}`));
  }
  // the kernel's hook error sink: taps that threw or timed out in this process
  for (const f of info.hookErrors ?? []) {
    out.push(line("warn", `hook ${f.hook} tap ${f.tap}`, `${f.code}: ${f.message}${f.count > 1 ? ` (${f.count} times)` : ""}`));
  }
  return out;
}

export function requirementsCheck(info: KernelIntrospection): CheckLine {
  const r = info.requirements;
  const check = `requirements ${r.file}`;
  switch (r.status) {
    case "applied":
      return line("ok", check, "signature valid, applied");
    case "absent":
      return line("info", check, "absent");
    case "not-enforced":
      return line("warn", check, `not enforced: ${r.reason ?? "no OC_REQUIREMENTS_PUBKEY"}`);
    default:
      return line("FAIL", check, `refused: ${r.reason ?? "invalid"}`);
  }
}

/** Below this much free space a long session may not fit (a warning); below FULL_BYTES nothing is stored (a FAIL). */
export const LOW_SPACE_BYTES = 256 * 1024 * 1024;
export const FULL_BYTES = 1024 * 1024;

const mib = (n: number): string => (n >= 10 * 1024 * 1024 ? `${Math.floor(n / 1048576)} MiB` : `${n} bytes`);

/** Free space where the data dir is (statfs: what an unprivileged writer gets); undefined when it cannot be asked. */
export function freeBytes(dir: string): number | undefined {
  try {
    const s = fs.statfsSync(dir);
    return s.bavail * s.bsize;
  } catch {
    return undefined;
  }
}

/** A writable place is only healthy with room in it: an empty probe file still fits on a full disk. */
function withSpace(check: string, dir: string, ok: string): CheckLine {
  const free = freeBytes(dir);
  if (free === undefined) return line("ok", check, `${ok} (free space unknown)`);
  if (free < FULL_BYTES) return line("FAIL", check, `${ok} but full: ${mib(free)} free; sessions and their ledger cannot be stored until space is freed`);
  if (free < LOW_SPACE_BYTES) return line("warn", check, `${ok}, only ${mib(free)} free (under ${mib(LOW_SPACE_BYTES)}): a long session may not fit`);
  return line("ok", check, `${ok}, ${mib(free)} free`);
}

/** Writable data dir: probe with a real write when it exists, else the nearest existing parent; and its free space. */
export function dataDirCheck(dataDir: string): CheckLine {
  const check = `data dir ${dataDir}`;
  if (fs.existsSync(dataDir)) {
    const probe = path.join(dataDir, `.doctor-${process.pid}`);
    try {
      fs.writeFileSync(probe, "x"); // one byte: a zero-byte file fits on a full disk
      fs.rmSync(probe, { force: true });
      return withSpace(check, dataDir, "writable");
    } catch (e) {
      fs.rmSync(probe, { force: true });
      if ((e as NodeJS.ErrnoException).code === "ENOSPC") return line("FAIL", check, `full: no space left on the device (${mib(freeBytes(dataDir) ?? 0)} free); free some space`);
      return line("FAIL", check, `not writable (${(e as NodeJS.ErrnoException).code ?? String(e)}); fix its permissions or set XDG_DATA_HOME`);
    }
  }
  let parent = path.dirname(dataDir);
  while (!fs.existsSync(parent) && path.dirname(parent) !== parent) parent = path.dirname(parent);
  if (!fs.statSync(parent).isDirectory()) {
    return line("FAIL", check, `cannot be created: ${parent} is a file, not a directory; move it or set XDG_DATA_HOME`);
  }
  try {
    fs.accessSync(parent, fs.constants.W_OK);
    return withSpace(check, parent, `absent; will be created under ${parent}`);
  } catch {
    return line("FAIL", check, `absent and ${parent} is not writable; fix its permissions or set XDG_DATA_HOME`);
  }
}

export function formatLine(l: CheckLine): string {
  return `${l.status.padEnd(4)} ${l.check}: ${l.detail}`;
}
