/**
 * A summary of one V8 CPU profile (`node --cpu-prof`): self time per function and per phase of a start-up.
 * The profiler samples wall time, so on a busy machine descheduled time lands on whatever frame was
 * current; compare the shares of one profile, not absolute figures across sittings.
 */
import fs from "node:fs";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  totalMs: number;
  /** function (file:line) by self time, largest first */
  self: Array<{ name: string; ms: number }>;
  /** phases of a start-up by self time of the samples that fall in them, largest first */
  phases: Array<{ name: string; ms: number }>;
}

/** a frame as `name file:line`, the file relative to dist/ or node_modules/ */
function frameName(f: CallFrame): string {
  const file = f.url.replace(/^.*\/(dist|node_modules)\//, "$1/").replace(/^file:\/\//, "");
  return `${f.functionName || "(anonymous)"} ${file ? `${file}:${f.lineNumber + 1}` : ""}`.trim();
}

const has = (stack: CallFrame[], re: RegExp) => stack.some((f) => re.test(`${f.functionName} ${f.url}`));
const ours = (f: CallFrame) => /\/dist\/|node_modules\//.test(f.url);

/** The phase one sample belongs to (stack: leaf first). The first rule that matches wins. */
function phaseOf(stack: CallFrame[]): string {
  const leaf = stack[0]!;
  if (leaf.functionName === "(garbage collector)") return "GC";
  if (leaf.functionName === "(idle)") return "idle (waiting on I/O)";
  if (leaf.functionName === "(program)") return "V8/native, unattributed";
  if (has(stack, /^buildHeaders |^Headers /)) return "Node's undici (first new Headers())";
  if (leaf.functionName === "compileSourceTextModule") return "ES module compile";
  if (has(stack, /node:internal\/modules\/esm/) && !stack.some(ours)) return "ES module loader (resolve, read, link)";
  if (has(stack, /better-sqlite3|openDb /)) return "SQLite (load, open, statements)";
  if (has(stack, /compileForInternalLoader|compileForPublicLoader/)) return "Node built-in modules loaded";
  if (stack.some((f) => f.lineNumber === 0 && !f.functionName && ours(f))) return "module top-level evaluation";
  if (has(stack, /node:internal\/modules\/cjs/)) return "CommonJS require";
  if (has(stack, /^discover/)) return "kernel discovery (manifests, config)";
  if (has(stack, /^runActivation |^activateRecord /)) return "extension activation";
  if (has(stack, /^runPrompt |^runTurn |^runModel /)) return "the turn (request, stream, ledger)";
  if (has(stack, /node:internal\/deps\/undici|node:internal\/webstreams|node:net|node:_http/)) return "HTTP (undici, web streams, sockets)";
  const ext = stack.map((f) => /\/dist\/extensions\/([^/]+)\//.exec(f.url)?.[1]).find((id) => id !== undefined);
  if (ext) return `extension code: ${ext}`;
  if (stack.some((f) => /\/dist\/(hosts|chunks)\//.test(f.url))) return "hosts, kernel and shared chunks";
  if (has(stack, /^node:/)) return "Node internals (other)";
  return "other";
}

export function summarizeProfile(file: string, top = 12, phaseCount = 14): ProfileSummary {
  const p = JSON.parse(fs.readFileSync(file, "utf8")) as CpuProfile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<string, number>();
  const phases = new Map<string, number>();
  let totalMs = 0;
  for (let i = 0; i < p.samples.length; i++) {
    const ms = (p.timeDeltas[i] ?? 0) / 1000;
    totalMs += ms;
    const stack: CallFrame[] = [];
    for (let id: number | undefined = p.samples[i]; id !== undefined; id = parent.get(id)) stack.push(byId.get(id)!.callFrame);
    if (stack.length === 0) continue;
    const name = frameName(stack[0]!);
    self.set(name, (self.get(name) ?? 0) + ms);
    const phase = phaseOf(stack);
    phases.set(phase, (phases.get(phase) ?? 0) + ms);
  }
  const sorted = (m: Map<string, number>, n: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n).map(([name, ms]) => ({ name, ms }));
  return { totalMs, self: sorted(self, top), phases: sorted(phases, phaseCount) };
}
