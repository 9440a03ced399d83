/**
 * sandbox: unattended means confined. Taps engine.hooks.childProcess at STAGE_AUDIT (after child-env
 * composed the environment) and wraps each child by how its call was approved (policy.ts): a bash command
 * no person approved runs under bubblewrap (macOS: sandbox-exec); what runs unconfined gets a PID
 * namespace. Taps engine.reviewDecision so that where no sandbox can be built an unattended bash call needs
 * a person (one line says how to install bubblewrap), and provides service "sandbox" (api.ts).
 */
import os from "node:os";
import fs from "node:fs";
import path from "node:path";
import type { ExtensionContext } from "../../kernel/api.js";
import type { EngineService, SpawnContext, SpawnSpec, ToolCallContext, ToolOutput } from "../engine/api.js";
import { outputDir } from "../tools/kit.js";
import { planFor, type SandboxConfig } from "./config.js";
import { wrapSpawn, failingSpec, pidWrap } from "./wrap.js";
import { startRelay, type Relay } from "./relay.js";
import { bwrapAvailable, findOnPath, BWRAP_MISSING } from "./bwrap.js";
import { secretPaths, PROTECTED } from "./secrets.js";
import { Placeholders, envFiles } from "./protect.js";
import { review, wrapFor, type Here } from "./policy.js";
import type { SandboxService } from "./api.js";

function resolvable(spec: SpawnSpec): boolean {
  if (spec.command.includes("/")) return fs.existsSync(path.resolve(spec.cwd, spec.command));
  return findOnPath(spec.command, spec.env.PATH ?? process.env.PATH) !== undefined;
}

export default {
  activate(ctx: ExtensionContext) {
    const cfg = ctx.config.section<SandboxConfig>("sandbox");
    const env = ctx.env;
    let here: Here | undefined;
    const probe = (): Here => {
      if (here) return here;
      if (process.platform === "darwin") here = { available: fs.existsSync("/usr/bin/sandbox-exec"), why: "sandbox-exec is missing", pid: false };
      else if (process.platform !== "linux") here = { available: false, why: `no sandbox on ${process.platform}`, pid: false };
      else {
        const b = bwrapAvailable(env);
        here = { available: b.ok, ...(b.why ? { why: b.why } : {}), pid: b.ok };
      }
      return here;
    };
    const service: SandboxService = {
      policy: () => (cfg.enabled === true ? "all" : cfg.enabled === false ? "off" : "unattended"),
      status: () => {
        const h = probe();
        return { available: h.available, ...(h.why ? { why: h.why } : {}), pidNamespace: h.pid && cfg.pid_namespace !== false };
      },
      wrapFor: (sc, purpose) => wrapFor(cfg, sc, purpose, probe()).kind,
    };
    ctx.provide("sandbox", service);
    if (cfg.enabled === true && process.platform === "linux" && !probe().available) ctx.log.error(BWRAP_MISSING);
    const engine = ctx.services.tryGet("engine");
    if (!engine) return;

    let relay: Promise<Relay> | undefined;
    const placeholders = new Placeholders();
    const tmps = new Map<string, string>();
    const heldBy = new Map<string, string[]>();
    ctx.kernelHooks.shutdown?.tap({ name: ctx.id }, async () => {
      placeholders.clear();
      for (const t of tmps.values()) fs.rmSync(t, { recursive: true, force: true });
      if (relay) await (await relay).close();
    });
    /** the session's private /tmp, made on first use */
    const tmpOf = (sid: string): string => {
      let t = tmps.get(sid);
      if (!t) {
        t = fs.mkdtempSync(path.join(os.tmpdir(), "oc-sandbox-"));
        tmps.set(sid, t);
      }
      return t;
    };
    const own = [ctx.paths.configDir, ctx.paths.dataDir, ctx.paths.stateDir, ctx.paths.userOcDir];
    const reveal = (sid: string): string[] => {
      const out = [outputDir(ctx.paths.dataDir, sid)];
      const ledger = ctx.services.tryGet("ledger");
      if (ledger && ledger.enabled !== false && sid) {
        try {
          out.push(ledger.dirOf(sid));
        } catch {
          /* no ledger dir for this session */
        }
      }
      return out;
    };

    const confine = async (spec: SpawnSpec, sc: SpawnContext): Promise<SpawnSpec> => {
      const project = ctx.paths.project;
      const plan = planFor(cfg, project, spec.cwd, ctx.paths.home);
      plan.deny.push(...secretPaths({ home: ctx.paths.home, own, ...(process.getuid ? { uid: process.getuid() } : {}) }));
      // the call's executeTool wrap made the placeholders already; a spawn outside a call makes them here, kept to shutdown
      if (!sc.callId || !heldBy.has(sc.callId)) {
        placeholders.hold(project);
        placeholders.pin();
      }
      plan.readOnly.push(...PROTECTED.map((p) => path.join(project, p.name)));
      plan.masked.push(...envFiles(project));
      plan.reveal.push(...reveal(sc.sessionId));
      plan.tmp = tmpOf(sc.sessionId || "none");
      let relayDir: string | undefined;
      if (plan.network === "allowlist") {
        relay ??= startRelay(plan.allowHosts, (m) => ctx.log.warn(m));
        relayDir = (await relay).dir;
      }
      return wrapSpawn(spec, plan, { relayDir, ...(probe().available && process.platform === "linux" ? { bwrap: bwrapAvailable(env).bin } : {}) });
    };

    engine.hooks.childProcess.tap({ name: ctx.id, stage: "STAGE_AUDIT" }, async (spec, sc) => {
      const w = wrapFor(cfg, sc ?? { sessionId: "" }, spec.purpose, probe());
      // a program that does not exist fails to spawn as it is (ENOENT): nothing to confine, and the error stays plain
      if ((w.kind === "pid" || w.kind === "confine") && !resolvable(spec)) return spec;
      try {
        switch (w.kind) {
          case "confine":
            return await confine(spec, sc ?? { sessionId: "" });
          case "pid":
            return pidWrap(spec, bwrapAvailable(env).bin!);
          case "none":
            return spec;
          case "refuse":
            return failingSpec(spec, w.why);
        }
      } catch (e) {
        // fail closed: a sandbox that cannot be set up must not turn into an unsandboxed run
        return failingSpec(spec, `sandbox setup failed: ${(e as Error).message}`);
      }
    });

    engine.hooks.reviewDecision.tap({ name: ctx.id }, ({ ctx: call, decision, approval }) => {
      if (call.call.name !== "bash") return undefined;
      return review(cfg, decision, approval, call.call.input.dangerouslyDisableSandbox === true, probe());
    });

    // Placeholders for a call that may spawn confined are made before it runs and removed after it, outside
    // (a lower stage than) checkpoints' scan around bash, so they never look like the command's changes.
    engine.hooks.executeTool.tap({ name: ctx.id, stage: "confine" }, (next) => async (call: ToolCallContext): Promise<ToolOutput> => {
      const spawns = call.tool?.kind === "execute" || call.tool?.kind === "search";
      const sc: SpawnContext = { sessionId: call.session.info.id, tool: call.call.name, callId: call.call.id, ...(call.approval ? { approval: call.approval } : {}), ...(call.call.input.dangerouslyDisableSandbox === true ? { unconfined: true } : {}) };
      if (!spawns || wrapFor(cfg, sc, call.call.name, probe()).kind !== "confine") return next(call);
      heldBy.set(call.call.id, placeholders.hold(ctx.paths.project).held);
      try {
        return await next(call);
      } finally {
        const held = heldBy.get(call.call.id) ?? [];
        heldBy.delete(call.call.id);
        if (call.call.input.run_in_background === true || call.call.input.background === true) placeholders.pin();
        else placeholders.release(held);
      }
    });
  },
};
