/** JSONC parsing that keeps positions, so errors can name a line. */
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
