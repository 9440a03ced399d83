/**
 * The errors lint: code in extensions/ and hosts/ throws coded errors (a factory from its extension's
 * errors.ts, made with the kernel's defineError), never `throw new Error(` and never a class of its own
 * that `extends Error`, so every error a user can meet has a code, an owner, a hint and an exit code
 * (`oceancode inspect --errors` lists them). Tests, the published conformance suites (testing/) and benches are outside it.
 */
import fs from "node:fs";
import path from "node:path";

export interface ErrorsProblem {
  file: string;
  line: number;
  kind: "plain-throw" | "error-class";
  text: string;
}

/**
 * Errors with a wire code space of their own, not OC_ERR_ codes a user reads on a terminal: each entry is a
 * file, the text of the allowed line, and why.
 */
export const ERRORS_ALLOWED: ReadonlyArray<{ file: string; line: string; why: string }> = [
  { file: "extensions/engine/kit/provider.ts", line: "export class ProviderError extends Error {", why: "the provider contract's own codes (rate_limited, auth, ...), thrown by third-party providers too and mapped to the user's line by the engine (read with providerErrorCode)" },
  { file: "extensions/serve/kit/shared.ts", line: "export class HttpError extends Error {", why: "a route handler's HTTP answer (a status and a wire code such as session_not_found), written as the JSON error body" },
  { file: "extensions/inspect/config-patch.ts", line: "export class ConfigPatchError extends Error {", why: "a PATCH /config refusal: its HTTP status, wire code and the key it is about" },
  { file: "extensions/serve/client/base.ts", line: "export class ClientHttpError extends Error {", why: "the generated HTTP client stands alone (no kernel import, so it can be copied out): its errors are the server's answers" },
  { file: "extensions/serve/client/base.ts", line: "if (v === undefined) throw new Error(`missing path parameter '${name}' for ${template}`);", why: "the same standalone client: a caller's missing path parameter" },
];

const PLAIN_THROW = /\bthrow\s+new\s+Error\s*\(/;
const ERROR_CLASS = /\bclass\s+[A-Za-z_$][\w$]*(?:\s*<[^>]*>)?\s+extends\s+Error\b/;

function skipped(rel: string): boolean {
  return /(^|\/)(test|tests|testing|bench|__fixtures__)\//.test(rel) || /\.test\.tsx?$/.test(rel) || /\.d\.ts$/.test(rel);
}

function* sources(dir: string): Generator<string> {
  if (!fs.existsSync(dir)) return;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== "node_modules") yield* sources(p);
    } else if (/\.(?:ts|tsx|mts)$/.test(e.name)) yield p;
  }
}

/** Every plain throw and Error subclass under `dirs` (default extensions/ and hosts/), as file:line. */
export function checkErrors(root: string, dirs: readonly string[] = ["extensions", "hosts"]): ErrorsProblem[] {
  const out: ErrorsProblem[] = [];
  for (const dir of dirs) {
    for (const file of sources(path.join(root, dir))) {
      const rel = path.relative(root, file).split(path.sep).join("/");
      if (skipped(rel)) continue;
      const allowed = ERRORS_ALLOWED.filter((a) => a.file === rel).map((a) => a.line);
      fs.readFileSync(file, "utf8")
        .split("\n")
        .forEach((text, i) => {
          if (allowed.includes(text.trim())) return;
          const code = text.replace(/^\s*(?:\/\/|\*|\/\*).*$/, ""); // a comment may quote one
          if (PLAIN_THROW.test(code)) out.push({ file: rel, line: i + 1, kind: "plain-throw", text: text.trim() });
          if (ERROR_CLASS.test(code)) out.push({ file: rel, line: i + 1, kind: "error-class", text: text.trim() });
        });
    }
  }
  return out;
}

export const formatErrorsProblem = (p: ErrorsProblem): string =>
  `${p.file}:${p.line}: ${p.kind === "plain-throw" ? "throw a coded error (defineError in the extension's errors.ts), not new Error" : "define a coded error with defineError instead of a class extending Error"}: ${p.text}`;

/** The figures the issue measures: plain throws and Error classes, by kind. */
export function errorsCounts(root: string, dirs?: readonly string[]): { plainThrows: number; errorClasses: number } {
  const all = checkErrors(root, dirs);
  return { plainThrows: all.filter((p) => p.kind === "plain-throw").length, errorClasses: all.filter((p) => p.kind === "error-class").length };
}
