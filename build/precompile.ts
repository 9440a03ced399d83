/**
 * Build step (build/, not part of the runtime kernel; run by `npm run build` after tsc): compile the manifest schema into a standalone validator module
 * (dist/kernel/manifest-validator.cjs) so reading manifests never loads ajv at run time.
 */
import fs from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import standaloneCode from "ajv/dist/standalone/index.js";
import { registerPoints, checkContributions } from "../kernel/points.js";
import type { Manifest } from "../kernel/manifest.js";

const schema = JSON.parse(fs.readFileSync(new URL("../../schemas/manifest.schema.json", import.meta.url), "utf8")) as object;
// the schema says "non-empty" with a \S pattern rather than minLength, so the generated module needs no
// ajv runtime require
const ajv = new Ajv2020({ allErrors: false, strict: false, code: { source: true } });
const validate = ajv.compile(schema);
const out = fileURLToPath(new URL("../kernel/manifest-validator.cjs", import.meta.url));
fs.writeFileSync(out, standaloneCode.default(ajv, validate));

/**
 * Bundled manifests are validated here, once, and written to one index (dist/extensions/index.json) that
 * the kernel reads instead of parsing and validating every file on each start. A broken bundled
 * manifest fails the build. The kernel checks each entry's mtime, so an edited manifest is re-read.
 */
const root = fileURLToPath(new URL("../../", import.meta.url));
const extDir = `${root}extensions`;
const entries: Array<{ folder: string; mtimeMs: number; manifest: unknown }> = [];
let broken = 0;
for (const folder of fs.readdirSync(extDir).sort()) {
  const file = `${extDir}/${folder}/manifest.json`;
  if (!fs.existsSync(file)) continue;
  const manifest = JSON.parse(fs.readFileSync(file, "utf8")) as unknown;
  if (!validate(manifest)) {
    broken++;
    process.stderr.write(`${file}: invalid manifest: ${JSON.stringify(validate.errors?.[0])}\n`);
    continue;
  }
  entries.push({ folder, mtimeMs: fs.statSync(file).mtimeMs, manifest });
}
// contributions to bundled points are checked here too, so a start never loads ajv for them
const holders = entries.map((e) => ({ id: (e.manifest as Manifest).id, dir: `${extDir}/${e.folder}`, manifest: e.manifest as Manifest }));
const { points, failed } = registerPoints(holders);
const declared = new Set(points.keys());
for (const h of holders) {
  const err = failed.get(h) ?? (await checkContributions(h, points, declared));
  if (err) {
    broken++;
    process.stderr.write(`${err.toLine()}\n`);
  }
}
if (broken) process.exit(1);

/**
 * One source of truth for hooks: an extension whose compiled api module exports hook declaration tables
 * (kernel/hook-decl.ts), or whose manifest lists contributes.hooks, must have the two agree — same names,
 * kinds, docs and failClosed. A disagreement fails the build.
 */
const { checkManifestHooks, isHookTable } = await import("../kernel/hook-decl.js");
const hookProblems: string[] = [];
for (const { folder, manifest } of entries) {
  const listed = (manifest as { contributes?: { hooks?: Array<{ name: string; kind: string; doc: string; failClosed?: boolean }> } }).contributes?.hooks ?? [];
  const api = `${root}dist/extensions/${folder}/api.js`;
  const tables = fs.existsSync(api) ? Object.values((await import(pathToFileURL(api).href)) as Record<string, unknown>).filter(isHookTable) : [];
  if (listed.length === 0 && tables.length === 0) continue;
  hookProblems.push(...checkManifestHooks(`extensions/${folder}/manifest.json`, listed, tables));
}
if (hookProblems.length) {
  for (const p of hookProblems) process.stderr.write(`${p}\n`);
  process.exit(1);
}

fs.mkdirSync(`${root}dist/extensions`, { recursive: true });
fs.writeFileSync(`${root}dist/extensions/index.json`, JSON.stringify({ entries }));
