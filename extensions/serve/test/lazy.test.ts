/** Fastify loads only when a server starts: --help, run and inspect never import it (the serve extension's activation is a registry). */
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeSandbox, runCli, type Sandbox } from "../../../test/kit/cli.js";
import { startServe } from "./serve-helpers.js";

let sb: Sandbox;
let log: string;
let env: NodeJS.ProcessEnv;
beforeEach(() => {
  sb = makeSandbox("oc-serve-lazy-");
  // a module load hook that records every ES module URL the CLI loads
  const hooks = sb.write("hooks.mjs", `import { appendFileSync } from "node:fs";\nexport async function load(url, context, next) { appendFileSync(process.env.OC_TEST_LOADLOG, url + "\\n"); return next(url, context); }\n`, "home");
  const reg = sb.write("register.mjs", `import { register } from "node:module";\nimport { pathToFileURL } from "node:url";\nregister(pathToFileURL(${JSON.stringify(hooks)}));\n`, "home");
  log = path.join(sb.home, "loaded.txt");
  env = { ...sb.env, NODE_OPTIONS: `--import ${reg}`, OC_TEST_LOADLOG: log };
});
afterEach(() => sb.cleanup());

const loaded = () => (fs.existsSync(log) ? fs.readFileSync(log, "utf8") : "");
const FASTIFY = /\/chunks\/(fastify|swagger)-[^/]*\.js$/m;

describe("serve: Fastify is loaded lazily", () => {
  it("--help, run and inspect do not load Fastify; serve does", async () => {
    for (const args of [["--help"], ["run", "--model", "scripted/echo", "hi"], ["inspect"]]) {
      fs.rmSync(log, { force: true });
      const r = runCli(["--directory", sb.project, ...args], { env });
      expect(r.code, r.stderr).toBe(0);
      expect(loaded()).toContain("/dist/hosts/cli/main.js");
      expect(loaded()).not.toMatch(FASTIFY);
    }
    fs.rmSync(log, { force: true });
    const srv = await startServe(["--directory", sb.project], { env });
    await srv.stop("SIGTERM");
    expect(loaded()).toMatch(FASTIFY);
  });
});
