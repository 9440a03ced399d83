/**
 * The project-file routes and a session's changed files through the typed client against a real
 * `oceancode serve` child: list, fuzzy find, read with a size cap (a cut never splits a character);
 * the attacker cases, each answered with an error and no content: `..`, an absolute path, a symlink
 * out of the project (file and directory), a symlink to a .env file, .env itself, a binary file; the
 * canary secrets outside the project and in .env never appear in any answer. A scripted session writes
 * files (one outside the project, one a .env): GET /session/{id}/changes and /diff show the project
 * file's diff against the checkpoint, name the others without their content, and see an outside edit.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn, spawnSync } from "node:child_process";
import { makeSandbox, REPO_ROOT, type Sandbox } from "../kit/cli.js";
import { ClientHttpError, OceancodeClient } from "../../extensions/serve/client/index.js";
import { startServe, type Served } from "../../extensions/serve/test/serve-helpers.js";

const OUTSIDE_CANARY = "OUTSIDE-CANARY-5d1f0a";
const ENV_CANARY = "ENV-CANARY-93be22";
let sb: Sandbox;
let srv: Served;
let api: OceancodeClient;
let outsideDir: string;
const seen: string[] = [];

/** every answer and error message a test got, for the canary check at the end */
async function keep<T>(p: Promise<T>): Promise<T> {
  try {
    const v = await p;
    seen.push(JSON.stringify(v));
    return v;
  } catch (e) {
    seen.push(e instanceof ClientHttpError ? `${e.code} ${e.message}` : String(e));
    throw e;
  }
}

/** examples/serve/workspace.mjs against this server */
function example(...args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, [path.join(REPO_ROOT, "examples", "serve", "workspace.mjs"), ...args], { env: { ...sb.env, OC_URL: srv.url }, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr.on("data", (d: Buffer) => (err += d.toString()));
  return new Promise((resolve) => child.on("exit", (code) => resolve({ code, out, err })));
}

beforeAll(async () => {
  sb = makeSandbox("oc-serve-files-");
  outsideDir = path.join(path.dirname(sb.project), "outside");
  fs.mkdirSync(outsideDir, { recursive: true });
  fs.writeFileSync(path.join(outsideDir, "secret.txt"), `${OUTSIDE_CANARY}\n`);
  sb.write("src/components/Button.tsx", "export const Button = () => null;\n");
  sb.write("src/util/strings.ts", "export const x = 1;\n");
  sb.write("README.md", "# demo\n");
  sb.write(".env", `TOKEN=${ENV_CANARY}\n`);
  sb.write(".env.example", "TOKEN=\n");
  sb.write("big.txt", `${"é".repeat(100)}\n`);
  fs.writeFileSync(path.join(sb.project, "blob.bin"), Buffer.from([1, 2, 0, 3]));
  fs.symlinkSync(path.join(outsideDir, "secret.txt"), path.join(sb.project, "link-out.txt"));
  fs.symlinkSync(outsideDir, path.join(sb.project, "dir-out"));
  fs.symlinkSync(path.join(sb.project, ".env"), path.join(sb.project, "innocent.txt"));
  sb.write("notes.txt", "mine\n");
  // a FIFO: opening it for reading would wait for a writer forever
  expect(spawnSync("mkfifo", [path.join(sb.project, "pipe")]).status).toBe(0);
  // the scripted model: read and rewrite notes.txt, write new.txt, a .env and a file outside the project
  sb.write(".oceancode/oceancode.json", JSON.stringify({ permission_mode: "bypassPermissions" }));
  sb.write(
    "script.json",
    JSON.stringify({
      steps: [
        { tool_calls: [{ name: "read", input: { file_path: "notes.txt" } }] },
        { tool_calls: [{ name: "write", input: { file_path: "notes.txt", content: "by the agent\n" } }] },
        { tool_calls: [{ name: "write", input: { file_path: "new.txt", content: "fresh\n" } }] },
        { tool_calls: [{ name: "bash", input: { command: `printf 'K=${ENV_CANARY}2\\n' > .env.local` } }] },
        { tool_calls: [{ name: "write", input: { file_path: path.join(outsideDir, "made.txt"), content: `${OUTSIDE_CANARY}2\n` } }] },
        { text: "wrote them" },
      ],
      after: { text: "(done)" },
    }),
  );
  srv = await startServe(["--directory", sb.project], { env: sb.env });
  api = new OceancodeClient({ baseUrl: srv.url });
}, 60_000);
afterAll(async () => {
  await srv?.stop("SIGKILL");
  sb?.cleanup();
  fs.rmSync(outsideDir, { recursive: true, force: true });
});

describe("project files over HTTP", () => {
  it("lists a directory (links out of the project left out), finds by fuzzy name, reads with a size cap", async () => {
    const root = await keep(api.fileList({}));
    const names = root.entries.map((e) => e.name);
    expect(names).toEqual(expect.arrayContaining(["src", "README.md", "notes.txt", ".env", "innocent.txt"]));
    expect(names).not.toContain("link-out.txt");
    expect(names).not.toContain("dir-out");
    expect(names).not.toContain(".git");
    expect(root.entries[0]!.type).toBe("directory");
    expect((await keep(api.fileList({ path: "src/components" }))).entries).toEqual([{ name: "Button.tsx", path: "src/components/Button.tsx", type: "file", size: 34 }]);

    const ex = await example("find", "btn");
    expect(ex.code, ex.err).toBe(0);
    expect(ex.out).toContain("src/components/Button.tsx");
    expect(ex.out).toContain("export const Button");
    const found = await keep(api.fileFind({ query: "btn" }));
    expect(found.files[0]?.path).toBe("src/components/Button.tsx");
    expect((await keep(api.fileFind({ query: "secret" }))).files).toEqual([]);

    expect(await keep(api.fileRead({ path: "src/util/strings.ts" }))).toEqual({ path: "src/util/strings.ts", size: 20, truncated: false, content: "export const x = 1;\n" });
    expect((await keep(api.fileRead({ path: ".env.example" }))).content).toBe("TOKEN=\n");
    // 201 bytes of two-byte characters cut at 11: five whole characters, never half of one
    const cut = await keep(api.fileRead({ path: "big.txt", max_bytes: 11 }));
    expect(cut).toEqual({ path: "big.txt", size: 201, truncated: true, content: "ééééé" });
    await expect(keep(api.fileRead({ path: "nope.txt" }))).rejects.toMatchObject({ status: 404, code: "file_not_found" });
    await expect(keep(api.fileRead({ path: "src" }))).rejects.toMatchObject({ status: 400, code: "not_a_file" });
    await expect(keep(api.fileRead({ path: "blob.bin" }))).rejects.toMatchObject({ status: 415, code: "binary_file" });
  });

  it("refuses every way out of the project and every secrets file, with no content in the answer", async () => {
    const refusals: Array<[string, number, string]> = [
      ["../outside/secret.txt", 400, "invalid_path"],
      ["src/../../outside/secret.txt", 400, "invalid_path"],
      [path.join(outsideDir, "secret.txt"), 400, "invalid_path"],
      ["~/x", 400, "invalid_path"],
      ["link-out.txt", 403, "path_outside_project"],
      ["dir-out/secret.txt", 403, "path_outside_project"],
      [".env", 403, "secret_file"],
      [".git/config", 403, "path_refused"],
      ["innocent.txt", 403, "secret_file"],
    ];
    for (const [p, status, code] of refusals) {
      await expect(keep(api.fileRead({ path: p })), p).rejects.toMatchObject({ status, code });
    }
    await expect(keep(api.fileList({ path: "dir-out" }))).rejects.toMatchObject({ status: 403, code: "path_outside_project" });
    await expect(keep(api.fileList({ path: ".." }))).rejects.toMatchObject({ status: 400, code: "invalid_path" });
    await expect(keep(api.fileRead({ path: "pipe" }))).rejects.toMatchObject({ status: 400, code: "not_a_file" });
    await expect(keep(api.fileList({ path: ".git" }))).rejects.toMatchObject({ status: 403, code: "path_refused" });
    // a raw request that skips the client: an encoded `..` is still a `..`
    const raw = await srv.api<{ error: { code: string } }>("GET", `/file/content?path=${encodeURIComponent("src/%2e%2e/../outside/secret.txt")}`);
    seen.push(JSON.stringify(raw.body));
    expect(raw.status).toBeGreaterThanOrEqual(400);
  });
});

describe("the session's changed files and their diff", () => {
  it("changes and diff against the checkpoint; outside and .env files named, never shown; an outside edit seen", async () => {
    const s = await api.sessionCreate({ body: { model: "scripted/script.json" } });
    const stop = new AbortController();
    const stream = api.sessionEventStream({ id: s.id }, { signal: stop.signal });
    const { turnId } = await api.sessionPrompt({ id: s.id, body: { text: "write the files" } });
    for await (const ev of stream) {
      // writing outside the project asks even in bypassPermissions: a person here says once
      if (ev.event === "question_asked") await api.questionAnswer({ id: s.id, questionId: (ev.data as { questionId: string }).questionId, body: { answer: "once" } });
      if (ev.event === "turn_done" && (ev.data as { turnId: string }).turnId === turnId) break;
    }
    stop.abort();

    const changes = await keep(api.sessionChanges({ id: s.id }));
    const byPath = Object.fromEntries(changes.files.map((f) => [f.path, f]));
    expect(byPath["notes.txt"]).toMatchObject({ status: "modified", changedOutside: false, additions: 1, deletions: 1 });
    expect(byPath["new.txt"]).toMatchObject({ status: "added", additions: 1, deletions: 0 });
    expect(byPath[".env.local"]).toMatchObject({ status: "added", withheld: "secret_file" });
    expect(byPath[".env.local"]).not.toHaveProperty("additions");
    const outside = changes.files.find((f) => f.path === path.join(fs.realpathSync(outsideDir), "made.txt") || f.path === path.join(outsideDir, "made.txt"));
    expect(outside, JSON.stringify(changes.files)).toMatchObject({ status: "added", withheld: "outside_project" });
    expect(changes.files.every((f) => f.diff === undefined)).toBe(true);

    const diff = await keep(api.sessionDiff({ id: s.id, path: "notes.txt" }));
    expect(diff.files).toHaveLength(1);
    expect(diff.files[0]!.diff).toContain("--- a/notes.txt");
    expect(diff.files[0]!.diff).toContain("-mine");
    expect(diff.files[0]!.diff).toContain("+by the agent");
    const all = await keep(api.sessionDiff({ id: s.id }));
    expect(all.files.find((f) => f.path === "new.txt")?.diff).toContain("+fresh");
    expect(all.files.filter((f) => f.withheld).every((f) => f.diff === undefined)).toBe(true);

    // a person edits notes.txt after the turn: the diff is against the disk, and it says so
    fs.writeFileSync(path.join(sb.project, "notes.txt"), "by hand\n");
    const after = await keep(api.sessionDiff({ id: s.id, path: "notes.txt" }));
    expect(after.files[0]).toMatchObject({ changedOutside: true });
    expect(after.files[0]!.diff).toContain("+by hand");
    // one turn alone: its before against its after, whatever the disk holds now
    const turn = await keep(api.sessionDiff({ id: s.id, turn: 1, path: "notes.txt" }));
    expect(turn.files[0]!.diff).toContain("+by the agent");
    // the example prints the same, as a person would run it
    const ex = await example("diff", s.id);
    expect(ex.code, ex.err).toBe(0);
    expect(ex.out).toContain("+by hand");
    expect(ex.out).toContain("(not shown: outside_project)");
    expect(ex.out).toContain("(not shown: secret_file)");
    seen.push(ex.out);
    await expect(keep(api.sessionChanges({ id: s.id, turn: 9 }))).rejects.toMatchObject({ status: 404, code: "turn_not_found" });
    await expect(keep(api.sessionChanges({ id: "no-such-session" }))).rejects.toMatchObject({ status: 404, code: "session_not_found" });
  }, 60_000);

  it("no canary from outside the project or from a .env file in any answer", () => {
    const all = seen.join("\n");
    expect(all.length).toBeGreaterThan(1000);
    expect(all).not.toContain(OUTSIDE_CANARY);
    expect(all).not.toContain(ENV_CANARY);
    // the files outside are intact
    expect(fs.readFileSync(path.join(outsideDir, "secret.txt"), "utf8")).toBe(`${OUTSIDE_CANARY}\n`);
  });
});
