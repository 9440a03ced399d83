/** `oceancode jev status|probe|labels|questions|verdicts` (docs/jev.md). */
import fs from "node:fs";
import path from "node:path";
import type { CommandIO } from "../../kernel/api.js";
import type { JevAnswer, JevPoint, JevService } from "./api.js";
import { JEV_POINTS } from "./api.js";
import { collectLabels, mergeLabels } from "./labels.js";
import type { JevPointModule } from "./api.js";
import { JevNotArray } from "./errors.js";

export interface CliDeps {
  jev: JevService;
  modules: readonly JevPointModule[];
  ledgerRoot: string;
  warnings: readonly string[];
}

function flag(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  if (i >= 0) return argv[i + 1];
  const eq = argv.find((a) => a.startsWith(`${name}=`));
  return eq?.slice(name.length + 1);
}

export async function jevCommand(argv: string[], io: CommandIO, deps: CliDeps): Promise<number> {
  const [sub, ...rest] = argv;
  const out = (s: string) => io.stdout.write(`${s}\n`);
  const err = (s: string) => io.stderr.write(`oceancode jev: ${s}\n`);
  const { jev } = deps;
  switch (sub) {
    case "status": {
      const st = jev.status();
      if (rest.includes("--json")) {
        out(JSON.stringify({ ...st, warnings: deps.warnings }, null, 2));
        return 0;
      }
      out(`jev: ${st.enabled ? "on" : "off"}${st.reason ? ` (${st.reason})` : ""}`);
      out(`endpoint: ${st.endpoint}`);
      out(`model: ${st.model}`);
      for (const p of st.points) out(`  ${p.point.padEnd(11)} ${p.mode.padEnd(7)} ${p.why}`);
      for (const w of deps.warnings) out(`warning: ${w}`);
      return 0;
    }
    case "probe": {
      const st = jev.status();
      if (!st.enabled) {
        out(`JEV_PROBE_FAIL outcome=off reason=${JSON.stringify(st.reason ?? "off")}`);
        return 1;
      }
      const res = await jev.ask({
        point: "permission",
        sessionId: "probe",
        state: { command: "ls" },
        questions: { probe: { type: "noul", instructions: "Does `command` list the files of a directory?" } },
      });
      if (res.ok) {
        out(`JEV_PROBE_OK model=${res.model} latency_ms=${res.latencyMs}${res.serverMs !== undefined ? ` server_ms=${res.serverMs}` : ""} endpoint=${st.endpoint}`);
        return 0;
      }
      out(`JEV_PROBE_FAIL outcome=${res.outcome} reason=${JSON.stringify(res.reason)} latency_ms=${res.latencyMs}`);
      return 1;
    }
    case "labels": {
      const point = flag(rest, "--point");
      if (point && !(JEV_POINTS as readonly string[]).includes(point)) {
        err(`--point ${point}: not one of ${JEV_POINTS.join(", ")}`);
        return 2;
      }
      const rows = collectLabels(deps.ledgerRoot, { unlabelled: rest.includes("--unlabelled"), implicit: rest.includes("--implicit"), ...(point ? { point } : {}) });
      const file = flag(rest, "--out");
      if (!file) {
        out(JSON.stringify(rows, null, 2));
        return 0;
      }
      const abs = path.resolve(io.project, file);
      let existing: unknown[] = [];
      if (fs.existsSync(abs)) {
        try {
          const v = JSON.parse(fs.readFileSync(abs, "utf8")) as unknown;
          if (!Array.isArray(v)) throw JevNotArray();
          existing = v;
        } catch (e) {
          err(`${file}: ${(e as Error).message}; not overwritten`);
          return 1;
        }
      }
      const merged = mergeLabels(existing, rows);
      fs.mkdirSync(path.dirname(abs), { recursive: true });
      fs.writeFileSync(abs, `${JSON.stringify(merged.rows, null, 2)}\n`);
      out(`${merged.added} row${merged.added === 1 ? "" : "s"} added to ${file} (${merged.rows.length} in all)`);
      return 0;
    }
    case "questions": {
      const all = Object.fromEntries(deps.modules.map((m) => [m.point, m.questions]));
      out(rest.includes("--json") ? JSON.stringify(all, null, 2) : Object.entries(all).map(([p, q]) => `${p}: ${Object.keys(q).join(", ")}`).join("\n"));
      return 0;
    }
    case "verdicts": {
      const file = flag(rest, "--in");
      if (!file) {
        err("verdicts needs --in <cases.jsonl>");
        return 2;
      }
      let text: string;
      try {
        text = fs.readFileSync(path.resolve(io.project, file), "utf8");
      } catch (e) {
        err(`${file}: ${(e as Error).message}`);
        return 1;
      }
      let bad = 0;
      text.split("\n").forEach((line, i) => {
        if (!line.trim()) return;
        let c: { point?: JevPoint; answers?: Record<string, JevAnswer>; state?: Record<string, unknown> };
        try {
          c = JSON.parse(line) as typeof c;
        } catch {
          bad += 1;
          out(`${i + 1} error=not-json`);
          return;
        }
        const m = deps.modules.find((x) => x.point === c.point);
        if (!m || !c.answers || typeof c.answers !== "object") {
          bad += 1;
          out(`${i + 1} point=${c.point ?? "?"} error=${m ? "no-answers" : "unknown-point"}`);
          return;
        }
        out(`${i + 1} point=${m.point} verdict=${m.verdict(c.answers, (n, f) => jev.threshold(n, f), c.state)}`);
      });
      return bad ? 1 : 0;
    }
    default:
      err(`usage: oceancode jev status [--json] | probe | labels [--implicit | --unlabelled [--point <p>]] [--out <file>] | questions --json | verdicts --in <cases.jsonl>`);
      return 2;
  }
}
