/** Shared bits for the hooks tests: settings files, scripted models, recorded requests. */
import fs from "node:fs";
import path from "node:path";
import type { Sandbox } from "../../../test/kit/cli.js";

export type Handler = { type: "command"; command: string; timeout?: number } | { type: "http"; url: string; headers?: Record<string, string>; timeout?: number };
export type Groups = Record<string, Array<{ matcher?: string; hooks: Handler[] }>>;

/** Write a settings file with these hook groups (project-relative unless base is "home"). */
export function writeHooks(sb: Sandbox, rel: string, hooks: Groups, base: "project" | "home" = "project"): string {
  return sb.write(rel, JSON.stringify({ hooks }, null, 2), base);
}

export function writeScript(sb: Sandbox, steps: unknown[], after?: unknown): string {
  sb.write("script.json", JSON.stringify({ steps, ...(after ? { after } : {}) }));
  return "scripted/script.json";
}

export interface RecordedRequest {
  sessionStep: number;
  rows: Array<{ role: string; text?: string; context?: string[]; results?: Array<{ content: string; isError: boolean }> }>;
}

export function recorded(file: string): RecordedRequest[] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as RecordedRequest);
}

/** A node hook script in the project: reads the payload from stdin, runs `body` with `input` in scope. */
export function nodeHook(sb: Sandbox, name: string, body: string): string {
  const file = sb.write(
    `hooks/${name}.mjs`,
    `let raw = "";\nprocess.stdin.on("data", (d) => (raw += d));\nprocess.stdin.on("end", async () => {\n  const input = JSON.parse(raw);\n${body}\n});\n`,
  );
  return `node ${JSON.stringify(file)}`;
}

export function readJson(file: string): unknown {
  return JSON.parse(fs.readFileSync(file, "utf8"));
}

export function lines(file: string): string[] {
  return fs.existsSync(file) ? fs.readFileSync(file, "utf8").split("\n").filter(Boolean) : [];
}

export { path };
