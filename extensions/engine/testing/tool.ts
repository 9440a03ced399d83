/**
 * describeToolContract: what a model tool owes the engine, the permission rules and the hooks: a
 * valid schema the sample input satisfies, a result of the documented shape, and the subject a
 * permission ask shows (and a Tool(pattern) rule matches).
 */
import { describe, expect, it, afterAll, beforeAll } from "vitest";
import type { ToolContext, ToolDefinition, SpawnSpec } from "../api.js";
import { createRequire } from "node:module";
import { tempDir } from "./common.js";

export interface ToolFixture {
  tool: ToolDefinition;
  /** an input the tool accepts */
  input: Record<string, unknown>;
  /** an input the tool's schema refuses (optional) */
  invalidInput?: Record<string, unknown>;
  /** the working directory its run gets (default: a fresh temp dir) */
  cwd?: string;
  /** checks on a successful run's content (optional) */
  expectContent?(content: string): void;
  close?(): void | Promise<void>;
}

const KINDS = ["read", "edit", "execute", "search", "other"];

type Validate = ((data: unknown) => boolean) & { errors?: unknown };

function compile(schema: Record<string, unknown>): Validate {
  // ajv ships with oceancode; loaded with require so this module stays cheap to import
  const Ajv = createRequire(import.meta.url)("ajv").default as new (o: Record<string, unknown>) => { compile(s: unknown): Validate };
  return new Ajv({ strict: false, allErrors: true }).compile(schema);
}

export function toolContext(f: { tool: ToolDefinition; input: Record<string, unknown>; cwd: string }, signal: ToolContext["signal"] = new AbortController().signal): ToolContext {
  return {
    session: { id: "conformance", cwd: f.cwd, model: "scripted/conformance", createdAt: Date.now(), overrides: {} },
    call: { id: "call-1", name: f.tool.name, input: f.input },
    cwd: f.cwd,
    signal,
    prepareSpawn: async (spec): Promise<SpawnSpec> => ({ ...spec, env: spec.env ?? { PATH: process.env.PATH } }),
    state: new Map(),
  };
}

export function describeToolContract(name: string, make: () => ToolFixture | Promise<ToolFixture>): void {
  describe(`tool contract: ${name}`, () => {
    let f: ToolFixture;
    let cwd: string;
    beforeAll(async () => {
      f = await make();
      cwd = f.cwd ?? tempDir("oc-tool-conformance-");
    });
    afterAll(async () => {
      await f?.close?.();
    });

    it("names and describes itself; its kind is one the permission modes know", () => {
      expect(f.tool.name).toMatch(/^[a-z][a-z0-9_]*$/);
      expect(f.tool.description.trim().length).toBeGreaterThan(0);
      expect(KINDS).toContain(f.tool.kind);
      if (f.tool.claudeName !== undefined) expect(f.tool.claudeName).toMatch(/^[A-Za-z][A-Za-z0-9_]*$/);
    });

    it("has an object JSON Schema that compiles, accepts the sample input and refuses the invalid one", () => {
      expect(f.tool.inputSchema.type).toBe("object");
      const validate = compile(f.tool.inputSchema);
      expect(validate(f.input), JSON.stringify(validate.errors)).toBe(true);
      if (f.invalidInput) expect(validate(f.invalidInput)).toBe(false);
      // what providers send is plain JSON
      expect(JSON.parse(JSON.stringify(f.tool.inputSchema))).toEqual(f.tool.inputSchema);
    });

    it("gives a permission ask and a Tool(pattern) rule a subject: a non-empty string", () => {
      if (!f.tool.ruleSubject) return;
      const subject = f.tool.ruleSubject(f.input, cwd);
      expect(typeof subject).toBe("string");
      expect(subject.length).toBeGreaterThan(0);
    });

    it("maps hook payloads both ways when it offers Claude-shaped input", () => {
      if (!f.tool.toClaudeInput) return;
      const claude = f.tool.toClaudeInput(f.input, cwd);
      expect(typeof claude).toBe("object");
      if (f.tool.fromClaudeInput) {
        const back = f.tool.fromClaudeInput(claude);
        const validate = compile(f.tool.inputSchema);
        expect(validate(back), JSON.stringify(validate.errors)).toBe(true);
      }
    });

    it("runs: the result is { content: string, isError?: boolean, metadata?: object }", async () => {
      const out = await f.tool.run(f.input, toolContext({ tool: f.tool, input: f.input, cwd }));
      expect(typeof out.content).toBe("string");
      if (out.isError !== undefined) expect(typeof out.isError).toBe("boolean");
      if (out.metadata !== undefined) expect(typeof out.metadata).toBe("object");
      expect(out.isError ?? false).toBe(false);
      f.expectContent?.(out.content);
    });

    it("a bad input is a result with isError (or a thrown Error), never a hang", async () => {
      if (!f.invalidInput) return;
      let out;
      try {
        out = await f.tool.run(f.invalidInput, toolContext({ tool: f.tool, input: f.invalidInput, cwd }));
      } catch (e) {
        expect(e).toBeInstanceOf(Error);
        return;
      }
      expect(out.isError).toBe(true);
      expect(typeof out.content).toBe("string");
    });

    it("returns promptly when its signal is already aborted", async () => {
      const ac = new AbortController();
      ac.abort();
      const t0 = Date.now();
      await Promise.resolve(f.tool.run(f.input, toolContext({ tool: f.tool, input: f.input, cwd }, ac.signal))).catch(() => undefined);
      expect(Date.now() - t0).toBeLessThan(5000);
    });
  });
}
