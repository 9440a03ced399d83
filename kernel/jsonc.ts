/** JSONC parsing that keeps positions, so errors can name a line. */
import fs from "node:fs";
import { createRequire } from "node:module";
import type { ParseError, Node } from "jsonc-parser";

type JsoncParser = typeof import("jsonc-parser");
let lib: JsoncParser | undefined;
/** loaded on first use: only runs with a config file pay for it */
function jsonc(): JsoncParser {
  lib ??= createRequire(import.meta.url)("jsonc-parser") as JsoncParser;
  return lib;
}

export interface JsoncDocument {
  value: unknown;
  text: string;
  tree: Node | undefined;
}

export class JsoncSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(message);
  }
}

export function lineColAt(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let last = -1;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      last = i;
    }
  }
  return { line, column: offset - last };
}

/** Parse JSON with comments and trailing commas. Throws JsoncSyntaxError with a line number. */
export function parseJsonc(text: string): JsoncDocument {
  const errors: ParseError[] = [];
  const { parse, parseTree, printParseErrorCode } = jsonc();
  const value = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    const e = errors[0]!;
    const { line, column } = lineColAt(text, e.offset);
    throw new JsoncSyntaxError(`${printParseErrorCode(e.error)} at line ${line}, column ${column}`, line, column);
  }
  return { value, text, tree: parseTree(text, [], { allowTrailingComma: true }) };
}

/** Line of the value at a JSON path (segments), or of the nearest existing parent. */
export function lineOfPath(doc: JsoncDocument, path: Array<string | number>): number | undefined {
  if (!doc.tree) return undefined;
  const { findNodeAtLocation } = jsonc();
  for (let n = path.length; n >= 0; n--) {
    const node = findNodeAtLocation(doc.tree, path.slice(0, n));
    if (node) return lineColAt(doc.text, node.offset).line;
  }
  return undefined;
}

/**
 * A JSONC file read for an edit that keeps its comments and layout: its text ("{}" when the file is
 * absent or empty) and its value when that is a JSON object (undefined: broken, or not an object).
 */
export function readJsoncForEdit(file: string): { text: string; object: Record<string, unknown> | undefined } {
  let text = "{}\n";
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
  }
  if (text.trim() === "") text = "{}\n";
  return { text, object: jsoncObject(text) };
}

/** The text's value when it parses as a JSON object (comments and trailing commas allowed), else undefined. */
export function jsoncObject(text: string): Record<string, unknown> | undefined {
  const errors: ParseError[] = [];
  const v = jsonc().parse(text, errors, { allowTrailingComma: true }) as unknown;
  return errors.length || typeof v !== "object" || v === null || Array.isArray(v) ? undefined : (v as Record<string, unknown>);
}

/**
 * `text` with the value at `at` set (undefined removes it; `append` adds `value` to the end of the array at
 * `at`), formatted with two spaces, every other key and comment kept.
 */
export function editJsonc(text: string, at: ReadonlyArray<string | number>, value: unknown, opts: { append?: boolean } = {}): string {
  const lib = jsonc();
  const fmt = { formattingOptions: { insertSpaces: true, tabSize: 2 } };
  const edits = opts.append ? lib.modify(text, [...at, -1], value, { ...fmt, isArrayInsertion: true }) : lib.modify(text, [...at], value, fmt);
  return lib.applyEdits(text, edits);
}
