/** `oceancode inspect --errors`: the registry of coded errors, from the compiled CLI (one spawn per form). */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeSandbox, REPO_ROOT, runCliAsync, type RunResult, type Sandbox } from "../../../test/kit/cli.js";
import type { ErrorDefinition } from "../../../kernel/api.js";

let sb: Sandbox;
let json: RunResult;
let text: RunResult;
beforeAll(async () => {
  sb = makeSandbox("oc-inspect-errors-");
  // a third-party extension with an errors.js, never activated by inspect
  fs.cpSync(path.join(REPO_ROOT, "examples", "extensions", "hello"), path.join(sb.home, ".oceancode", "extensions", "hello"), { recursive: true });
  const run = (...args: string[]) => runCliAsync(["--dir", sb.project, "inspect", ...args], { env: sb.env, cwd: sb.project });
  [json, text] = await Promise.all([run("--errors", "--json"), run("--errors")]);
}, 60_000);
afterAll(() => sb.cleanup());

describe("oceancode inspect --errors", () => {
  it("--json lists every code once with owner, exit code, message and hint: the kernel's, the first-party ones and a user extension's", () => {
    expect(json.code, json.stderr).toBe(0);
    expect(json.stderr).toBe("");
    const defs = JSON.parse(json.stdout) as ErrorDefinition[];
    const by = new Map(defs.map((d) => [d.code, d]));
    expect(by.size).toBe(defs.length);
    expect(defs.map((d) => d.code)).toEqual([...defs.map((d) => d.code)].sort((a, b) => a.localeCompare(b)));
    expect(by.get("OC_ERR_USAGE")).toMatchObject({ owner: "kernel", exitCode: 2 });
    expect(by.get("OC_ERR_SESSION_BUSY")).toMatchObject({ owner: "engine", exitCode: 2 });
    expect(by.get("OC_ERR_SCHEMA_TOO_NEW")).toMatchObject({ owner: "storage", exitCode: 1 });
    expect(by.get("OC_ERR_TRUST_FILE_INVALID")?.owner).toBe("trust");
    expect(by.get("OC_ERR_HELLO_TOO_MANY_NAMES")).toEqual({ owner: "hello", code: "OC_ERR_HELLO_TOO_MANY_NAMES", message: "expected at most one name, got {count}", hint: "quote a name with spaces: oceancode hello 'Ada Lovelace'", exitCode: 2 });
    // every first-party extension that defines errors is listed under its own id (but a stand-in such as
    // storage-postgres, which is off until extensions.replace selects it)
    const owners = new Set(defs.map((d) => d.owner));
    const dir = (id: string, f: string) => path.join(REPO_ROOT, "extensions", id, f);
    const withErrors = fs
      .readdirSync(path.join(REPO_ROOT, "extensions"))
      .filter((id) => fs.existsSync(dir(id, "errors.ts")) && fs.readFileSync(dir(id, "errors.ts"), "utf8").includes("defineError("))
      .filter((id) => !(JSON.parse(fs.readFileSync(dir(id, "manifest.json"), "utf8")) as { replaces?: string }).replaces);
    expect(withErrors.length).toBeGreaterThan(20);
    expect(withErrors.filter((id) => !owners.has(id))).toEqual([]);
  });

  it("docs/errors.md lists every first-party code as the registry says (OC_UPDATE_DOCS=1 rewrites it)", () => {
    const defs = (JSON.parse(json.stdout) as ErrorDefinition[]).filter((d) => d.owner !== "hello");
    const cell = (v: string) => v.replace(/\|/g, "\\|").replace(/`/g, "'");
    const table = ["| code | owner | exit | message | hint |", "|---|---|---|---|---|", ...defs.map((d) => `| \`${d.code}\` | ${d.owner} | ${d.exitCode} | ${cell(d.message)} | ${cell(d.hint ?? "")} |`)].join("\n");
    const file = path.join(REPO_ROOT, "docs", "errors.md");
    const [head, rest] = fs.readFileSync(file, "utf8").split("<!-- errors:begin -->\n");
    const fresh = `${head}<!-- errors:begin -->\n${table}\n${rest!.slice(rest!.indexOf("<!-- errors:end -->"))}`;
    if (process.env.OC_UPDATE_DOCS === "1") fs.writeFileSync(file, fresh);
    expect(fs.readFileSync(file, "utf8")).toBe(fresh);
  });

  it("the table has one line per code: code, owner, exit code, message, hint", () => {
    expect(text.code, text.stderr).toBe(0);
    const lines = text.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^CODE\s+OWNER\s+EXIT\s+MESSAGE\s+HINT$/);
    expect(lines.length - 1).toBe((JSON.parse(json.stdout) as unknown[]).length);
    expect(lines.find((l) => l.startsWith("OC_ERR_HELLO_TOO_MANY_NAMES"))).toMatch(/^OC_ERR_HELLO_TOO_MANY_NAMES\s+hello\s+2\s+expected at most one name, got \{count\}  quote a name with spaces/);
  });
});
