/**
 * Goal runs are written to the workflows extension's run store (`<data dir>/workflow-runs/<run_id>/`: run.json
 * once, updates.jsonl one whole line per body), so `oceancode workflow runs --all` lists them: one writer.
 */
export { newRunId, RunStore, runsDir } from "../workflows/kit.js";
