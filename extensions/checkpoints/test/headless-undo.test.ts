/**
 * Undo where no person can be asked: `oceancode run "/undo"` and serve's POST /session/{id}/undo restore
 * the files and refuse over a file changed outside the agent, naming it (run exits 1; serve answers 409),
 * and nothing is changed by the refusal.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CLI, makeSandbox, type Sandbox } from "../../../test/kit/cli.js";
import { startServe, type Served } from "../../serve/test/serve-helpers.js";

let sb: Sandbox | undefined;
let srv: Served | undefined;
afterEach(async () => {
  await srv?.stop("SIGKILL");
  sb?.cleanup();
  sb = srv = undefined;
});

const SCRIPT = {
  steps: [
    // the write tool wants an existing file read first
    { tool_calls: [{ name: "read", input: { file_path: "notes.txt" } }] },
    { tool_calls: [{ name: "write", input: { file_path: "notes.txt", content: "by the agent\n" } }] },
    { text: "wrote it" },
    { tool_calls: [{ name: "write", input: { file_path: "notes.txt", content: "again\n" } }] },
    { text: "wrote again" },
  ],
  after: { text: "(done)" },
};

function setup(): Sandbox {
  const s = makeSandbox("oc-undo-headless-");
  s.write(".oceancode/oceancode.json", JSON.stringify({ permission_mode: "bypassPermissions" }));
  s.write("script.json", JSON.stringify(SCRIPT));
  s.write("notes.txt", "mine\n");
  return s;
}
const oc = (s: Sandbox, ...a: string[]) => {
  const r = spawnSync(process.execPath, [CLI, ...a], { cwd: s.project, env: s.env, encoding: "utf8", timeout: 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
};
const notes = (s: Sandbox) => fs.readFileSync(path.join(s.project, "notes.txt"), "utf8");

describe("undo without a person to ask", () => {
  it('run -c "/undo" restores the file; over an outside change it refuses with the file name and exits 1', () => {
    sb = setup();
    expect(oc(sb, "run", "-m", "scripted/script.json", "write the notes").code).toBe(0);
    expect(notes(sb)).toBe("by the agent\n");
    const u = oc(sb, "run", "-c", "/undo");
    expect(u.code, u.err).toBe(0);
    expect(u.out).toContain('undid turn 1 ("write the notes"): restored notes.txt');
    expect(notes(sb)).toBe("mine\n");
    expect(oc(sb, "run", "-c", "/redo").code).toBe(0);
    expect(notes(sb)).toBe("by the agent\n");

    fs.writeFileSync(path.join(sb.project, "notes.txt"), "edited by hand\n");
    const r = oc(sb, "run", "-c", "/undo");
    expect(r.code).toBe(1);
    expect(r.err).toContain("/undo refused: changed outside the agent since the checkpoint: notes.txt (nothing was changed)");
    expect(notes(sb)).toBe("edited by hand\n");
  });

  it("POST /session/{id}/undo answers what it restored; 409 naming the file over an outside change; force overwrites", async () => {
    sb = setup();
    srv = await startServe(["--directory", sb.project], { env: sb.env });
    const id = (await srv.api<{ id: string }>("POST", "/session", { model: "scripted/script.json" })).body.id;
    await srv.api("POST", `/session/${id}/prompt`, { text: "write the notes" });
    for (let i = 0; i < 200 && notes(sb) !== "by the agent\n"; i++) await new Promise((r) => setTimeout(r, 25));
    for (let i = 0; i < 200 && (await srv.api<{ running?: string }>("GET", `/session/${id}`)).body.running; i++) await new Promise((r) => setTimeout(r, 25));
    const u = await srv.api<{ ok: boolean; restored: string[] }>("POST", `/session/${id}/undo`, {});
    expect(u.status).toBe(200);
    expect(u.body.restored).toEqual([path.join(sb.project, "notes.txt")]);
    expect(notes(sb)).toBe("mine\n");
    expect((await srv.api("POST", `/session/${id}/redo`, {})).status).toBe(200);
    fs.writeFileSync(path.join(sb.project, "notes.txt"), "edited by hand\n");
    const r = await srv.api<{ ok: boolean; reason: string; files: string[] }>("POST", `/session/${id}/undo`, {});
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ ok: false, reason: "changed", files: [path.join(sb.project, "notes.txt")] });
    expect(notes(sb)).toBe("edited by hand\n");
    expect((await srv.api("POST", `/session/${id}/undo`, { force: true })).status).toBe(200);
    expect(notes(sb)).toBe("mine\n");
    expect((await srv.api<{ reason: string }>("POST", `/session/${id}/rewind`, { turn: 5 })).body.reason).toBe("nothing");
  });
});
