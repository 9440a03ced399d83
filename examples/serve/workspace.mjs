#!/usr/bin/env node
// What a client shows beside the chat, from a running `oceancode serve`: plain node (>= 20), no dependencies.
//
//   node examples/serve/workspace.mjs status                 # providers with a key (never the key), doctor
//   node examples/serve/workspace.mjs find btn               # fuzzy file search, then the best hit's first lines
//   node examples/serve/workspace.mjs config engine.max_steps [value]   # where a key comes from; set it (user file)
//   node examples/serve/workspace.mjs diff <session-id>      # what the session changed, as a unified diff
//
// OC_URL (default http://127.0.0.1:4096); with OC_SERVER_PASSWORD set on the server, set it here too.

const base = process.env.OC_URL ?? "http://127.0.0.1:4096";
const headers = { "content-type": "application/json" };
if (process.env.OC_SERVER_PASSWORD) {
  const user = process.env.OC_SERVER_USERNAME || "oceancode";
  headers.authorization = `Basic ${Buffer.from(`${user}:${process.env.OC_SERVER_PASSWORD}`).toString("base64")}`;
}

async function api(method, path, body) {
  const res = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${data.error?.code}: ${data.error?.message}`);
  return data;
}

const [cmd, arg, value] = process.argv.slice(2);
const q = (o) => new URLSearchParams(o).toString();

if (cmd === "status") {
  for (const p of (await api("GET", "/auth")).providers) console.log(`${p.provider.padEnd(12)} ${p.configured ? `key from ${p.source}` : `no key (set ${p.variable} or POST /auth/${p.provider})`}`);
  const d = await api("GET", "/doctor");
  console.log(d.ok ? "doctor: ok" : `doctor: ${d.problems} problem(s)`);
  for (const c of d.checks.filter((c) => c.status === "FAIL" || c.status === "warn")) console.log(`  ${c.status} ${c.check}: ${c.detail}`);
} else if (cmd === "find" && arg) {
  const { files } = await api("GET", `/file/find?${q({ query: arg, limit: "5" })}`);
  for (const f of files) console.log(`${f.score.toFixed(2)}  ${f.path}`);
  if (files[0]) {
    const r = await api("GET", `/file/content?${q({ path: files[0].path, max_bytes: "400" })}`);
    console.log(`--- ${r.path} (${r.size} bytes${r.truncated ? ", first 400" : ""})\n${r.content}`);
  }
} else if (cmd === "config" && arg) {
  if (value !== undefined) {
    let v = value;
    try {
      v = JSON.parse(value);
    } catch {
      // a bare word is a string
    }
    const r = await api("PATCH", "/config", { scope: "user", set: { [arg]: v } });
    console.log(`wrote ${r.keys.join(", ")} to ${r.file} (read at the server's next start)`);
  }
  const k = (await api("GET", "/config")).keys.find((x) => x.key === arg);
  console.log(k ? `${k.key} = ${JSON.stringify(k.value)}  (${k.layer}: ${k.source})` : `${arg} is not set`);
} else if (cmd === "diff" && arg) {
  const { files } = await api("GET", `/session/${encodeURIComponent(arg)}/diff`);
  if (!files.length) console.log("no files changed");
  for (const f of files) console.log(f.diff ?? `${f.status} ${f.path} (not shown: ${f.withheld})`);
} else {
  console.error("usage: workspace.mjs status | find <query> | config <key> [value] | diff <session-id>");
  process.exit(2);
}
