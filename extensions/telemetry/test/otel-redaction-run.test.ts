/**
 * Exported content goes through the shared redactor: with obs.otel_log_content on, a key-shaped secret and
 * a URL password in the prompt (and the model's echo of it), an environment secret's value in a tool's
 * input and output reach the collector only as ***. NEEDS THE SHARED REDACTOR (extensions/obs/redact.ts, branch h32-logs): until that is merged
 * the obs service's redact is a pass-through and this test fails, by design (the effect is what counts).
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeSandbox, runCliAsync, type Sandbox } from "../../../test/kit/cli.js";
import { startOtlpCollector, type OtlpCollector } from "../../../test/kit/fakes/otlp-collector.js";

const KEY = "sk-ant-api03-CANARYkey0123456789abcdef";
const ENV_SECRET = "CANARYenvsecret-7d1e2f90";
const URL_PW = "CANARYurlpw-55aa";
let sb: Sandbox;
let col: OtlpCollector;
beforeAll(async () => {
  sb = makeSandbox("oc-otel-redact-");
  sb.write("s.json", JSON.stringify({ steps: [{ text: "Fetching.", tool_calls: [{ name: "read", input: { file_path: `missing-${ENV_SECRET}.txt` } }] }, { text: "Done: {{prompt}}" }] }));
  fs.mkdirSync(path.join(sb.home, ".config", "oceancode"), { recursive: true });
  fs.writeFileSync(path.join(sb.home, ".config", "oceancode", "oceancode.json"), JSON.stringify({ obs: { otel: true, otel_log_content: true } }));
  col = await startOtlpCollector();
});
afterAll(async () => {
  await col.close();
  sb.cleanup();
});

describe("telemetry content is redacted", () => {
  it("no secret reaches any exported body, though the content does", async () => {
    const r = await runCliAsync(["--dir", sb.project, "run", "--auto", "--model", "scripted/s.json", `use ${KEY} on https://ops:${URL_PW}@db.example/dump`], {
      env: { ...sb.env, MY_SERVICE_TOKEN: ENV_SECRET, OTEL_EXPORTER_OTLP_ENDPOINT: col.url },
      cwd: sb.project,
    });
    expect(r.code, r.stderr).toBe(0);
    const bodies = col.bodies();
    expect(bodies.join("\n")).toContain("oceancode.prompt"); // content is on
    expect(bodies.join("\n")).toContain("db.example/dump");
    expect(bodies.join("\n")).toContain("missing-");
    for (const b of bodies) {
      expect(b).not.toContain(KEY);
      expect(b).not.toContain("CANARYkey");
      expect(b).not.toContain(ENV_SECRET);
      expect(b).not.toContain(URL_PW);
    }
  });
});
