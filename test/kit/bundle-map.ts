/**
 * What is inside each file of the build's bundle (dist/bundle-meta.json, esbuild's metafile), so a test
 * that records which files a process loaded can tell which sources and packages it ran: an SDK bundled
 * into a chunk has no node_modules path left to match.
 */
import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";
import { REPO_ROOT, type Sandbox } from "./cli.js";

interface MetaOutput {
  inputs: Record<string, { bytesInOutput: number }>;
  imports: Array<{ path: string; kind: string; external?: boolean }>;
  entryPoint?: string;
}

export interface BundleMap {
  /** output files (repo-relative, e.g. dist/chunks/chunk-X.js) */
  outputs: Map<string, MetaOutput>;
  /** the repo-relative output path of a loaded file (a URL or absolute path), or undefined outside the repo */
  relOf(loaded: string): string | undefined;
  /** every input (repo-relative source or node_modules path) compiled into the given outputs */
  inputsOf(outputs: Iterable<string>): Set<string>;
  /** the outputs an entry can load: itself and every chunk it imports, statically or dynamically */
  closure(entries: Iterable<string>): Set<string>;
}

export function bundleMap(): BundleMap {
  const meta = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "dist", "bundle-meta.json"), "utf8")) as { outputs: Record<string, MetaOutput> };
  const outputs = new Map(Object.entries(meta.outputs).filter(([o]) => o.endsWith(".js")));
  const relOf = (loaded: string) => {
    const file = loaded.startsWith("file:") ? fileURLToPath(loaded) : loaded;
    const rel = path.relative(REPO_ROOT, file);
    return rel.startsWith("..") || path.isAbsolute(rel) ? undefined : rel.split(path.sep).join("/");
  };
  return {
    outputs,
    relOf,
    inputsOf(outs) {
      const set = new Set<string>();
      for (const o of outs) for (const i of Object.keys(outputs.get(o)?.inputs ?? {})) set.add(i);
      return set;
    },
    closure(entries) {
      const seen = new Set<string>();
      const todo = [...entries];
      while (todo.length) {
        const o = todo.pop()!;
        if (seen.has(o) || !outputs.has(o)) continue;
        seen.add(o);
        for (const i of outputs.get(o)!.imports) if (!i.external) todo.push(i.path);
      }
      return seen;
    },
  };
}

/** Files from a record-imports log (`import <url>` / `require <path>` lines), as paths. */
export function loadedFiles(lines: string[]): string[] {
  return lines
    .map((l) => l.replace(/^(import|require) /, ""))
    .filter((u) => u.startsWith("file:") || u.startsWith("/"))
    .map((u) => (u.startsWith("file:") ? fileURLToPath(u) : u));
}

const RECORDER = path.join(REPO_ROOT, "test", "fixtures", "kernel", "record-imports.mjs");

/**
 * Run `node <args>` in the sandbox with the import recorder preloaded; the lines it logged (`import
 * <url>` / `require <path>`) and the process's stdout. Fails the test on a non-zero exit.
 */
export function recordLoads(sb: Sandbox, args: string[], cwd = sb.project): { lines: string[]; stdout: string } {
  const log = path.join(sb.home, `imports-${args.join("_").replace(/\W/g, "").slice(-80)}.log`);
  const r = spawnSync(process.execPath, ["--import", RECORDER, ...args], { cwd, env: { ...sb.env, OC_TEST_IMPORT_LOG: log }, encoding: "utf8" });
  expect(r.status, r.stderr).toBe(0);
  return { lines: fs.readFileSync(log, "utf8").trim().split("\n"), stdout: r.stdout };
}
