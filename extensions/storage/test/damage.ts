/** Real damage to a database file, at chosen places, with seeded bytes so a failure replays. */
import fs from "node:fs";
import Database from "better-sqlite3";

export type DamageKind = "header" | "middle" | "end" | "truncate";

function noise(n: number, seed: number): Buffer {
  const b = Buffer.alloc(n);
  let s = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    s = (s * 1103515245 + 12345) >>> 0;
    b[i] = s >>> 24;
  }
  return b;
}

/** Pages of a table's b-tree (needs SQLite's dbstat, which better-sqlite3 builds in). */
export function pagesOf(file: string, table: string): number[] {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare("SELECT pageno FROM dbstat WHERE name = ? ORDER BY pageno").all(table) as Array<{ pageno: number }>).map((r) => r.pageno);
  } finally {
    db.close();
  }
}

/**
 * header: the first 100 bytes (SQLite's file header); middle: a page of the rows table from the middle
 * of its b-tree; end: the last page; truncate: the file cut mid-page at 60% of its size.
 */
export function damage(file: string, kind: DamageKind, seed = 42): string {
  const size = fs.statSync(file).size;
  const pageSize = 4096;
  if (kind === "truncate") {
    const to = Math.floor(size * 0.6) + 123;
    fs.truncateSync(file, to);
    return `truncated ${size} -> ${to} bytes`;
  }
  let at: number;
  let len: number;
  if (kind === "header") {
    at = 0;
    len = 100;
  } else if (kind === "end") {
    at = size - pageSize;
    len = pageSize;
  } else {
    const pages = pagesOf(file, "rows");
    const page = pages[Math.floor(pages.length / 2)]!;
    at = (page - 1) * pageSize;
    len = pageSize;
  }
  const fd = fs.openSync(file, "r+");
  try {
    fs.writeSync(fd, noise(len, seed), 0, len, at);
  } finally {
    fs.closeSync(fd);
  }
  return `${len} bytes of noise at offset ${at}`;
}

/** Noise over one whole page (1-based, as SQLite numbers them). */
export function damagePage(file: string, page: number, seed = 7): void {
  const fd = fs.openSync(file, "r+");
  try {
    fs.writeSync(fd, noise(4096, seed), 0, 4096, (page - 1) * 4096);
  } finally {
    fs.closeSync(fd);
  }
}
