// Ask the same question of several parts of a codebase in parallel (at most 3 sessions at once), then
// have one session merge the answers.
//   oceancode workflow run ./examples/workflows/fan-out.mjs --args '{"dirs":["kernel","hosts","extensions"]}'
export const meta = { name: "fan-out", description: "one read-only session per directory, three at a time, then a summary" };

export async function run(api) {
  const dirs = Array.isArray(api.args?.dirs) ? api.args.dirs : ["."];
  const parts = await api.parallel(
    dirs.map((d) => ({ prompt: `In ${d}/, what does each file do? One line per file.`, agent: "plan", tools: ["read", "ls", "glob", "grep"] })),
    { concurrency: 3 },
  );
  await api.log(`cost so far: $${parts.reduce((s, p) => s + p.costUsd, 0).toFixed(4)}`);
  const summary = await api.session({ prompt: `Merge these into one overview:\n\n${parts.map((p, i) => `## ${dirs[i]}\n${p.text}`).join("\n\n")}` });
  return summary.text;
}
