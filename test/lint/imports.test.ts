/** The import lint on the repo (zero problems), and on planted bad fixtures (the exact problem). */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/cli.js";
import { checkImports, formatProblem } from "./imports.js";

describe("import lint on the repo", () => {
  it("reports zero problems", () => {
    const problems = checkImports(REPO_ROOT).map(formatProblem);
    expect(problems, problems.join("\n")).toEqual([]);
  });
});
