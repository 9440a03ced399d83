/**
 * The contracts figures (issue 35's "Measure"): value exports from the published contracts
 * (`extensions/<id>/api.ts`) by kind, how many of them the contracts lint refuses, and the file import
 * cycles in kernel/, extensions/ and hosts/ (strongly connected groups of two or more files).
 *
 *   node dist/bench/lint/contracts.js [--list]
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { checkContracts, contractExports, fileCycles } from "../../test/lint/contracts.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const { values } = parseArgs({ options: { list: { type: "boolean", default: false }, root: { type: "string" } } });
const root = values.root ?? ROOT;

const exports = contractExports(root);
const byKind = new Map<string, number>();
for (const x of exports) byKind.set(x.kind, (byKind.get(x.kind) ?? 0) + 1);
const refused = checkContracts(root);
const cycles = fileCycles(root);
const runtime = fileCycles(root, { runtimeOnly: true });
const kinds = [...byKind].sort().map(([k, n]) => `${k} ${n}`).join(", ");
process.stdout.write(`contracts: ${exports.length} value exports from api.ts (${kinds}); ${refused.length} refused (functions, classes, other values)\n`);
const files = (cs: string[][]) => cs.reduce((n, c) => n + c.length, 0);
process.stdout.write(`file cycles: ${cycles.length} over every import (${files(cycles)} files), ${runtime.length} over imports that load code (${files(runtime)} files)\n`);
if (values.list) {
  for (const p of refused) process.stdout.write(`  ${p.file}:${p.line}: ${p.message}\n`);
  for (const c of cycles) process.stdout.write(`  cycle${runtime.some((r) => r.join() === c.join()) ? " (run time)" : ""}: ${c.join(" ")}\n`);
}
