/**
 * `oceancode models [--provider <p>] [--json]`: the model catalogue as the provider manifests ship it
 * (contributes.models), read without loading any provider. Figures a manifest leaves out are the defaults,
 * marked `*` in the table and named under `defaults` in JSON.
 */
import { parseArgs } from "node:util";
import type { CommandIO } from "../../kernel/api.js";
import { nearestMany } from "../../kernel/api.js";
import { CATALOGUE_DEFAULTS, type ModelNameEntry } from "../engine/api.js";
import { modelInfoFromEntry, type ModelNames } from "../engine/kit.js";

const USAGE = "usage: oceancode models [--provider <provider>] [--json]";

type Figure = "contextWindow" | "maxOutputTokens" | "price" | "tools" | "images";

export interface CatalogueRow {
  id: string;
  provider: string;
  /** the name the provider's API is sent */
  name: string;
  aliases: string[];
  contextWindow: number;
  maxOutputTokens: number;
  /** USD per million tokens */
  price: { input: number; output: number; cacheRead: number; cacheWrite: number };
  tools: boolean;
  images: boolean;
  /** the figures the manifest leaves out, given here as the catalogue's defaults */
  defaults: Figure[];
}

export function catalogueRows(names: ModelNames, provider?: string): CatalogueRow[] {
  const aliases = new Map<string, string[]>();
  for (const [a, id] of names.aliases()) aliases.set(id, [...(aliases.get(id) ?? []), a]);
  const rows: CatalogueRow[] = [];
  for (const e of names.entries()) {
    const info = modelInfoFromEntry(e);
    if (provider && info.provider !== provider) continue;
    rows.push({
      id: info.id,
      provider: info.provider,
      name: info.name,
      aliases: aliases.get(e.id) ?? [],
      contextWindow: info.contextWindow,
      maxOutputTokens: info.maxOutputTokens,
      price: info.price,
      tools: info.tools ?? CATALOGUE_DEFAULTS.tools,
      images: info.images ?? CATALOGUE_DEFAULTS.images,
      defaults: missing(e),
    });
  }
  return rows;
}

function missing(e: ModelNameEntry): Figure[] {
  return (["contextWindow", "maxOutputTokens", "price", "tools", "images"] as const).filter((f) => e[f] === undefined);
}

/** 8192 -> "8.2k", 200000 -> "200k", 1047576 -> "1.05M" */
export function compactTokens(n: number): string {
  const trim = (v: number, digits: number) => String(Number(v.toFixed(digits)));
  if (n >= 1_000_000) return `${trim(n / 1_000_000, 2)}M`;
  if (n >= 1_000) return `${trim(n / 1_000, 1)}k`;
  return String(n);
}

const usd = (v: number) => String(Number(v.toFixed(4)));

function table(rows: CatalogueRow[]): string {
  const mark = (r: CatalogueRow, f: Figure, text: string) => (r.defaults.includes(f) ? `${text}*` : text);
  const yes = (b: boolean) => (b ? "yes" : "no");
  const cells = rows.map((r) => [
    r.id,
    mark(r, "contextWindow", compactTokens(r.contextWindow)),
    mark(r, "maxOutputTokens", compactTokens(r.maxOutputTokens)),
    r.defaults.includes("price") ? "-" : [r.price.input, r.price.output, r.price.cacheRead, r.price.cacheWrite].map(usd).join(" / "),
    mark(r, "tools", yes(r.tools)),
    mark(r, "images", yes(r.images)),
    r.aliases.join(", "),
  ]);
  const head = ["ID", "CONTEXT", "OUTPUT", "USD/MTOK IN / OUT / CACHE READ / CACHE WRITE", "TOOLS", "IMAGES", "ALIASES"];
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => c.map((v, i) => (i === c.length - 1 ? v : v.padEnd(widths[i]!))).join("  ").trimEnd();
  const out = [line(head), ...cells.map(line)];
  if (rows.some((r) => r.defaults.length)) {
    const d = CATALOGUE_DEFAULTS;
    out.push(`* not in the catalogue: the default (context ${compactTokens(d.contextWindow)}, output ${compactTokens(d.maxOutputTokens)}, tools ${yes(d.tools)}, images ${yes(d.images)}; - no prices)`);
  }
  return out.join("\n") + "\n";
}

export function modelsCommand(names: ModelNames, argv: string[], io: CommandIO): number {
  let values: { provider?: string; json?: boolean };
  try {
    ({ values } = parseArgs({ args: argv, options: { provider: { type: "string", short: "p" }, json: { type: "boolean" } }, allowPositionals: false, strict: true }));
  } catch (e) {
    io.stderr.write(`oceancode models: ${(e as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const providers = [...new Set([...names.providers(), ...names.entries().map((e) => e.id.slice(0, e.id.indexOf("/")))])];
  const p = values.provider?.trim();
  if (p !== undefined && !providers.includes(p)) {
    const near = nearestMany(p, providers, 2);
    io.stderr.write(`oceancode models: unknown provider '${p}'${near.length ? ` (did you mean ${near.join(", ")}?)` : ""}; providers: ${providers.join(", ")}\n`);
    return 2;
  }
  const rows = catalogueRows(names, p);
  if (values.json) io.stdout.write(JSON.stringify({ models: rows }, null, 2) + "\n");
  else if (!rows.length) io.stdout.write(`provider '${p}' lists no models (any ${p}/<model> still works with the defaults)\n`);
  else io.stdout.write(table(rows));
  return 0;
}
