/**
 * Ocean pager host: `oceancode` with no subcommand. Boots the session extensions, opens a fresh
 * session and renders the ink UI. Needs a terminal on both stdin and stdout.
 */
import React from "react";
import { render } from "ink";
import type { Kernel } from "../boot.js";
import type { CommandIO } from "../../kernel/api.js";
import { DEFAULT_MODEL_ID, type EngineService } from "../../extensions/engine/api.js";
import { type ServeService, type ServerHandle } from "../../extensions/serve/api.js";
import { parseListen } from "../../extensions/serve/kit.js";
import { PagerApp } from "./components/app.js";
import { colorFromEnv } from "./components/theme.js";
import { linksFromEnv } from "./render/links.js";
import { loadHighlighter } from "./render/highlight.js";
import { PagerController, type PagerEngine } from "./controller.js";
import { BRACKETED_PASTE_OFF, BRACKETED_PASTE_ON, PagerInput } from "./tty-input.js";
import { visible, visibleLine } from "../terminal/sanitize.js";
import { FOCUS_OFF, FOCUS_ON, FocusFilter, notification, notifySettings } from "./focus.js";
import { exitHint, headerText } from "./chrome-text.js";
import { resumeTarget } from "./resume-target.js";
import { PagerServeMissing } from "./errors.js";

/** Resize: clear the screen and its scrollback, then print the transcript again at the new width. */
const CLEAR_ALL = "\x1b[2J\x1b[3J\x1b[H";

/** `oceancode attach`: the engine is a serve instance's (hosts/attach); its label is said in the transcript */
export interface RemoteOption {
  engine(local: EngineService): PagerEngine;
  label: string;
}

export const NOT_A_TTY = "oceancode: the pager needs a terminal; for scripts use oceancode run ...";

/**
 * The model a fresh pager session starts on, chosen as `oceancode run` does: `-m/--model`, else `model` as
 * configured (the host layer holds the flag, the env layer $OC_MODEL, over the config files), else the default.
 */
export function pagerModel(configured: unknown, flag?: string): string {
  if (flag) return flag;
  if (typeof configured === "string" && configured) return configured;
  return DEFAULT_MODEL_ID;
}

export interface PagerOptions {
  listen?: string;
  model?: string;
  remote?: RemoteOption;
  /** -c/--continue: reopen the latest session of this directory */
  continue?: boolean;
  /** --resume <id>: reopen this session */
  resume?: string;
  /** the product's version, for the header */
  version?: string;
}

export async function main(kernel: Kernel, argv: string[], io: CommandIO, opts: PagerOptions): Promise<number> {
  if (argv.length) {
    io.stderr.write(`oceancode: unexpected argument '${visibleLine(argv[0]!)}' (the pager takes no message; for one prompt use oceancode run "<message>")\n`);
    return 2;
  }
  const out = io.stdout as NodeJS.WriteStream;
  const inp = io.stdin as NodeJS.ReadStream;
  if (!inp.isTTY || !out.isTTY) {
    io.stderr.write(`${NOT_A_TTY}\n`);
    return 2;
  }
  // the pager owns the terminal: kernel and extension log lines become transcript notices, not stray stderr
  const early: Array<{ level: "info" | "warn" | "error"; text: string }> = [];
  let post: ((level: "info" | "warn" | "error", text: string) => void) | undefined;
  const sink = (level: "info" | "warn" | "error") => (text: string) => (post ? post(level, text) : early.push({ level, text }));
  const quiet = () => undefined;
  kernel.setLogger({ debug: io.verbose ? sink("info") : quiet, info: io.verbose ? sink("info") : quiet, warn: sink("warn"), error: sink("error") });
  // --listen: serve is passive (a plain session does not load it), so it activates before the session's
  // extensions, which register their routes on it as they activate; a failure is said at the start below
  if (opts.listen && kernel.hasService("serve")) await kernel.service("serve").catch(() => undefined);
  await kernel.activate("onSession");
  if (!kernel.hasService("engine")) {
    for (const e of early) io.stderr.write(`oceancode: ${e.level}: ${visible(e.text)}\n`);
    io.stderr.write("oceancode: no enabled extension provides the session engine; see oceancode inspect\n");
    return 1;
  }
  const local = await kernel.service("engine");
  const engine: PagerEngine = opts.remote ? opts.remote.engine(local) : local;
  let model = pagerModel(kernel.config.get("model"), opts.model);
  let unready: string | undefined;
  try {
    model = local.resolveModel(model); // `-m sonnet`: the header and the session show the full id
    // a model no installed provider serves is a usage error, said before the screen is taken; a missing key
    // is not: keys are read before every request, so one stored meanwhile (oceancode key) is used. It is
    // said once, at the start, with the command that fixes it
    unready = await engine.checkModel(model);
  } catch (e) {
    for (const x of early) io.stderr.write(`oceancode: ${x.level}: ${visible(x.text)}\n`);
    io.stderr.write(`oceancode: ${visible((e as Error).message)}\n`);
    return 2;
  }
  // --listen: the same server as `oceancode serve`, in this process (its guard refuses a public bind without a
  // password); the person at this terminal answers permission questions, so the server does not take them
  let listener: ServerHandle | undefined;
  if (opts.listen) {
    try {
      const where = parseListen(opts.listen);
      if (!kernel.hasService("serve")) throw PagerServeMissing();
      listener = await (await kernel.service("serve")).start({ ...where, questions: false, env: io.env });
    } catch (e) {
      for (const x of early) io.stderr.write(`oceancode: ${x.level}: ${visible(x.text)}\n`);
      io.stderr.write(`oceancode: --listen ${visibleLine(opts.listen)}: ${visible((e as Error).message)}\n`);
      return 1;
    }
  }
  // attached: the meter's tideline state lives on the server (its /session/{id}/tideline route), not here
  const tideline = !opts.remote && kernel.hasService("tideline") ? await kernel.service("tideline").catch(() => undefined) : undefined;
  const skills = kernel.hasService("skills") ? await kernel.service("skills").catch(() => undefined) : undefined;
  // the plugins service is activated when a picker first needs it (the plugins extension is lazy)
  const plugins = kernel.hasService("plugins") ? () => kernel.service("plugins") : undefined;
  const mcp = kernel.hasService("mcp") ? () => kernel.service("mcp") : undefined;
  // the spend bound for the status bar's $spent / $cap (attached: the bounds live on the server, not shown)
  const bounds = !opts.remote && kernel.hasService("bounds") ? await kernel.service("bounds").catch(() => undefined) : undefined;
  // the todos pane (ctrl+t) reads this process's todos service (an attached pager has none)
  const todos = !opts.remote && kernel.hasService("todos") ? () => kernel.service("todos") : undefined;
  // modes (shift+tab, ctrl+o, /auto, /always-approve) act on this process's permissions (attached: none here)
  const permissions = !opts.remote && kernel.hasService("permissions") ? await kernel.service("permissions").catch(() => undefined) : undefined;
  const planMode = !opts.remote && kernel.hasService("plan-mode") ? await kernel.service("plan-mode").catch(() => undefined) : undefined;
  const pagerCfg = kernel.config.section<Record<string, unknown>>("pager") ?? {};
  const modes = { ...(permissions ? { permissions } : {}), ...(planMode ? { planMode } : {}), cycleBypass: pagerCfg.cycle_bypass === true };
  // -c / -r: the session to reopen, found before the screen is taken (none: said, exit 1; an unknown id: usage, exit 2)
  let resumeId = opts.resume;
  if (resumeId !== undefined && !opts.remote) {
    const found = await resumeTarget(kernel, io, resumeId, inp, out);
    if (typeof found === "number") return found;
    resumeId = found;
  }
  if (opts.continue && !resumeId) {
    resumeId = opts.remote ? undefined : await local.latestSessionId(io.project);
    if (!resumeId) {
      io.stderr.write(`oceancode: -c: no earlier session in ${visibleLine(io.project)} (oceancode opens a fresh one)\n`);
      return 1;
    }
  }
  const trust = !opts.remote && kernel.hasService("trust") ? await kernel.service("trust").catch(() => undefined) : undefined;
  let trusted: boolean | undefined;
  try {
    trusted = trust?.repoTrusted(io.project);
  } catch {
    trusted = undefined;
  }
  // the header and the missing key come first, above a reopened session's rows
  const onOpen = (s: { info: { model: string } }) => {
    ctl.store.add({ kind: "header", text: headerText({ version: opts.version, model: s.info.model, folder: io.project, home: io.home, trusted, remote: opts.remote?.label }) });
    if (unready) ctl.store.add({ kind: "notice", level: "warn", text: unready });
  };
  const ctl: PagerController = new PagerController(kernel, engine, { cwd: io.project, model, tideline, skills, plugins, mcp, bounds, todos, modes, onOpen });
  try {
    await ctl.start(resumeId);
  } catch (e) {
    if (!opts.remote && !resumeId) throw e;
    io.stderr.write(`oceancode${opts.remote ? " attach" : ""}: ${visible((e as Error).message)}\n`);
    return 1;
  }
  post = (level, text) => ctl.store.post({ kind: "notice", level, text });
  for (const e of early.splice(0)) post(e.level, e.text);
  if (listener) ctl.store.post({ kind: "notice", level: "info", text: `listening on ${listener.url} (the oceancode serve API)` });
  if (opts.remote) ctl.store.post({ kind: "notice", level: "info", text: `attached to ${opts.remote.label} · session ${ctl.session.info.id}` });
  if (io.verbose) ctl.store.post({ kind: "notice", level: "info", text: `session ${ctl.session.info.id} · ${io.project}` });

  // bracketed paste: pasted text arrives between markers, so a newline in it is not an Enter (tty-input.ts);
  // focus reporting: ESC[I / ESC[O say whether the terminal is focused (the long-turn notification)
  out.write(BRACKETED_PASTE_ON + FOCUS_ON);
  const pasteOff = () => out.write(BRACKETED_PASTE_OFF + FOCUS_OFF);
  process.once("exit", pasteOff);
  const focus = new FocusFilter(inp);
  const input = new PagerInput(focus);
  const notify = notifySettings(pagerCfg);
  ctl.turnEnded = (ms) => {
    const ring = notification({ ...notify, turnMs: ms, focused: focus.focused, inTmux: Boolean(io.env.TMUX), text: "oceancode: the turn is done" });
    if (ring) out.write(ring);
  };
  // resize: ink's own redraw erases as many rows as it drew, but rows that wrapped at the old width
  // leave copies behind; clear everything and print the transcript again (smaller finding 31)
  const onResize = () => {
    out.write(CLEAR_ALL);
    ctl.store.epoch++;
    ctl.store.changed();
  };
  out.prependListener("resize", onResize);
  // code colours: the grammars load while the screen comes up (a block before that shows uncoloured)
  void loadHighlighter().catch(() => undefined);
  const app = render(React.createElement(PagerApp, { store: ctl.store, actions: ctl, color: colorFromEnv(io.env), links: linksFromEnv(io.env), pastes: input.pastes }), {
    stdout: out,
    stdin: input as unknown as NodeJS.ReadStream, // the parts of a tty stdin that ink uses (tty-input.ts)
    stderr: io.stderr as NodeJS.WriteStream,
    exitOnCtrlC: false,
  });
  // a SIGINT from outside (ctrl+c itself is a key here) leaves like /exit, with 130 so scripts see the signal
  const onSigint = () => ctl.exit(130);
  process.on("SIGINT", onSigint);
  const code = await ctl.exited;
  process.off("SIGINT", onSigint);
  out.off("resize", onResize);
  app.unmount();
  input.dispose();
  process.off("exit", pasteOff);
  pasteOff();
  // how to come back: the session's id and the two commands (a session with no message was not stored)
  const hint = exitHint(ctl.session.info.id, ctl.store.totals.turns > 0 || ctl.session.totals.turns > 0);
  if (hint) out.write(`${hint}\n`);
  await listener?.close();
  await ctl.close();
  return code;
}
