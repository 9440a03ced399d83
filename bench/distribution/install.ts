/**
 * The one install line, measured: `npm pack` of the built clone (tarball size packed and unpacked, file
 * count), `npm install -g <tgz>` into a fresh prefix in a throwaway HOME (offline by default: packages
 * from this machine's npm cache, better-sqlite3's binding from a local prebuild made of the clone's), then
 * the installed `oceancode --version` and a scripted `run`, median of --runs.
 *
 *   node dist/bench/distribution/install.js [--runs 5] [--installs 1] [--prefer-offline]
 *
 * `--offline` needs the registry metadata of every dependency in the cache (one online install of the
 * tarball leaves it there; a cache filled by `npm install` from the lockfile holds the tarballs only):
 * with `--prefer-offline` npm fetches what is missing.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { homeEnv } from "../../test/kit/fakes/home-env.js";
import { installTarball, localPrebuild, packTarball, pathWithoutClone } from "../../test/kit/fakes/packed-install.js";

const { values } = parseArgs({ options: { runs: { type: "string", default: "5" }, installs: { type: "string", default: "1" }, "prefer-offline": { type: "boolean", default: false } } });
const runs = Math.max(1, Number(values.runs));
const installs = Math.max(1, Number(values.installs));
const mode = values["prefer-offline"] ? "--prefer-offline" : "--offline";

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const kb = (n: number): string => `${(n / 1024).toFixed(0)} KB`;
const ms = (n: number): string => `${n.toFixed(0)} ms`;

const root = fs.mkdtempSync(path.join(os.tmpdir(), "oc-bench-install-"));
try {
  process.stdout.write(`node ${process.version}, ${os.cpus()[0]?.model ?? "cpu"} x${os.cpus().length}, load ${os.loadavg()[0]!.toFixed(2)}\n`);
  let t = performance.now();
  const packed = packTarball(root);
  process.stdout.write(`npm pack: ${path.basename(packed.tarball)} ${kb(packed.size)} packed, ${kb(packed.unpackedSize)} unpacked, ${packed.files.length} files, ${ms(performance.now() - t)}\n`);
  const prebuilds = localPrebuild(path.join(root, "prebuilds"));

  const times: number[] = [];
  let prefix = "";
  let home = "";
  for (let i = 0; i < installs; i++) {
    home = path.join(root, `home-${i}`);
    prefix = path.join(root, `prefix-${i}`);
    const cwd = path.join(root, `elsewhere-${i}`);
    fs.mkdirSync(home, { recursive: true });
    fs.mkdirSync(cwd, { recursive: true });
    const r = installTarball({ tarball: packed.tarball, prefix, home, cwd, prebuilds, mode });
    if (r.status !== 0) throw new Error(`npm install -g ${mode} failed:\n${r.stderr.slice(-2000)}`);
    times.push(r.ms);
  }
  const installed = path.join(prefix, "lib", "node_modules", "oceancode");
  const du = spawnSync("du", ["-sk", installed], { encoding: "utf8" }).stdout.split("\t")[0];
  const deps = fs.readdirSync(path.join(installed, "node_modules")).flatMap((d) => (d.startsWith("@") ? fs.readdirSync(path.join(installed, "node_modules", d)) : [d])).length;
  process.stdout.write(`npm install -g ${mode}: median ${ms(median(times))} of ${installs} (${times.map(ms).join(", ")}); installed ${du} KB with ${deps} packages in node_modules\n`);

  const cwd = path.join(root, "project");
  fs.mkdirSync(cwd, { recursive: true });
  fs.writeFileSync(path.join(cwd, "hello.json"), JSON.stringify({ steps: [{ text: "hello" }] }));
  const env = { ...homeEnv(home, path.join(root, "managed.json")), PATH: `${path.join(prefix, "bin")}${path.delimiter}${pathWithoutClone()}` };
  const time = (args: string[]): number[] => {
    const out: number[] = [];
    for (let i = 0; i <= runs; i++) {
      t = performance.now();
      const r = spawnSync("oceancode", args, { cwd, env, input: "", encoding: "utf8" });
      if (r.status !== 0) throw new Error(`oceancode ${args.join(" ")}: ${r.stderr}`);
      if (i > 0) out.push(performance.now() - t); // run 0 warms the disk cache
    }
    return out;
  };
  const version = time(["--version"]);
  const run = time(["run", "--model", "scripted/hello.json", "hi"]);
  process.stdout.write(`installed oceancode --version: median ${ms(median(version))} of ${runs}\n`);
  process.stdout.write(`installed oceancode run --model scripted/…: median ${ms(median(run))} of ${runs}\n`);
} finally {
  fs.rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
}
