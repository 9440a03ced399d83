/**
 * Sessions, prompts with attachments, `!` shell and slash commands over HTTP, through the typed client
 * against a real `oceancode serve` and the fake Anthropic server: the list searched and paged, renamed,
 * pinned and unpinned; a prompt's image, uploaded file and project file reach the provider, a refused one
 * queues nothing and leaks nothing; a shell command runs through the bash tool's rules, questions and
 * sandbox (effects checked on disk), its output goes with the next prompt; a slash command runs through
 * the kernel and its effect shows on the todos route.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { OceancodeClient } from "../client/index.js";
import { servedOnFake } from "./serve-tests.js";

const MODEL = "anthropic/claude-sonnet-4-5";
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
const CANARY = "canary-secret-5d1e0b";

const { fake, sb, srv, api } = servedOnFake({
  prefix: "oc-serve-sessions-",
  setup(sb) {
    sb.write(".oceancode/oceancode.json", JSON.stringify({ permission: ["read secret.txt deny", "bash touch * deny", "bash mkdir * ask", "bash cp * allow"] }));
    sb.write("secret.txt", `${CANARY}\n`);
    sb.write("src/app.ts", "export const answer = 42;\n");
    sb.write("shell-in.txt", "output of the shell command\n");
  },
});

async function promptToDone(id: string, text: string, attachments?: Parameters<OceancodeClient["sessionPrompt"]>[0]["body"]["attachments"]): Promise<void> {
  const stop = new AbortController();
  // the stream connects on its first read: from event 0, so a turn that ends before that is still seen
  const stream = api.sessionEventStream({ id }, { signal: stop.signal, lastEventId: "0" });
  const { turnId } = await api.sessionPrompt({ id, body: { text, ...(attachments ? { attachments } : {}) } });
  for await (const ev of stream) if (ev.event === "turn_done" && (ev.data as { turnId: string }).turnId === turnId) break;
  stop.abort();
}

/** the last request's last user message as JSON text (what the model was sent) */
const lastUser = () => {
  const msgs = fake.requests.at(-1)!.body.messages ?? [];
  return JSON.stringify(msgs.filter((m) => m.role === "user").at(-1));
};

describe("sessions over HTTP", () => {
  it("the list is searched and paged; a session is renamed, pinned and unpinned", async () => {
    const ids: string[] = [];
    for (const title of ["alpha fix the upload", "beta write docs", "gamma fix the parser"]) {
      const s = await api.sessionCreate({ body: { model: MODEL } });
      fake.enqueue({ text: "ok" });
      await promptToDone(s.id, title);
      ids.push(s.id);
    }
    const fixes = await api.sessionList({ search: "FIX the" });
    expect(fixes.map((s) => s.id).sort()).toEqual([ids[0], ids[2]].sort());
    const page1 = await api.sessionList({ search: "fix", limit: 1 });
    const page2 = await api.sessionList({ search: "fix", limit: 1, offset: 1 });
    expect(page1).toHaveLength(1);
    expect(page2).toHaveLength(1);
    expect(page1[0]!.id).not.toBe(page2[0]!.id);
    expect(await api.sessionList({ search: "fix", offset: 2 })).toEqual([]);

    const renamed = await api.sessionRename({ id: ids[1]!, body: { title: "delta release notes" } });
    expect(renamed.title).toBe("delta release notes");
    expect((await api.sessionList({ search: "release notes" })).map((s) => s.id)).toEqual([ids[1]]);
    await expect(api.sessionRename({ id: ids[1]!, body: { title: "two\nlines" } })).rejects.toMatchObject({ status: 400, code: "invalid_request" });

    expect(await api.sessionPin({ id: ids[2]! })).toEqual({ id: ids[2], pinned: true, changed: true });
    expect((await api.sessionPin({ id: ids[2]! })).changed).toBe(false);
    expect((await api.sessionList({ pinned: true })).map((s) => s.id)).toEqual([ids[2]]);
    expect((await api.sessionList({ pinned: false })).map((s) => s.id)).not.toContain(ids[2]);
    expect(await api.sessionUnpin({ id: ids[2]! })).toEqual({ id: ids[2], pinned: false, changed: true });
    expect(await api.sessionList({ pinned: true })).toEqual([]);
    await expect(api.sessionPin({ id: "no-such-session" })).rejects.toMatchObject({ status: 404, code: "session_not_found" });
  }, 60_000);
});

describe("prompts with attachments", () => {
  it("an image, an uploaded file and a project file reach the provider with the prompt", async () => {
    const s = await api.sessionCreate({ body: { model: MODEL } });
    fake.enqueue({ text: "seen" });
    const upload = `first line\n${"x".repeat(300 * 1024)}`;
    await promptToDone(s.id, "look at these", [
      { type: "image", mediaType: "image/png", data: PNG },
      { type: "file", path: "notes/upload.txt", content: upload },
      { type: "file", path: "src/app.ts" },
    ]);
    const sent = lastUser();
    expect(sent).toContain(PNG);
    expect(sent).toContain("image/png");
    expect(sent).toContain("notes/upload.txt");
    expect(sent).toContain("first line");
    expect(sent).toContain("cut at 262144");
    expect(sent).not.toContain("x".repeat(270 * 1024)); // capped
    expect(sent).toContain("export const answer = 42;");
    const rows = (await api.sessionMessages({ id: s.id })).messages;
    expect(rows.find((r) => r.role === "user")).toMatchObject({ images: [{ mediaType: "image/png", data: PNG }] });
  }, 60_000);

  it("a refused attachment is a 400 that queues nothing and sends nothing", async () => {
    const s = await api.sessionCreate({ body: { model: MODEL } });
    const before = fake.requests.length;
    await expect(api.sessionPrompt({ id: s.id, body: { text: "read it", attachments: [{ type: "file", path: "secret.txt" }] } })).rejects.toMatchObject({ status: 400, code: "attachment_refused" });
    await expect(api.sessionPrompt({ id: s.id, body: { text: "read it", attachments: [{ type: "file", path: "../home/.bashrc" }] } })).rejects.toMatchObject({ status: 400, code: "attachment_refused" });
    await expect(api.sessionPrompt({ id: s.id, body: { text: "x", attachments: [{ type: "image", mediaType: "image/png", data: "not base64!" }] } })).rejects.toMatchObject({ status: 400, code: "invalid_request" });
    expect((await api.sessionGet({ id: s.id })).queued).toBe(0);
    expect(fake.requests.length).toBe(before);
    for (const r of fake.requests) expect(JSON.stringify(r.body)).not.toContain(CANARY);
  });
});

describe("! shell and slash commands over HTTP", () => {
  it("a shell command runs through the bash tool and its output goes with the next prompt", async () => {
    const s = await api.sessionCreate({ body: { model: MODEL } });
    const r = await api.sessionShell({ id: s.id, body: { command: "cat shell-in.txt" } });
    expect(r).toMatchObject({ isError: false, attached: true });
    expect(r.content).toContain("output of the shell command");
    fake.enqueue({ text: "noted" });
    await promptToDone(s.id, "what did it say?");
    expect(lastUser()).toContain("output of the shell command");
    expect(lastUser()).toContain("cat shell-in.txt");
    // carried once only
    fake.enqueue({ text: "again" });
    await promptToDone(s.id, "and now?");
    expect(lastUser()).not.toContain("output of the shell command");
  }, 60_000);

  it("the rules, the questions and the sandbox apply to it: effects checked on disk", async () => {
    const s = await api.sessionCreate({ body: { model: MODEL } });
    // a deny rule
    const denied = await api.sessionShell({ id: s.id, body: { command: "touch denied.txt", attach: false } });
    expect(denied.isError).toBe(true);
    expect(fs.existsSync(path.join(sb.project, "denied.txt"))).toBe(false);
    // an ask goes to the HTTP client as a question; rejected, nothing runs
    const asked = api.sessionShell({ id: s.id, body: { command: "mkdir asked-dir", attach: false } });
    const q = await waitForQuestion(s.id);
    expect(q.question.subject).toContain("mkdir asked-dir");
    await api.questionAnswer({ id: s.id, questionId: q.id, body: { answer: "reject", reason: "not now" } });
    expect((await asked).isError).toBe(true);
    expect(fs.existsSync(path.join(sb.project, "asked-dir"))).toBe(false);
    // a wildcard allow is an automatic approval: confined, it cannot write the project's .git (read-only in the sandbox)
    const outside = path.join(sb.project, ".git", "escaped.txt");
    const escaped = api.sessionShell({ id: s.id, body: { command: `cp shell-in.txt ${outside}`, attach: false } });
    const settled = await Promise.race([escaped.then(() => "done"), waitForQuestion(s.id).then((x) => x)]);
    if (settled !== "done") await api.questionAnswer({ id: s.id, questionId: settled.id, body: { answer: "reject" } });
    expect((await escaped).isError).toBe(true);
    expect(fs.existsSync(outside)).toBe(false);
  }, 60_000);

  it("a slash command runs through the kernel; its replies are the answer", async () => {
    const s = await api.sessionCreate({ body: { model: MODEL } });
    const r = await api.sessionCommand({ id: s.id, body: { command: "/plan add write the release notes" } });
    expect(r.ok).toBe(true);
    expect(r.replies.join("\n")).toContain("write the release notes");
    const todos = await api.sessionTodos({ id: s.id });
    expect(todos.items.map((i) => i.content)).toContain("write the release notes");
    await expect(api.sessionCommand({ id: s.id, body: { command: "/no-such-command" } })).rejects.toMatchObject({ status: 404, code: "unknown_command" });
    await expect(api.sessionCommand({ id: s.id, body: { command: "!! not a slash command" } })).rejects.toMatchObject({ status: 400 });
  });
});

/** The session's first waiting question (bounded wait). */
async function waitForQuestion(id: string): Promise<{ id: string; question: { subject: string } }> {
  for (let i = 0; i < 200; i++) {
    const qs = await api.questionList({ id });
    if (qs[0]) return qs[0];
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("no question was asked in 10 s");
}
