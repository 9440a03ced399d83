/**
 * `oceancode login` / `logout` for the Claude Code route: they run claude's own `claude auth login` /
 * `claude auth logout` interactively (the terminal is handed over), so oceancode never sees or stores
 * claude's tokens. Other providers' logins (copilot, codex) are not in this build.
 */
import { spawn } from "node:child_process";
import type { CommandIO } from "../../kernel/api.js";
import { INSTALL_HINT, locateClaude } from "./locate.js";
import { claudeEnv } from "./child-env.js";

/** The login child's environment: no secret-looking names but the ones claude reads itself, no OC_*. */
function loginEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const plain: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(env)) if (!/KEY|SECRET|TOKEN|PASSWORD|PASSWD|CREDENTIAL|PRIVATE|COOKIE/i.test(k)) plain[k] = v;
  return claudeEnv(plain, env);
}

function flag(argv: readonly string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  if (i >= 0) return argv[i + 1];
  const eq = argv.find((a) => a.startsWith(`${name}=`));
  return eq?.slice(name.length + 1);
}

function runClaude(env: NodeJS.ProcessEnv, args: string[], io: CommandIO): Promise<number> {
  const bin = locateClaude(env);
  if (!bin) {
    io.stderr.write(`oceancode: ${INSTALL_HINT}\n`);
    return Promise.resolve(2);
  }
  return new Promise((resolve) => {
    const child = spawn(bin, args, { stdio: "inherit", env: loginEnv(env) });
    child.once("error", (e) => {
      io.stderr.write(`oceancode: cannot run ${bin}: ${e.message}\n`);
      resolve(1);
    });
    child.once("close", (code) => resolve(code ?? 1));
  });
}

export function loginCommand(env: NodeJS.ProcessEnv, argv: readonly string[], io: CommandIO): Promise<number> {
  const provider = flag(argv, "--provider") ?? "claude";
  if (provider !== "claude") {
    io.stderr.write(`oceancode: login --provider ${provider} is not available in this build (claude is: it runs \`claude auth login\`)\n`);
    return Promise.resolve(2);
  }
  return runClaude(env, ["auth", "login"], io);
}

export function logoutCommand(env: NodeJS.ProcessEnv, argv: readonly string[], io: CommandIO): Promise<number> {
  const which = argv.find((a) => !a.startsWith("-")) ?? "anthropic";
  if (which !== "anthropic" && which !== "claude") {
    io.stderr.write(`oceancode: logout ${which} is not available in this build (anthropic is: it runs \`claude auth logout\`)\n`);
    return Promise.resolve(2);
  }
  return runClaude(env, ["auth", "logout"], io);
}
