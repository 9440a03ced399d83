/**
 * A throwaway world for the confinement attacks: HOME and project under the real home directory (not
 * /tmp, so the sandbox's private /tmp does not hide them and the secret hiding itself is what is tested),
 * canary files in HOME's secret places, a canary .env in the project (a git repository), canary secrets in
 * the environment, and the fake Anthropic server playing the model (every request body is recorded).
 * One CLI run per scenario carries many tool calls; results are read from the --format json events.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { homeEnv } from "../../kit/fakes/home-env.js";
import { runCliAsync, type RunResult } from "../../kit/cli.js";
import { startFakeAnthropic, type FakeAnthropicServer, type FakeToolCall } from "../../kit/fakes/anthropic-server.js";
import { findOnPath } from "../../../extensions/sandbox/bwrap.js";

export const HAS_BWRAP = process.platform === "linux" && !!findOnPath("bwrap");

/** Secret values: none may appear in a tool result, a request body, a transcript, a DB row or a child's env. */
export const CANARY = {
  ssh: "SSH-CANARY-7f3a",
  aws: "AWS-CANARY-19bd",
  netrc: "NETRC-CANARY-c0de",
  dotenv: "DOTENV-CANARY-5eed",
  ocAuth: "OCAUTH-CANARY-a11",
  apiKey: "sk-ant-APIKEY-CANARY-77",
  githubPat: "GHPAT-CANARY-31",
  pgPassword: "PGPW-CANARY-42",
  mysqlPwd: "MYSQLPW-CANARY-43",
  dbUrlPassword: "DBURLPW-CANARY-44",
  webhook: "WEBHOOK-CANARY-45",
  cookie: "COOKIE-CANARY-46",
} as const;

export const SECRET_ENV: NodeJS.ProcessEnv = {
  GITHUB_PAT: CANARY.githubPat,
  PGPASSWORD: CANARY.pgPassword,
  MYSQL_PWD: CANARY.mysqlPwd,
  DATABASE_URL: `postgres://app:${CANARY.dbUrlPassword}@db.internal:5432/app`,
  SLACK_WEBHOOK_URL: `https://hooks.slack.com/services/T000/B000/${CANARY.webhook}`,
  SITE_COOKIE: CANARY.cookie,
};

export interface World {
  root: string;
  home: string;
  project: string;
  outside: string;
  fake: FakeAnthropicServer;
  env: NodeJS.ProcessEnv;
  write(rel: string, content: string, base?: "home" | "project"): string;
  /** the user's config (~/.config/oceancode/oceancode.jsonc) */
  config(cfg: Record<string, unknown>): void;
  /** one run --auto (or `args`) with these tool calls in order, then "done" */
  run(calls: FakeToolCall[], opts?: { args?: string[]; env?: NodeJS.ProcessEnv }): Promise<Outcome>;
  close(): Promise<void>;
}

export interface Outcome extends RunResult {
  /** tool result text by call id */
  results: Map<string, string>;
}

export async function makeWorld(prefix = "conf"): Promise<World> {
  // under HOME, not /tmp: see the header
  const root = fs.mkdtempSync(path.join(os.homedir(), `.oc-${prefix}-`));
  const home = path.join(root, "home");
  const project = path.join(root, "project");
  const outside = path.join(root, "outside");
  for (const d of [home, project, outside]) fs.mkdirSync(d, { recursive: true });
  const put = (file: string, content: string): string => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
    return file;
  };
  put(path.join(home, ".ssh", "id_canary"), `-----BEGIN OPENSSH PRIVATE KEY-----\n${CANARY.ssh}\n`);
  put(path.join(home, ".aws", "credentials"), `[default]\naws_secret_access_key = ${CANARY.aws}\n`);
  put(path.join(home, ".netrc"), `machine example.com login u password ${CANARY.netrc}\n`);
  put(path.join(home, ".oceancode", "auth.json"), JSON.stringify({ token: CANARY.ocAuth }));
  put(path.join(home, "notes.txt"), "not a secret, but the user's\n");
  put(path.join(project, ".env"), `API_SECRET=${CANARY.dotenv}\n`);
  put(path.join(project, "README.md"), "# a project\n");
  spawnSync("git", ["init", "-q"], { cwd: project });
  const fake = await startFakeAnthropic();
  const env: NodeJS.ProcessEnv = {
    ...homeEnv(home, path.join(root, "managed", "managed.json")),
    ANTHROPIC_API_KEY: CANARY.apiKey,
    ANTHROPIC_BASE_URL: fake.url,
    OC_RETRY_BASE_MS: "10",
    ...SECRET_ENV,
  };
  const w: World = {
    root,
    home,
    project,
    outside,
    fake,
    env,
    write: (rel, content, base = "project") => put(path.join(base === "home" ? home : project, rel), content),
    config: (cfg) => void put(path.join(home, ".config", "oceancode", "oceancode.jsonc"), JSON.stringify(cfg, null, 2)),
    async run(calls, opts = {}) {
      fake.reset();
      let i = 0;
      fake.respond(() => {
        const c = calls[i++];
        return c ? { text: `step ${i}`, toolCalls: [c] } : { text: "done" };
      });
      const args = opts.args ?? ["run", "--auto", "--format", "json", "--model", "anthropic/claude-sonnet-4-5", "go"];
      const r = await runCliAsync(args, { cwd: project, env: { ...env, ...opts.env }, timeoutMs: 90_000 });
      const results = new Map<string, string>();
      for (const line of r.stdout.split("\n")) {
        if (!line.startsWith("{")) continue;
        const e = JSON.parse(line) as { type: string; call?: { id: string }; result?: { content: string } };
        if (e.type === "tool_call_end" && e.call && e.result) results.set(e.call.id, e.result.content);
      }
      return { ...r, results };
    },
    async close() {
      await fake.close();
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
  return w;
}

export function bash(id: string, command: string, extra: Record<string, unknown> = {}): FakeToolCall {
  return { id, name: "bash", input: { command, ...extra } };
}

/** Every file under `dir` (bounded), for "the secret is in no file oceancode wrote". */
export function filesUnder(dir: string, max = 5000): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    let ents: fs.Dirent[];
    try {
      ents = fs.readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of ents) {
      if (out.length >= max) return;
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out.push(p);
    }
  };
  walk(dir);
  return out;
}

/** Which canary values appear in `text`. */
export function leaked(text: string, values: readonly string[] = Object.values(CANARY)): string[] {
  return values.filter((v) => text.includes(v));
}
