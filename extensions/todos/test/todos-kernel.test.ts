/**
 * The todos extension on a real kernel (the compiled bundled extensions, SQLite storage, the ledger) with
 * the scripted model: /plan row edits through kernel.runSlash, an edit made while a step runs merged on the
 * next step (the window's note, and over a list the model wrote without seeing it), a row added while idle
 * picking the work back up (host.prompt), plan mode through an attached service, subscribe, the list
 * across a reopen, and GET /session/:id/todos (schema-checked, through Fastify).
 */
import { afterEach, describe, expect, it } from "vitest";
import type { Row, Session } from "../../engine/api.js";
import type { PlanModeService, TodoList, TodosService } from "../api.js";
import { todosRoutes, type TodosAnswer } from "../routes.js";
import { boot as bootRoutes, mount, problems, request, routeOf, shutdown, type Booted as RoutesBooted } from "../../serve/test/routes/helpers.js";
import { boot, slash, type Booted } from "../../checkpoints/test/helpers.js";

let b: Booted | undefined;
let rb: RoutesBooted | undefined;
afterEach(async () => {
  if (b) {
    await b.kernel.shutdown();
    b.sb.cleanup();
  }
  b = undefined;
  await shutdown(rb);
  rb = undefined;
});

const notes = (rows: Row[]) => rows.filter((r) => r.role === "note").map((r) => (r.role === "note" ? r.text : ""));
const rowsOf = (l: TodoList) => l.items.map((i) => `${i.status}:${i.content}:${i.by}`);

describe("/plan and the todos service", () => {
  it("row edits: add, done, drop, move, list; the floor takes no edit but an add; bad row numbers are refused; stored on the session", async () => {
    b = await boot([]);
    const todos = await b.kernel.service("todos");
    const s = await b.engine.createSession({ cwd: b.sb.project, model: "scripted/echo" });
    const seen: TodoList[] = [];
    const unsubscribe = todos.subscribe((l) => seen.push(l));
    await b.engine.prompt(s, "hello there");
    expect(rowsOf(todos.get(s))).toEqual(["completed:hello there:floor"]);
    expect(todos.get(s)).toMatchObject({ floor: true, planned: false });
    expect(await slash(b, s, "plan", "list")).toBe("plan (the prompt; the model has not planned yet):\n 1. [x] hello there");
    expect(await slash(b, s, "plan", "done 1")).toBe("/plan: the list is only the prompt (the model has not planned yet); add a row with /plan add <text>");

    const prompts: string[] = [];
    const idle = { busy: () => false, prompt: async (t: string) => void prompts.push(t) || true };
    expect(await slash(b, s, "plan", "add write the docs", idle)).toBe("plan (1 open):\n 1. [ ] write the docs  (you)");
    // added while idle: the run picks the work back up with a continuation naming the row
    expect(prompts).toEqual(['I added a to-do to the plan: "write the docs". Please continue with the plan.']);
    const busy = { busy: () => true, prompt: async (t: string) => void prompts.push(t) || true };
    expect(await slash(b, s, "plan", "add run the tests", busy)).toBe("plan (2 open):\n 1. [ ] write the docs  (you)\n 2. [ ] run the tests  (you)\n(the model sees this on its next step)");
    expect(prompts).toHaveLength(1);
    expect(await slash(b, s, "plan", "move 2 1", busy)).toContain(" 1. [ ] run the tests  (you)\n 2. [ ] write the docs  (you)");
    expect(await slash(b, s, "plan", "done 1", busy)).toContain(" 1. [x] run the tests");
    expect(todos.counts(s)).toEqual({ open: 1, completed: 1 });
    expect(await slash(b, s, "plan", "drop 5", busy)).toBe("/plan: no row 5: the list has 2 rows");
    expect(await slash(b, s, "plan", "move 1", busy)).toMatch(/^\/plan move: two row numbers/);
    expect(await slash(b, s, "plan", "drop 2", busy)).toBe("plan (0 open):\n 1. [x] run the tests  (you)\n(the model sees this on its next step)");
    expect(await slash(b, s, "plan", "show")).toBe("plan (0 open):\n 1. [x] run the tests  (you)");
    // every change reached the subscriber, versions rising
    expect(seen.length).toBeGreaterThanOrEqual(6);
    expect(seen.map((l) => l.version)).toEqual([...seen.map((l) => l.version)].sort((x, y) => x - y));
    unsubscribe();
    // stored on the session: a reopen (from the database) has the same list
    expect(s.info.overrides.todos).toMatchObject({ items: [{ content: "run the tests", status: "completed", by: "user" }], floor: false, planned: false });
    const id = s.info.id;
    await b.engine.closeSession(s, "test");
    const again = await b.engine.openSession(id);
    expect(rowsOf(todos.get(again))).toEqual(["completed:run the tests:user"]);
  });

  it("plan mode: a bare /plan enters the bundled plan mode; the newest attached plan-mode service gets bare /plan and /plan <text>", async () => {
    b = await boot([]);
    const todos = await b.kernel.service("todos");
    const s = await b.engine.createSession({ cwd: b.sb.project, model: "scripted/echo" });
    // the plan-mode extension attached itself when it activated
    expect(await slash(b, s, "plan", "")).toContain("plan mode on: editing is off");
    expect(s.info.overrides.agent).toBe("plan");
    const entered: Array<[string, string | undefined]> = [];
    const pm: PlanModeService = { enter: async (session: Session, text?: string) => void entered.push([session.info.id, text]), active: () => false };
    const detach = todos.attachPlanMode(pm);
    await slash(b, s, "plan", "");
    await slash(b, s, "plan", "think about caching");
    expect(entered).toEqual([
      [s.info.id, undefined],
      [s.info.id, "think about caching"],
    ]);
    detach();
    await slash(b, s, "plan", "");
    expect(entered).toHaveLength(2); // back to the bundled one
  });

  it("an edit made while a step runs reaches the model on its next step, and survives a list the model wrote without seeing it", async () => {
    b = await boot([
      { text: "plan", tool_calls: [{ name: "todo_write", input: { todos: [{ content: "A", status: "in_progress" }, { content: "B", status: "pending" }] } }] },
      { text: "progress", tool_calls: [{ name: "todo_write", input: { todos: [{ content: "A", status: "completed" }, { content: "B", status: "in_progress" }] } }] },
      { text: "```todo\n- [x] A\n- [x] B\n- [x] C\n```\nAll three done." },
    ]);
    const todos = await b.kernel.service("todos");
    const s = await b.engine.createSession({ cwd: b.sb.project, model: "scripted/script.json" });
    // the person's edit lands during step 2, after its window was built and before its todo_write runs
    b.engine.hooks.modelRequest.tap({ name: "test-edit" }, async (req, step) => {
      if (step.step === 2) expect(await slash(b!, s, "plan", "add C", { busy: () => true })).toContain(' 3. [ ] C  (you)');
      return req;
    });
    const r = await b.engine.prompt(s, "do A and B");
    expect(r.reason).toBe("end_turn");
    expect(b.windows).toHaveLength(3);
    expect(notes(b.windows[1]!).filter((n) => n.includes("edited the plan"))).toEqual([]);
    expect(notes(b.windows[2]!)).toContain('The user edited the plan: added row 3 "C". The plan is now:\n- [x] A\n- [~] B\n- [ ] C\nKeep these rows (the user\'s included) when you next write the list with todo_write.');
    expect(rowsOf(todos.get(s))).toEqual(["completed:A:model", "completed:B:model", "completed:C:user"]);
    expect(todos.get(s)).toMatchObject({ planned: true, floor: false });
  });

  it("the work-off is for root sessions only: a sub-agent (child) that settles with open rows is not continued; a child does not inherit its parent's list", async () => {
    b = await boot([{ text: "plan", tool_calls: [{ name: "todo_write", input: { todos: [{ content: "A", status: "pending" }] } }] }, { text: "stopping" }]);
    const todos = await b.kernel.service("todos");
    const parent = await b.engine.createSession({ cwd: b.sb.project, model: "scripted/echo" });
    await slash(b, parent, "plan", "add the parent's row", { busy: () => true });
    const child = await b.engine.createSession({ cwd: b.sb.project, model: "scripted/script.json", parentId: parent.info.id });
    expect(todos.get(child).items).toEqual([]);
    const r = await b.engine.prompt(child, "sub task");
    expect(r.reason).toBe("end_turn");
    expect(b.windows).toHaveLength(2);
    expect(todos.counts(child)).toEqual({ open: 1, completed: 0 });
    expect(rowsOf(todos.get(child))).toEqual(["pending:A:model"]);
    expect(rowsOf(todos.get(parent))).toEqual(["pending:the parent's row:user"]);
  });

  it("the tool is registered as todo_write, Claude Code's TodoWrite for hook matchers and rules; a malformed input is an error result", async () => {
    b = await boot([{ text: "bad", tool_calls: [{ name: "todo_write", input: { todos: [{ content: "A", status: "someday" }] } }] }, { text: "ok" }]);
    const tool = b.engine.tools.get("todo_write")!;
    expect(tool.claudeName).toBe("TodoWrite");
    expect(tool.description).toContain("three or more distinct steps");
    expect(tool.description).toContain("one item in_progress at a time");
    const todos = await b.kernel.service("todos");
    const s = await b.engine.createSession({ cwd: b.sb.project, model: "scripted/script.json" });
    const claudeNames: string[] = [];
    b.engine.hooks.authorizeToolCall.tap({ name: "test-claude-name", stage: "floor" }, (c) => void claudeNames.push(c.claude.toolName));
    await b.engine.prompt(s, "go");
    expect(claudeNames).toEqual(["TodoWrite"]);
    const tr = s.rows.find((r) => r.role === "tool");
    expect(tr?.role === "tool" && tr.results[0]).toMatchObject({ isError: true, content: "todo_write: todos[0].status 'someday' is not one of pending, in_progress, completed, cancelled" });
    expect(todos.get(s)).toMatchObject({ planned: false, floor: true });
  });
});

describe("GET /session/:id/todos", () => {
  it("answers the list and its counts, conforming to its schema, through Fastify; an unknown session is 404", async () => {
    rb = await bootRoutes((sb) => {
      sb.write("s.json", JSON.stringify({ steps: [{ text: "plan", tool_calls: [{ name: "todo_write", input: { todos: [{ content: "A", status: "completed", activeForm: "Doing A" }, { content: "B", status: "in_progress", activeForm: "Doing B" }] } }] }], after: { text: "ok" } }));
      return { OC_PLAN: "off" }; // no work-off: the run ends with B still in progress
    });
    const todos = await rb.kernel.service("todos");
    const routes = todosRoutes(todos);
    const s = await rb.engine.createSession({ cwd: rb.sb.project, model: "scripted/s.json" });
    await rb.engine.prompt(s, "go");
    const r = routeOf(routes, "GET", "/session/:id/todos");
    const out = (await r.handler(request(rb.engine, { params: { id: s.info.id } }))) as TodosAnswer;
    expect(problems(r.schema!.response![200]!, out)).toEqual([]);
    expect(out).toEqual({
      sessionId: s.info.id,
      items: [
        { content: "A", status: "completed", activeForm: "Doing A", by: "model" },
        { content: "B", status: "in_progress", activeForm: "Doing B", by: "model" },
      ],
      floor: false,
      planned: true,
      version: out.version,
      open: 1,
      completed: 1,
    });
    expect(out.version).toBeGreaterThan(0);
    const app = await mount(routes, rb.engine);
    try {
      const res = await app.inject({ method: "GET", url: `/session/${s.info.id}/todos` });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(out);
      const missing = await app.inject({ method: "GET", url: "/session/ses_nope/todos" });
      expect(missing.statusCode).toBe(404);
      expect(app.openapi().paths?.["/session/{id}/todos"]?.get?.operationId).toBe("sessionTodos");
    } finally {
      await app.close();
    }
  });
});
