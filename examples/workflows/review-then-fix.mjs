// Copy to .oceancode/workflows/ (this project) or ~/.oceancode/workflows/ (every project), then:
//   oceancode workflow run review-then-fix --args '{"path":"src/"}' --budget 40
export const meta = { name: "review-then-fix", description: "a read-only review, then one worker session fixes what it found" };

export default async function main(api) {
  const path = api.args?.path ?? ".";
  const review = await api.session({ prompt: `Review ${path} for bugs. List each as one line: file:line: problem.`, agent: "plan" });
  const findings = review.text.split("\n").filter((l) => /:\d+:/.test(l));
  await api.progress(`${findings.length} findings`);
  if (findings.length === 0) return { findings: 0 };
  const fix = await api.session({ prompt: `Fix these, one at a time, and run the tests after each:\n${findings.join("\n")}` });
  const { spent, remaining } = await api.budget();
  return { findings: findings.length, filesTouched: fix.filesTouched, spent, remaining };
}
