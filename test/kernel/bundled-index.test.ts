/** The build-time index of bundled manifests is used only while it is fresh. */
import { afterEach, describe, expect, it } from "vitest";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { bundledFromIndex } from "../../kernel/manifest.js";
import type { Root } from "../../kernel/walk.js";

let dir: string;
const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function setup(): Root {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "oc-index-"));
  made.push(dir);
  const manifest = { id: "alpha", version: "1.0.0", kernel: "^0.1.0", main: "index.js" };
  fs.mkdirSync(path.join(dir, "extensions", "alpha"), { recursive: true });
  const file = path.join(dir, "extensions", "alpha", "manifest.json");
  fs.writeFileSync(file, JSON.stringify(manifest));
  fs.mkdirSync(path.join(dir, "dist", "extensions"), { recursive: true });
  fs.writeFileSync(
    path.join(dir, "dist", "extensions", "index.json"),
    JSON.stringify({ entries: [{ folder: "alpha", mtimeMs: fs.statSync(file).mtimeMs, manifest: { ...manifest, description: "from the index" } }] }),
  );
  return { tier: "bundled", ecosystem: "oceancode", dir, codeDir: path.join(dir, "dist"), project: dir, trustedByDefault: true };
}

describe("bundled manifest index", () => {
  it("serves manifests from the index while every manifest is unchanged", () => {
    const root = setup();
    const entries = bundledFromIndex(root);
    expect(entries?.map((e) => [e.name, e.manifest?.description])).toEqual([["alpha", "from the index"]]);
    expect(entries?.[0]?.codeDir).toBe(path.join(dir, "dist", "extensions", "alpha"));
  });

  it("is ignored when a manifest changed or a folder was added", () => {
    const root = setup();
    const file = path.join(dir, "extensions", "alpha", "manifest.json");
    fs.utimesSync(file, new Date(), new Date(Date.now() + 5000));
    expect(bundledFromIndex(root)).toBeUndefined();
    const root2 = setup();
    fs.mkdirSync(path.join(dir, "extensions", "beta"));
    fs.writeFileSync(path.join(dir, "extensions", "beta", "manifest.json"), "{}");
    expect(bundledFromIndex(root2)).toBeUndefined();
  });

  it("still holds when only the mtimes changed, as after npm extracts the packed tarball", () => {
    const root = setup();
    const file = path.join(dir, "extensions", "alpha", "manifest.json");
    const indexFile = path.join(dir, "dist", "extensions", "index.json");
    const index = JSON.parse(fs.readFileSync(indexFile, "utf8")) as { entries: Array<{ manifest: unknown }> };
    fs.writeFileSync(indexFile, JSON.stringify({ entries: index.entries.map((e) => ({ ...e, manifest: JSON.parse(fs.readFileSync(file, "utf8")) as unknown })) }));
    fs.utimesSync(file, new Date(), new Date(Date.now() + 5000));
    expect(bundledFromIndex(root)?.map((e) => [e.name, e.prevalidated])).toEqual([["alpha", true]]);
  });

  it("is never used for other tiers", () => {
    const root = setup();
    expect(bundledFromIndex({ ...root, tier: "user" })).toBeUndefined();
  });
});
