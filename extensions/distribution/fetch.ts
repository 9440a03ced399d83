/** Reading a manifest or an asset from an https: or file: URL, bounded in time and size. */
import fs from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { ReleaseDownload, ReleaseUrlRefused } from "./errors.js";

const MAX_BYTES = 512 * 1024 * 1024;

/** `ref` resolved against `base` (a relative artifact URL is beside the manifest). Only https: and file:. */
export function resolveUrl(ref: string, base?: string): URL {
  let u: URL;
  try {
    u = base ? new URL(ref, base) : new URL(ref);
  } catch {
    throw ReleaseUrlRefused({ message: `not a URL: ${ref}` });
  }
  if (u.protocol !== "https:" && u.protocol !== "file:") throw ReleaseUrlRefused({ message: `${u.protocol} URLs are refused (https: or file: only): ${u.href}` });
  return u;
}

export async function fetchBytes(u: URL, timeoutMs: number): Promise<Buffer> {
  if (u.protocol === "file:") {
    const data = await fs.readFile(fileURLToPath(u));
    if (data.length > MAX_BYTES) throw ReleaseDownload({ url: u.href, problem: `larger than ${MAX_BYTES} bytes` });
    return data;
  }
  const res = await fetch(u, { signal: AbortSignal.timeout(timeoutMs), redirect: "follow" });
  if (!res.ok) throw ReleaseDownload({ url: u.href, problem: `HTTP ${res.status}` });
  if (new URL(res.url).protocol !== "https:") throw ReleaseDownload({ url: u.href, problem: "redirected off https" });
  const len = Number(res.headers.get("content-length") ?? 0);
  if (len > MAX_BYTES) throw ReleaseDownload({ url: u.href, problem: `larger than ${MAX_BYTES} bytes` });
  const data = Buffer.from(await res.arrayBuffer());
  if (data.length > MAX_BYTES) throw ReleaseDownload({ url: u.href, problem: `larger than ${MAX_BYTES} bytes` });
  return data;
}
