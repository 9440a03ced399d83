/**
 * Contribution points. The kernel defines only its own (KERNEL_POINTS: commands, slash commands, config,
 * hooks, readers, requirements sections, walk roots); an extension declares any other in its manifest
 * (`contributionPoints`) and every manifest's `contributes.<name>` is validated against that point's JSON
 * Schema. Points are add-only (bundled extensions register first): a second declaration of a name fails
 * the extension that made it. Bundled manifests contributing to bundled points were validated at build
 * time (build/precompile.ts), so a normal start never loads ajv for them.
 */
import fs from "node:fs";
import path from "node:path";
import { OcError, ErrorCodes, errorMessage } from "./errors.js";
import { KERNEL_POINTS, type Manifest } from "./manifest.js";
import { parseJsonc, lineOfPath } from "./jsonc.js";

export interface PointHolder {
  id: string;
  dir: string;
  manifest?: Manifest;
  /** its manifest came from the build-time index */
  prevalidated?: boolean;
}

export interface Point {
  name: string;
  doc: string;
  owner: string;
  /** absolute path of the point's schema */
  schemaFile: string;
  prevalidated: boolean;
}

const manifestFile = (h: PointHolder) => path.join(h.dir, "manifest.json");

/** The line of a key path in a manifest, when the file can be read (positions are a nicety). */
function lineIn(h: PointHolder, segs: string[]): number | undefined {
  try {
    return lineOfPath(parseJsonc(fs.readFileSync(manifestFile(h), "utf8")), segs);
  } catch {
    return undefined;
  }
}
function at(h: PointHolder, segs: string[]): string {
  const line = lineIn(h, segs);
  return line === undefined ? manifestFile(h) : `${manifestFile(h)}:${line}`;
}

/** Register every holder's points, in order. Returns the registry and the holders that failed. */
export function registerPoints(holders: readonly PointHolder[]): { points: Map<string, Point>; failed: Map<PointHolder, OcError> } {
  const points = new Map<string, Point>();
  const failed = new Map<PointHolder, OcError>();
  for (const h of holders) {
    const decls = h.manifest?.contributionPoints ?? [];
    const clash = decls.find((d) => KERNEL_POINTS.has(d.name) || points.has(d.name));
    if (clash) {
      const other = points.get(clash.name)?.owner;
      failed.set(
        h,
        other
          ? new OcError(ErrorCodes.DUPLICATE_SERVICE, `extensions '${other}' and '${h.id}' both declare the contribution point '${clash.name}'`, { hint: "disable one of them" })
          : new OcError(ErrorCodes.MANIFEST_INVALID, `${at(h, ["contributionPoints"])}: '${clash.name}' is a kernel contribution point; choose another name`),
      );
      continue;
    }
    for (const d of decls) {
      points.set(d.name, { name: d.name, doc: d.doc, owner: h.id, schemaFile: path.join(h.dir, d.schema), prevalidated: h.prevalidated === true });
    }
  }
  return { points, failed };
}

/**
 * Check one extension's contributions to extension-declared points. `declared` is every point name any
 * installed manifest declares (a point whose owner is disabled is not "unknown": its contributions are
 * simply unused). Undefined when they are fine, else a coded error naming the manifest file and path.
 */
export async function checkContributions(h: PointHolder, points: ReadonlyMap<string, Point>, declared: ReadonlySet<string>): Promise<OcError | undefined> {
  for (const [name, value] of Object.entries(h.manifest?.contributes ?? {})) {
    if (KERNEL_POINTS.has(name)) continue;
    if (!declared.has(name)) {
      return new OcError(ErrorCodes.MANIFEST_INVALID, `${at(h, ["contributes", name])}: contributes.${name}: no installed extension declares the contribution point '${name}'`, {
        hint: `remove it, or install the extension that owns '${name}'`,
      });
    }
    const p = points.get(name);
    if (!p || (h.prevalidated && p.prevalidated)) continue;
    const { compileSchema, validate, formatProblem } = await import("./schema.js");
    let schema: object;
    try {
      schema = JSON.parse(fs.readFileSync(p.schemaFile, "utf8")) as object;
    } catch (e) {
      return new OcError(ErrorCodes.MANIFEST_INVALID, `${p.schemaFile}: cannot read the schema of contribution point '${name}' (owned by '${p.owner}'): ${errorMessage(e)}`);
    }
    const problems = validate(compileSchema(`point:${p.schemaFile}`, schema), value, { prefix: ["contributes", name] });
    const first = problems[0];
    if (first) {
      const segs = first.keyPath.split(".");
      return new OcError(ErrorCodes.MANIFEST_INVALID, formatProblem(manifestFile(h), { ...first, line: lineIn(h, segs) }), {
        hint: `see the '${name}' point of extension '${p.owner}' (${path.relative(h.dir, p.schemaFile) || p.schemaFile})`,
      });
    }
  }
  return undefined;
}
